"""Azul: Summer Pavilion as a game family (the contract of ``games.families``).

The package holds what differs from other families: the move form (``forms``),
the board as plain data (``board``), the log and the refusals in words
(``words``); the templates are under ``templates/games/pavilion/`` (the live
board's decisions sit in a panel beside the position, ``_live.html``, helped by
``static/js/pavilion.js``; every choice also works as a plain link). Zones the
templates mark (``data-zone``): ``factory-<i>`` (0-based), ``centre``, ``supply``,
``hand-<seat>``, ``corners-<seat>`` (tiles kept for the next round),
``board-<seat>`` (placed tiles), ``bag`` and ``tower``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.common import EngineError
from games.engine.variants import PAVILION_FAMILY, Family

from . import board, statistics, words
from .forms import PavilionMoveForm


class PavilionFamily:
    engine_family: Family = PAVILION_FAMILY
    name: str = PAVILION_FAMILY.name
    position_template = "games/pavilion/_position.html"
    live_template = "games/pavilion/_live.html"

    def move_form(self, data: Mapping[str, Any] | None = None) -> PavilionMoveForm:
        return PavilionMoveForm(data)

    def position_context(self, engine: Any, names: Sequence[str]) -> dict[str, Any]:
        return board.position_context(engine, names)

    def live_context(
        self,
        engine: Any,
        *,
        names: Sequence[str],
        viewer_seat: int | None,
        active: bool,
        query: Mapping[str, str],
    ) -> dict[str, Any]:
        return board.live_context(
            engine, names=names, viewer_seat=viewer_seat, active=active, query=query
        )

    def describe_log(self, engine: Any, names: Sequence[str]) -> list[str]:
        return words.describe_log(engine, names)

    def error_message(self, error: EngineError) -> str:
        return words.error_message(error)

    def statistics(self, engine: Any) -> list[tuple[str, list[Any]]]:
        return statistics.statistics(engine)


FAMILY = PavilionFamily()
