"""What classic Azul and Summer Pavilion share: errors, reading a record event's
seat and colours, drawing tiles, the outcome.

Tiles are small integers (colour indices); a collection of tiles (bag, lid, tower,
factory, centre, hand) is a list of counts indexed by colour. Nothing here imports
Django or touches a global random generator: the caller passes a ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, get_args

if TYPE_CHECKING:
    from .variants import Family

CENTER = -1
"""Source index of the centre of the table (spelled ``"center"`` in records)."""


class EngineError(ValueError):
    """Base class of every error the engine raises about a move or a record.

    ``str(error)`` is an English sentence for a player. ``code`` names the fault and
    ``params`` its values, so a user interface can word it in another language.
    """

    def __init__(
        self, message: str, code: str = "", params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})


Refusal = Literal[
    "bonus_count",
    "bonus_due",
    "colour_absent",
    "deal_due",
    "deal_impossible",
    "deal_overfull",
    "deal_short",
    "deal_size",
    "game_over",
    "invalid_wilds",
    "keep_after_last_round",
    "keep_not_in_hand",
    "keep_too_many",
    "line_full",
    "line_holds_other",
    "malformed",
    "malformed_pass",
    "no_bonus_owed",
    "no_chance_due",
    "no_deal_due",
    "no_decision",
    "no_such_colour",
    "no_such_column",
    "no_such_factory",
    "no_such_line",
    "no_such_seat",
    "no_such_space",
    "no_such_star",
    "no_supply_due",
    "no_tile_of_colour",
    "not_a_colour_list",
    "not_a_decision",
    "not_a_move",
    "not_an_object",
    "not_enough_wilds",
    "not_offer_phase",
    "not_tiling_phase",
    "not_your_turn",
    "pass_before_phase_2",
    "place_before_phase_2",
    "source_empty",
    "space_filled",
    "star_holds_colour",
    "star_holds_only",
    "star_takes_its_colour",
    "supply_draw_empty",
    "supply_draw_impossible",
    "supply_draw_short",
    "supply_draw_too_many",
    "supply_due",
    "supply_short",
    "take_phase_over",
    "too_few_tiles",
    "too_few_tiles_with_wilds",
    "too_many_wilds",
    "wall_column_has_colour",
    "wall_row_has_colour",
    "wall_space_filled",
    "wild_pays_for_itself",
    "wild_take_with_others",
    "wrong_variant",
    "wrong_wall_line",
]
"""Every ``code`` the engine's refusals carry: one set for both families and the
record reader (``InvalidMoveError``, ``IllegalMoveError``). A code means the same
fault, with the same ``params``, in whichever module raises it (``no_such_seat``,
``deal_short``...); the site words each code once per family
(``games/play/refusals.py`` for the shared ones) and ``mypy`` refuses a code outside
this set at the raise."""
REFUSALS: frozenset[str] = frozenset(get_args(Refusal))


class InvalidMoveError(EngineError):
    """A decision that does not parse (unknown colour, source out of range...)."""

    def __init__(
        self,
        message: str,
        code: Refusal | Literal[""] = "",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message, code, params)


class IllegalMoveError(EngineError):
    """A decision that parses but the rules forbid; the message is for a player."""

    def __init__(
        self,
        message: str,
        code: Refusal | Literal[""] = "",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message, code, params)


class RecordError(EngineError):
    """A game record that cannot be read or replayed.

    ``index`` is the 0-based event index, or ``None`` for a fault outside the events;
    ``str()`` gives ``event 41: ...`` or ``record: ...`` as ``docs/record.md``
    asks. ``cause`` is the engine's refusal of that event, where the engine
    refused it (its ``code`` and ``params`` let the site word it for players,
    counting from 1), and ``variant`` the record's, once its header was read.
    """

    def __init__(
        self,
        index: int | None,
        reason: str,
        *,
        cause: EngineError | None = None,
        variant: str | None = None,
    ) -> None:
        self.index = index
        self.reason = reason
        self.cause = cause
        self.variant = variant
        where = "record" if index is None else f"event {index}"
        super().__init__(f"{where}: {reason}", "record", {"index": index})


# Reading record events: the fields both families' decisions share, read alike.


def read_seat(event: Mapping[str, Any], players: int) -> int:
    """The seat a decision event names (``"seat"``, ``docs/record.md``), for both
    families: ``no_such_seat`` (``seat``, ``players``) unless it is a seat number
    of the game, missing or not a number alike."""
    seat = event.get("seat")
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidMoveError(
            f'"seat" must be a seat number 0-{players - 1}',
            "no_such_seat",
            {"seat": seat, "players": players},
        )
    return seat


@dataclass(frozen=True, slots=True, eq=False)
class ColourNames:
    """A family's colours as its record events name them (``index``: name to
    colour), read alike by both families: what names no colour of the family is
    ``no_such_colour`` (``field``: the event's key, ``value``: what stood there).
    ``unknown`` is the family's English sentence for it (each family's wording
    predates this reader), a ``str.format`` template of ``what`` (the field in
    words) and ``value``."""

    index: Mapping[str, int]
    unknown: str

    def read(self, value: object, what: str = "colour", field: str = "colour") -> int:
        """The colour the name ``value`` stands for."""
        colour = self.index.get(value) if isinstance(value, str) else None
        if colour is None:
            raise InvalidMoveError(
                self.unknown.format(what=what, value=value),
                "no_such_colour",
                {"field": field, "value": value},
            )
        return colour


@dataclass(frozen=True, slots=True)
class ScoreChange:
    """One reason a score moved: ``kind`` is a stable code, ``detail`` is for people.

    Kinds used by the classic engine: ``wall`` (a wall tile's points), ``floor``
    (floor penalty, after the clamp at 0), ``row``, ``column``, ``colour`` (end
    bonuses). Summer Pavilion adds its own (``star``, ``start-token``, ``discard``,
    ``star-bonus``, ``number-bonus``).
    """

    round: int
    seat: int
    points: int
    kind: str
    detail: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game as a value: final scores, ranks and winners."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


def outcome_from_keys(
    scores: Sequence[int], keys: Sequence[tuple[int, ...]]
) -> Outcome:
    """Rank seats by ``keys`` (bigger is better): rank = 1 + seats strictly ahead."""
    ranks = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
    winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    return Outcome(scores=tuple(scores), ranks=ranks, winners=winners)


def draw_tile(bag: list[int], discard: list[int], rng: random.Random) -> int | None:
    """Draw one tile uniformly from ``bag``; pour ``discard`` in first if bag is empty.

    Returns the colour index, or ``None`` when bag and discard are both empty. The
    bag has no order to leak: each draw is chosen at the moment it is made.
    """
    total = sum(bag)
    if total == 0:
        total = sum(discard)
        if total == 0:
            return None
        for colour, count in enumerate(discard):
            bag[colour] += count
            discard[colour] = 0
    pick = rng.randrange(total)
    for colour, count in enumerate(bag):
        if pick < count:
            bag[colour] = count - 1
            return colour
        pick -= count
    raise AssertionError("unreachable: bag counts changed during a draw")


def take_drawn_tile(bag: list[int], discard: list[int], colour: int) -> bool:
    """Replay the draw of ``colour`` as :func:`draw_tile` would have made it.

    Returns ``False`` (changing nothing) when that tile could not have been drawn.
    """
    if not any(bag):
        if not any(discard):
            return False
        if discard[colour] == 0:
            return False
        for c, count in enumerate(discard):
            bag[c] += count
            discard[c] = 0
    if bag[colour] == 0:
        return False
    bag[colour] -= 1
    return True


def can_draw(bag: Sequence[int], discard: Sequence[int]) -> bool:
    """Whether at least one tile can still be drawn (from the bag or after a pour)."""
    return any(bag) or any(discard)


class Move(Protocol):
    """A decision of either family (``classic.Move``, ``pavilion.Move``), one
    idiom for both: a small frozen, slotted dataclass that prints itself as its
    record event with ``to_event()`` (and for people with ``str()``), read back
    by its family module's ``move_from_event(event, players)`` — python-chess's
    ``Move.uci()`` and ``Move.from_uci()``. The engines hand out shared
    instances from their legal moves, so a search builds none."""

    @property
    def seat(self) -> int:
        """The seat that decides."""
        ...

    def to_event(self) -> dict[str, Any]:
        """The record event of this decision (``docs/record.md``)."""
        ...


class Game(Protocol):
    """What every game engine offers to records, the site and the benchmarks.

    Implemented by ``classic.ClassicGame`` and ``pavilion.PavilionGame``.
    """

    variant: str
    players: int
    first_seat: int

    @property
    def family(self) -> Family:
        """The game's family (``variants.Family``), a class attribute."""
        ...

    round: int

    @property
    def phase(self) -> str:
        """The engine's phase, a member of the family's ``Phase`` (a ``StrEnum``:
        each engine documents its own; ``over`` at the end)."""
        ...

    round_scores: list[list[int]]

    @property
    def scores(self) -> list[int]:
        """Every seat's current score."""
        ...

    @property
    def log(self) -> list[dict[str, Any]]:
        """What each event did, in facts (the families word it for players)."""
        ...

    def log_size(self) -> int:
        """How many entries ``log`` has, without building them."""
        ...

    def standing_keys(self) -> list[tuple[int, ...]]:
        """Each seat's standing now, bigger is better (score, then tie-breaks)."""
        ...

    @property
    def score_log(self) -> list[ScoreChange]:
        """Every score change with its reason, in order."""
        ...

    def needs_chance(self) -> bool:
        """True when the next event is a random one (a deal, a supply draw)."""
        ...

    def deal_due(self) -> bool:
        """True when the next event is a round's deal (the phase ``deal`` of
        either family)."""
        ...

    def chance(self, rng: random.Random) -> dict[str, Any]:
        """Draw and apply the pending random event; return it as a record event."""
        ...

    def to_move(self) -> int | None:
        """Seat whose decision is awaited, or None (chance pending or game over)."""
        ...

    def legal_moves(self) -> Sequence[Any]:
        """The legal decisions of the current phase (objects with ``to_event()``)."""
        ...

    def play(self, move: Any) -> None:
        """Apply a decision, checked: IllegalMoveError with a readable message."""
        ...

    def push(self, move: Any) -> None:
        """Apply a decision taken from ``legal_moves()``, unchecked (fast path)."""
        ...

    def copy(self) -> Self:
        """An independent copy (cheap: no deep copies)."""
        ...

    def apply_event(self, event: Mapping[str, Any]) -> None:
        """Apply one record event, checked; raise EngineError (nothing changed)."""
        ...

    def events(self) -> list[dict[str, Any]]:
        """Every event so far, as record events (``docs/record.md``)."""
        ...

    def events_from(self, start: int) -> list[dict[str, Any]]:
        """``events()[start:]``."""
        ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def result(self) -> dict[str, Any]:
        """The record's ``result`` object (finished games only)."""
        ...
