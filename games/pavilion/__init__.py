"""Azul: Summer Pavilion as a game family (the contract of ``games.families``).

The package holds what differs from other families: its moves on the wire
(``moves``, the codec), the move form (``forms``),
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
from games.pavilion import board, moves, statistics, words
from games.pavilion.forms import PavilionMoveForm
from games.play.moves import MoveCodec
from games.selectors import SeatView


class PavilionFamily:
    engine_family: Family = PAVILION_FAMILY
    name: str = PAVILION_FAMILY.name
    codec: MoveCodec = moves
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
        view: SeatView,
        query: Mapping[str, str],
    ) -> board.PavilionBoard:
        return board.live_context(engine, names=names, view=view, query=query)

    def describe_log(self, engine: Any, names: Sequence[str]) -> list[str]:
        return words.describe_log(engine, names)

    def mark_best(
        self, position: dict[str, Any], engine: Any, decision: Mapping[str, Any]
    ) -> None:
        board.mark_best(position, engine, decision)

    def error_message(self, error: EngineError) -> str:
        return words.error_message(error)

    def statistics(self, engine: Any) -> list[tuple[str, list[Any]]]:
        return statistics.statistics(engine)


FAMILY = PavilionFamily()
