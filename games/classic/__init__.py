"""Classic Azul (coloured or grey wall) as a game family (``games.families``).

Its moves on the wire are ``moves`` (the codec), its move form ``forms``, its
board as plain data ``board``, its log and refusals in words ``words``.

Templates: ``templates/games/classic/_position.html`` draws one position
read-only (the live board and the replay); ``_live.html`` adds the viewer's
controls. Both mark every tile (``data-colour``, ``data-count`` for the bag and
lid counts) inside its zone: ``factory-<i>`` (0-based), ``centre``,
``line-<seat>-<line>`` (lines 0–4), ``wall-<seat>``, ``floor-<seat>``, ``bag``
and ``lid``. The first-player marker and the wall's printed spaces carry no
``data-colour``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.classic import board, moves, statistics, words
from games.classic.forms import ClassicMoveForm
from games.engine.classic import ClassicGame
from games.engine.common import EngineError
from games.engine.variants import CLASSIC_FAMILY, Family
from games.play.moves import MoveCodec
from games.selectors import SeatView


class ClassicFamily:
    engine_family: Family = CLASSIC_FAMILY
    name: str = CLASSIC_FAMILY.name
    codec: MoveCodec = moves
    position_template: str = "games/classic/_position.html"
    live_template: str = "games/classic/_live.html"

    def move_form(self, data: Mapping[str, Any] | None = None) -> ClassicMoveForm:
        return ClassicMoveForm(data)

    def position_context(self, engine: Any, names: Sequence[str]) -> dict[str, Any]:
        return board.position_context(_classic(engine), names)

    def live_context(
        self,
        engine: Any,
        *,
        names: Sequence[str],
        view: SeatView,
        query: Mapping[str, str],
    ) -> board.ClassicBoard:
        return board.live_context(_classic(engine), names=names, view=view, query=query)

    def describe_log(self, engine: Any, names: Sequence[str]) -> list[str]:
        return words.describe_log(_classic(engine), names)

    def mark_best(
        self, position: dict[str, Any], engine: Any, decision: Mapping[str, Any]
    ) -> None:
        board.mark_best(position, _classic(engine), decision)

    def error_message(self, error: EngineError) -> str:
        return words.error_message(error)

    def statistics(self, engine: Any) -> list[tuple[str, list[Any]]]:
        return statistics.statistics(_classic(engine))


def _classic(engine: Any) -> ClassicGame:
    if not isinstance(engine, ClassicGame):
        raise TypeError(f"not a classic Azul game: {engine!r}")
    return engine


FAMILY = ClassicFamily()
