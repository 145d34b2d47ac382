"""The game families the site knows: the contract each fulfils, and the registry.

A family (classic Azul, Summer Pavilion) is one package, ``games/classic/`` or
``games/pavilion/``, with a module-level ``FAMILY`` object, and its templates under
``templates/games/<name>/``. Which variants and families exist is the engine's
registry (``games.engine.variants``); each package extends its engine family
with the site's side, and ``family_for(variant)`` finds it: views, services and
replays call the contract and never branch on the family. A third Azul game would
be its engine family and variants in the registry, one new package, its templates
and one line in ``FAMILIES``.

Templates:

- ``position_template`` draws one position read-only from ``position`` (the dict
  ``position_context`` returns). The live board and the replay both include it.
- ``live_template`` draws the family's part of the live board (the position plus
  the viewer's decision controls) from ``board`` (the ``BoardContext``
  ``live_context`` returns); the site's frame (``templates/games/_board.html``:
  status line, error, absences, final result, log, resign button) wraps it.

Both mark what they draw machine-readably: each tile is an element with
``data-colour`` (the record's colour name) and, when one element stands for
several tiles, ``data-count``; it sits inside an element whose ``data-zone``
names where it lies (the zone names are each family's, see its package).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, Protocol, TypedDict

from django import forms

from games.classic import FAMILY as CLASSIC
from games.engine.common import EngineError
from games.engine.common import Game as EngineGame
from games.engine.variants import VARIANTS, Family
from games.pavilion import FAMILY as PAVILION
from games.play.moves import MoveCodec
from games.selectors import SeatView


class MoveForm(Protocol):
    """A Django form that reads one posted decision.

    ``cleaned_data["expected_ply"]`` is the ply the page was drawn at (every
    family's form reads it with ``games.play.moves.PlyField``); ``record_event()`` is
    the decision as a record event without its ``seat``, read by the family's
    ``codec``.
    """

    cleaned_data: dict[str, Any]

    def is_valid(self) -> bool: ...

    def non_field_errors(self) -> forms.utils.ErrorList: ...

    def record_event(self) -> dict[str, Any]: ...


class BoardContext(TypedDict):
    """What every family's live board context holds (``live_context``; each
    family's is a TypedDict with these keys and its own: ``ClassicBoard``,
    ``PavilionBoard`` in its ``board.py``)."""

    position: dict[str, Any]
    """``position_context``'s data, with the viewer's board marked."""
    my_turn: bool
    """``view.my_turn``: the viewer decides now."""
    prompt: str
    """What the viewer is asked to do (translated plain text), or ``""``."""
    log: NotRequired[list[str]]
    """The game's log in words, added by the view."""
    since: NotRequired[list[str]]
    """The log's lines since the viewer's last decision, added by the view."""


class GameFamily(Protocol):
    """What differs between game families."""

    engine_family: Family
    """The engine registry's family (``games.engine.variants``) this one extends:
    its variants, their players and titles."""

    name: str
    """``engine_family.name``: the ``Game.family`` value and template folder."""

    codec: MoveCodec
    """The family's moves on the wire (its ``moves`` module, ``docs/moves.md``):
    the one place their strings are printed and read."""

    position_template: str
    live_template: str

    def move_form(self, data: Mapping[str, Any] | None = None) -> MoveForm:
        """The bound form for a move POST (``data``), or an unbound one."""
        ...

    def position_context(
        self, engine: EngineGame, names: Sequence[str]
    ) -> dict[str, Any]:
        """Plain data (no HTML) for ``position_template``."""
        ...

    def live_context(
        self,
        engine: EngineGame,
        *,
        names: Sequence[str],
        view: SeatView,
        query: Mapping[str, str],
    ) -> BoardContext:
        """Plain data for ``live_template`` (:class:`BoardContext` and the
        family's own keys): the position and, when it is ``view``'s viewer's turn
        (``view.my_turn``), their decision, chosen through ``query`` (the GET
        parameters of the page, read by the family's ``codec``). Previews of a
        decision are computed by applying it to ``engine.copy()``."""
        ...

    def describe_log(self, engine: EngineGame, names: Sequence[str]) -> list[str]:
        """The game's log in words, one translated line per entry, in order."""
        ...

    def mark_best(
        self,
        position: dict[str, Any],
        engine: EngineGame,
        decision: Mapping[str, Any],
    ) -> None:
        """Mark on ``position`` (``position_context``'s data for ``engine``)
        where the decision ``decision`` (a record event legal in ``engine``)
        takes from and puts to: the review's best decision, drawn on the
        replay's board as ``data-best`` marks (docs/review.md)."""
        ...

    def error_message(self, error: EngineError) -> str:
        """A player's translated wording of an engine refusal."""
        ...

    def statistics(self, engine: EngineGame) -> list[tuple[str, list[Any]]]:
        """End-of-game statistics: rows of a label and a value per seat."""
        ...


# The registry.

FAMILIES: dict[str, GameFamily] = {
    family.name: family for family in (CLASSIC, PAVILION)
}

# Every variant of the engine's registry has its family here (a KeyError on import
# otherwise).
_BY_VARIANT: dict[str, GameFamily] = {
    variant.name: FAMILIES[variant.family.name] for variant in VARIANTS
}


def family_for(variant: str) -> GameFamily:
    """The family of a record variant (``classic-grey`` → classic). KeyError if
    the variant is unknown."""
    return _BY_VARIANT[variant]
