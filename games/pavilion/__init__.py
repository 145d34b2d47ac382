"""Azul: Summer Pavilion as a game family (the contract of ``games.families``).

For now a thin adapter over the site's pavilion modules, so the registry imports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class PavilionFamily:
    name = "pavilion"
    variants = ("pavilion", "pavilion-grey")
    position_template = "games/pavilion/_position.html"
    live_template = "games/pavilion/_live.html"

    def move_form(self, data: Mapping[str, Any] | None = None) -> Any:
        from games.pavilion_forms import PavilionMoveForm

        return PavilionMoveForm(data)

    def position_context(self, engine: Any, names: Sequence[str]) -> dict[str, Any]:
        from games.pavilion_board import position_context

        return position_context(engine, names)

    def live_context(
        self,
        engine: Any,
        *,
        names: Sequence[str],
        viewer_seat: int | None,
        active: bool,
        query: Mapping[str, str],
    ) -> dict[str, Any]:
        from games.pavilion_board import live_context

        return live_context(
            engine=engine,
            names=names,
            viewer_seat=viewer_seat,
            active=active,
            query=query,
        )

    def describe_log(self, engine: Any, names: Sequence[str]) -> list[str]:
        from games.pavilion_board import describe_log

        return describe_log(engine, names)

    def error_message(self, error: Any) -> str:
        from games.pavilion_errors import pavilion_error_message

        return pavilion_error_message(error)


FAMILY = PavilionFamily()
