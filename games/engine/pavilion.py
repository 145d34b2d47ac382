"""Azul: Summer Pavilion, coloured and grey side (``docs/rules/summer-pavilion.md``).

Moves are small frozen value objects (:class:`Take`, :class:`Place`, :class:`Bonus`,
:class:`Pass`) that turn themselves into record events (``docs/record.md``).
:class:`PavilionGame` offers a checked ``play`` and an unchecked ``push`` beside
``apply_event`` for records; random events (the supply refills and the deals) are
drawn by ``chance(rng)`` with the caller's generator.

Every refusal (``IllegalMoveError``/``InvalidMoveError``) carries a stable snake_case
``code`` and its ``params`` as a dict literal at the raise (colour and star names as
the record spells them, space numbers, counts), so a site can word it in any
language without reading the English message.

Cases ``docs/rules/summer-pavilion.md`` leaves open, decided here as the printed
game plays:

- A player may pass at any time in Phase 2, also while they could still place.
- Tiles kept on the corners return to the hand at the start of the next round (§6)
  and count as ordinary hand tiles there (wild only if they have that round's wild
  colour).
- Round-6 leftovers are charged at each player's round-6 pass (the ``keep`` is
  always ``[]``), logged with kind ``leftover``; in rounds 1-5 the kind is
  ``discard``.
- A penalty that the floor of 1 swallows entirely is still logged, with 0 points, so
  the move log can say why nothing was lost.
- A bonus decision picks a multiset of colours; when the supply holds fewer tiles than
  owed, the only choice is the whole supply (still a recorded decision).
- The end-of-game star bonus of a grey star with six tiles of one colour uses that
  colour's coloured-side star bonus; six different colours score 12 (§8).
- A placement that completes structures while the supply is empty owes nothing and
  records no ``bonus`` event; the turn ends there (with a refill if one can be drawn).
- Refills also follow Phase-2 turns of round 6, except its very last turn.
- ``events()`` writes ``bonus`` and ``keep`` lists in colour order (purple green
  orange yellow blue red) whatever order an imported record used; draws keep the
  order drawn.
- The start-token penalty and discards are logged as the points actually lost after
  the floor of 1; ``result()["breakdown"]`` sums them by kind (plus ``start`` 5).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from .common import (
    CENTER,
    ColourNames,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    ScoreChange,
    can_draw,
    draw_tile,
    outcome_from_keys,
    read_seat,
    take_drawn_tile,
)
from .pavilion_board import (
    COLOURS,
    COST_COLOURED,
    COST_GREY,
    NUMBER_BONUS,
    PILLARS,
    STAR_BONUS,
    STARS,
    STATUES,
    STRUCTURE_BONUS,
    WINDOWS,
    Space,
)
from .variants import PAVILION_FAMILY, Family, register

# ---------------------------------------------------------------------------
# Flat geometry derived from pavilion_board (space index = star * 6 + n - 1)
# ---------------------------------------------------------------------------

NUM_COLOURS = 6
NUM_STARS = 7
NUM_SPACES = 42
ROUNDS = 6
START_SCORE = 5
SUPPLY_SIZE = 10
FACTORY_SIZE = 4
MAX_KEEP = 4
TILES_PER_COLOUR = 22
FACTORIES_BY_PLAYERS = {2: 5, 3: 7, 4: 9}

COLOUR_INDEX = {name: index for index, name in enumerate(COLOURS)}
COLOUR_NAMES = ColourNames(
    COLOUR_INDEX, "{what} must be one of " + ", ".join(COLOURS) + ", not {value!r}"
)
"""The colour names of records (``common.ColourNames``, as classic Azul's)."""
STAR_INDEX = {name: index for index, name in enumerate(STARS)}
STAR_COLOUR: tuple[int, ...] = (-1,) + tuple(COLOUR_INDEX[name] for name in STARS[1:])
"""Colour index of each outer star on the coloured side (-1 for the centre)."""


def space_index(space: Space) -> int:
    """Flat index of ``(star name, n)``."""
    star, n = space
    return STAR_INDEX[star] * 6 + n - 1


def space_name(index: int) -> str:
    """``"blue-4"``-style name of a flat space index (for logs and messages)."""
    return f"{STARS[index // 6]}-{index % 6 + 1}"


def _costs(table: Mapping[str, Sequence[int]]) -> tuple[int, ...]:
    return tuple(
        table["center" if star == 0 else "outer"][n]
        for star in range(NUM_STARS)
        for n in range(6)
    )


COSTS_COLOURED = _costs(COST_COLOURED)
COSTS_GREY = _costs(COST_GREY)


@dataclass(frozen=True, slots=True)
class Structure:
    """A pillar, statue or window: the spaces around it and its bonus (§2)."""

    kind: str
    stars: tuple[str, ...]
    spaces: tuple[int, ...]
    bonus: int

    @property
    def mask(self) -> int:
        mask = 0
        for index in self.spaces:
            mask |= 1 << index
        return mask

    def describe(self) -> dict[str, Any]:
        """Machine-readable name: ``{"kind": "statue", "stars": ["red", "blue"]}``."""
        return {"kind": self.kind, "stars": list(self.stars), "bonus": self.bonus}


STRUCTURES: tuple[Structure, ...] = (
    tuple(
        Structure("pillar", (star,), tuple(map(space_index, spaces)), 1)
        for star, spaces in PILLARS.items()
    )
    + tuple(
        Structure("statue", pair, tuple(map(space_index, spaces)), 2)
        for pair, spaces in STATUES.items()
    )
    + tuple(
        Structure("window", (star,), tuple(map(space_index, spaces)), 3)
        for star, spaces in WINDOWS.items()
    )
)
"""Indices 0-5 pillars, 6-11 statues, 12-17 windows (bit ``j`` of ``completed``)."""
assert all(s.bonus == STRUCTURE_BONUS[s.kind] for s in STRUCTURES)

STRUCTURE_MASKS: tuple[int, ...] = tuple(s.mask for s in STRUCTURES)
STRUCTURE_BONUSES: tuple[int, ...] = tuple(s.bonus for s in STRUCTURES)
SPACE_STRUCTURES: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j, s in enumerate(STRUCTURES) if index in s.spaces)
    for index in range(NUM_SPACES)
)


def _cost_masks(costs: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """``(mask of spaces costing k, bonus)`` for k = 1..4 (§7)."""
    result = []
    for k, bonus in NUMBER_BONUS.items():
        mask = 0
        for index, cost in enumerate(costs):
            if cost == k:
                mask |= 1 << index
        result.append((mask, bonus))
    return tuple(result)


NUMBER_MASKS_COLOURED = _cost_masks(COSTS_COLOURED)
NUMBER_MASKS_GREY = _cost_masks(COSTS_GREY)

STAR_BONUS_BY_COLOUR: tuple[int, ...] = tuple(STAR_BONUS[name] for name in COLOURS)
SIX_COLOUR_BONUS = STAR_BONUS["center"]


def _run_table() -> tuple[tuple[int, ...], ...]:
    """``RUN[mask][pos]``: length of the ring run of ``mask`` through ``pos`` (§5)."""
    table = []
    for mask in range(64):
        row = []
        for pos in range(6):
            if not mask >> pos & 1:
                row.append(0)
            elif mask == 63:
                row.append(6)
            else:
                length = 1
                step = (pos + 1) % 6
                while mask >> step & 1:
                    length += 1
                    step = (step + 1) % 6
                step = (pos - 1) % 6
                while mask >> step & 1:
                    length += 1
                    step = (step - 1) % 6
                row.append(length)
        table.append(tuple(row))
    return tuple(table)


RUN = _run_table()
POPCOUNT = tuple(bin(m).count("1") for m in range(64))
SINGLE_COLOUR = tuple(m != 0 and m & (m - 1) == 0 for m in range(64))


def _colour_counts_names(counts: Sequence[int]) -> list[str]:
    return [COLOURS[c] for c in range(NUM_COLOURS) for _ in range(counts[c])]


def _names(colours: Sequence[int]) -> list[str]:
    return [COLOURS[c] for c in colours]


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


def _parse_colours(value: Any, what: str, field: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise InvalidMoveError(
            f"{what} must be a list of colours", "not_a_colour_list", {"field": field}
        )
    return tuple(
        sorted(COLOUR_NAMES.read(item, f"each of {what}", field) for item in value)
    )


@dataclass(frozen=True, slots=True)
class Take:
    """Phase 1: take all ``colour`` tiles (+ one wild) from a factory or the centre.

    ``source`` is a factory index or ``common.CENTER``; ``colour`` is the wild colour
    only when the source holds nothing but wild tiles (then one tile is taken).
    """

    seat: int
    source: int
    colour: int

    def to_event(self) -> dict[str, Any]:
        source: int | str = "center" if self.source == CENTER else self.source
        return {"seat": self.seat, "from": source, "colour": COLOURS[self.colour]}

    def __str__(self) -> str:
        source = "center" if self.source == CENTER else f"f{self.source}"
        return f"{self.seat}:take:{source}:{COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Place:
    """Phase 2: put one ``colour`` tile on ``(star, space)``, ``wilds`` paying for it.

    ``star`` is the internal star index (0 centre, 1-6 outer), ``space`` is 1..6.
    """

    seat: int
    star: int
    space: int
    colour: int
    wilds: int

    def to_event(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "star": STARS[self.star],
            "space": self.space,
            "colour": COLOURS[self.colour],
            "wilds": self.wilds,
        }

    def __str__(self) -> str:
        return (
            f"{self.seat}:place:{STARS[self.star]}-{self.space}:"
            f"{COLOURS[self.colour]}:w{self.wilds}"
        )


@dataclass(frozen=True, slots=True)
class Bonus:
    """Phase 2: the bonus tiles chosen from the supply (colour indices, sorted)."""

    seat: int
    tiles: tuple[int, ...]

    def to_event(self) -> dict[str, Any]:
        return {"seat": self.seat, "bonus": _names(self.tiles)}

    def __str__(self) -> str:
        return f"{self.seat}:bonus:{','.join(_names(self.tiles))}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Phase 2: stop placing this round, keeping ``keep`` (sorted, at most 4)."""

    seat: int
    keep: tuple[int, ...]

    def to_event(self) -> dict[str, Any]:
        return {"seat": self.seat, "pass": {"keep": _names(self.keep)}}

    def __str__(self) -> str:
        return f"{self.seat}:pass:{','.join(_names(self.keep))}"


Move = Take | Place | Bonus | Pass


def move_from_event(event: Mapping[str, Any], players: int) -> Move:
    """Parse a decision event (``docs/record.md``); InvalidMoveError if malformed."""
    if not isinstance(event, Mapping):
        raise InvalidMoveError("an event is a JSON object", "not_an_object")
    seat = read_seat(event, players)
    if "from" in event:
        source = event["from"]
        if source == "center":
            index = CENTER
        elif type(source) is int and 0 <= source < FACTORIES_BY_PLAYERS[players]:
            index = source
        else:
            raise InvalidMoveError(
                f'"from" must be "center" or a factory number '
                f"0-{FACTORIES_BY_PLAYERS[players] - 1}",
                "no_such_factory",
                {"source": source, "factories": FACTORIES_BY_PLAYERS[players]},
            )
        return Take(seat, index, COLOUR_NAMES.read(event.get("colour")))
    if "star" in event:
        star = event["star"]
        if not isinstance(star, str) or star not in STAR_INDEX:
            raise InvalidMoveError(
                f'"star" must be one of {", ".join(STARS)}',
                "no_such_star",
                {"star": star},
            )
        space = event.get("space")
        if type(space) is not int or not 1 <= space <= 6:
            raise InvalidMoveError(
                '"space" must be a number 1-6', "no_such_space", {"space": space}
            )
        wilds = event.get("wilds")
        if type(wilds) is not int or wilds < 0:
            raise InvalidMoveError(
                '"wilds" must be a number 0 or more', "invalid_wilds", {"wilds": wilds}
            )
        colour = COLOUR_NAMES.read(event.get("colour"))
        return Place(seat, STAR_INDEX[star], space, colour, wilds)
    if "bonus" in event:
        return Bonus(seat, _parse_colours(event["bonus"], '"bonus"', "bonus"))
    if "pass" in event:
        body = event["pass"]
        if not isinstance(body, Mapping) or "keep" not in body:
            raise InvalidMoveError(
                '"pass" must be an object with a "keep" list', "malformed_pass"
            )
        return Pass(seat, _parse_colours(body["keep"], '"keep"', "keep"))
    raise InvalidMoveError("not a Summer Pavilion decision", "not_a_decision")


# Shared move objects: legal_moves hands out the same objects again and again.
_PLACES: list[list[list[list[Place]]]] = [
    [
        [
            [Place(seat, index // 6, index % 6 + 1, colour, w) for w in range(6)]
            for colour in range(NUM_COLOURS)
        ]
        for index in range(NUM_SPACES)
    ]
    for seat in range(4)
]
_TAKES: list[list[list[Take]]] = [
    [
        [Take(seat, source, colour) for colour in range(NUM_COLOURS)]
        for source in range(10)
    ]
    + [[Take(seat, CENTER, colour) for colour in range(NUM_COLOURS)]]
    for seat in range(4)
]
"""``_TAKES[seat][source][colour]``; source ``-1`` (the centre) is the last row."""


def _multisets(
    counts: Sequence[int], size: int, start: int = 0
) -> list[tuple[int, ...]]:
    """Every multiset of exactly ``size`` colours within ``counts`` (sorted tuples)."""
    if size == 0:
        return [()]
    result: list[tuple[int, ...]] = []
    for colour in range(start, NUM_COLOURS):
        if counts[colour]:
            reduced = list(counts)
            reduced[colour] -= 1
            for rest in _multisets(reduced, size - 1, colour):
                result.append((colour,) + rest)
    return result


_PASS_CACHE: dict[tuple[int, ...], list[Pass]] = {}
_BONUS_CACHE: dict[tuple[int, ...], list[Bonus]] = {}
_CACHE_LIMIT = 50_000


def _pass_moves(seat: int, hand: Sequence[int]) -> list[Pass]:
    """Every distinct keep of at most 4 tiles from ``hand`` (cached by capped hand)."""
    h = hand
    key = (
        seat,
        min(h[0], 4),
        min(h[1], 4),
        min(h[2], 4),
        min(h[3], 4),
        min(h[4], 4),
        min(h[5], 4),
    )
    moves = _PASS_CACHE.get(key)
    if moves is None:
        if len(_PASS_CACHE) > _CACHE_LIMIT:
            _PASS_CACHE.clear()
        capped = key[1:]
        moves = [
            Pass(seat, keep)
            for size in range(min(MAX_KEEP, sum(capped)) + 1)
            for keep in _multisets(capped, size)
        ]
        _PASS_CACHE[key] = moves
    return moves


def _bonus_moves(seat: int, supply: Sequence[int], size: int) -> list[Bonus]:
    """Every distinct multiset of ``size`` tiles from ``supply`` (cached)."""
    key = (seat, size) + tuple(min(count, size) for count in supply)
    moves = _BONUS_CACHE.get(key)
    if moves is None:
        if len(_BONUS_CACHE) > _CACHE_LIMIT:
            _BONUS_CACHE.clear()
        moves = [Bonus(seat, tiles) for tiles in _multisets(key[2:], size)]
        _BONUS_CACHE[key] = moves
    return moves


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


class Phase(StrEnum):
    """Values of ``PavilionGame.phase``, in the order a round meets them. Members
    are strings (``Phase.TAKE == "take"``), so stored and compared names keep
    working."""

    SUPPLY = "supply"
    """A supply draw is due (a chance event)."""
    DEAL = "deal"
    """The round's deal is due (a chance event)."""
    TAKE = "take"
    """Phase 1: the seat to move takes tiles."""
    PLACE = "place"
    """Phase 2: the seat to move places a tile or passes."""
    BONUS = "bonus"
    """The placer chooses bonus tiles from the supply."""
    OVER = "over"


PHASES = tuple(Phase)
"""Every phase, in order."""
# The members under module names, for the hot paths: reading a member off its
# enum class costs about 100 ns in Python 3.11, a module global a tenth of it.
PHASE_SUPPLY = Phase.SUPPLY
PHASE_DEAL = Phase.DEAL
PHASE_TAKE = Phase.TAKE
PHASE_PLACE = Phase.PLACE
PHASE_BONUS = Phase.BONUS
PHASE_OVER = Phase.OVER
_DECIDING = (PHASE_TAKE, PHASE_PLACE, PHASE_BONUS)
"""The phases in which a seat decides."""


class PavilionGame:
    """A game of Summer Pavilion for 2-4 players (``docs/rules/summer-pavilion.md``).

    Colours are indices into ``pavilion_board.COLOURS``; every collection of tiles is
    a list of 6 counts by colour. Public state (read it, do not write it outside
    tests):

    - ``variant`` (``"pavilion"``/``"pavilion-grey"``), ``grey``, ``players``,
      ``first_seat``, ``round`` (1-6), ``wild`` (colour index of this round's wild
      colour; ``wild_colour`` gives its name).
    - ``phase`` (:class:`Phase`): ``supply`` (a supply draw is due), ``deal`` (the
      round's deal is due), ``take`` (Phase 1), ``place`` (Phase 2: place or pass),
      ``bonus`` (the placer chooses bonus tiles), ``over``.
    - ``turn``: the seat to decide in ``take``/``place``/``bonus`` (see ``to_move``);
      ``round_starter``: the seat that started this round's Phase 1.
    - ``factories`` (list of count lists), ``centre``, ``supply``, ``bag``, ``tower``.
    - ``hands[seat]``, ``corners[seat]`` (tiles kept between rounds).
    - ``boards[seat]``: 42 entries, index ``star * 6 + space - 1`` (star 0 centre,
      1-6 ``purple orange red blue yellow green``), ``-1`` for empty, else the colour;
      ``space_colour(seat, star, space)`` reads it by names.
    - ``filled[seat]``: bitmask of filled spaces; ``completed[seat]``: bitmask of
      completed structures (bit ``j`` is ``STRUCTURES[j]``: pillars 0-5, statues
      6-11, windows 12-17); ``completed_structures(seat)`` lists them.
    - ``scores``, ``passed`` (Phase 2 flags), ``token_holder`` (seat that took the
      start token from the centre this round, or ``None`` while it lies there),
      ``bonus_owed`` (tiles the placer is choosing in phase ``bonus``).
    - ``round_scores``, ``score_log`` (``common.ScoreChange``; kinds ``star``,
      ``start-token``, ``discard``, ``leftover``, ``star-bonus``, ``number-bonus``).
    - ``log``: one dict per event (parallel to ``events()``) saying what it did, in
      facts, not words: ``type`` plus e.g. ``tiles``/``wild``/``to_centre``/
      ``start_token``/``penalty`` for a take; ``cost``/``paid``/``wilds``/
      ``to_tower``/``points``/``completed``/``bonus_owed`` for a placement;
      ``kept``/``discarded``/``penalty`` for a pass; ``tiles``/``poured`` for draws.
    """

    family: ClassVar[Family] = PAVILION_FAMILY
    """The game family (``variants``): what the bots and the site look a
    family's behaviour up by, never ``isinstance``."""

    def __init__(self, players: int, grey: bool = False, first_seat: int = 0) -> None:
        if players not in FACTORIES_BY_PLAYERS:
            raise ValueError("Summer Pavilion is for 2 to 4 players")
        if not 0 <= first_seat < players:
            raise ValueError("first_seat must be a seat number")
        self.players = players
        self.grey = grey
        self.variant = PAVILION_FAMILY.variant(grey=grey).name
        self.first_seat = first_seat
        self.costs = COSTS_GREY if grey else COSTS_COLOURED
        self.round = 1
        self.phase: Phase = PHASE_SUPPLY
        self.turn: int | None = None
        self.round_starter = first_seat
        self.token_holder: int | None = None
        self.bag = [TILES_PER_COLOUR] * NUM_COLOURS
        self.tower = [0] * NUM_COLOURS
        self.supply = [0] * NUM_COLOURS
        self.factories = [
            [0] * NUM_COLOURS for _ in range(FACTORIES_BY_PLAYERS[players])
        ]
        self.centre = [0] * NUM_COLOURS
        self.hands = [[0] * NUM_COLOURS for _ in range(players)]
        self.corners = [[0] * NUM_COLOURS for _ in range(players)]
        self.boards = [[-1] * NUM_SPACES for _ in range(players)]
        self.filled = [0] * players
        self.star_colours = [[0] * NUM_STARS for _ in range(players)]
        self.completed = [0] * players
        self.scores = [START_SCORE] * players
        self.passed = [False] * players
        self.bonus_owed = 0
        self.round_scores: list[list[int]] = []
        self.score_log: list[ScoreChange] = []
        self.log: list[dict[str, Any]] = []
        self._history: list[Move | dict[str, Any]] = []
        self._table = 0  # tiles on factories and centre
        self._refill_then_deal = True  # after a supply draw: deal (set-up) or go on
        self._last_seat = first_seat

    # -- reading the state ---------------------------------------------------

    @property
    def wild(self) -> int:
        """Colour index of this round's wild colour (§1)."""
        return self.round - 1

    @property
    def wild_colour(self) -> str:
        return COLOURS[self.round - 1]

    def space_colour(self, seat: int, star: str, space: int) -> str | None:
        """The colour on ``(star, space)`` of ``seat``'s board, or ``None``."""
        colour = self.boards[seat][STAR_INDEX[star] * 6 + space - 1]
        return None if colour < 0 else COLOURS[colour]

    def completed_structures(self, seat: int) -> list[dict[str, Any]]:
        """The pillars, statues and windows ``seat`` has completed."""
        done = self.completed[seat]
        return [s.describe() for j, s in enumerate(STRUCTURES) if done >> j & 1]

    def cost(self, star: int, space: int) -> int:
        """Printed cost of ``(star, space)`` on this game's side (§2, §8)."""
        return self.costs[star * 6 + space - 1]

    def tile_total(self) -> int:
        """Every tile in the game, wherever it is (always 132)."""
        total = sum(self.bag) + sum(self.tower) + sum(self.supply) + sum(self.centre)
        total += sum(sum(f) for f in self.factories)
        total += sum(sum(h) for h in self.hands) + sum(sum(c) for c in self.corners)
        total += sum(bin(mask).count("1") for mask in self.filled)
        return total

    # -- the Game protocol ---------------------------------------------------

    def needs_chance(self) -> bool:
        """True when the next event is a supply draw or a deal."""
        return self.phase == PHASE_SUPPLY or self.phase == PHASE_DEAL

    def deal_due(self) -> bool:
        """True when the round's deal is the next event."""
        return self.phase == PHASE_DEAL

    def to_move(self) -> int | None:
        """Seat whose decision is awaited, or ``None``."""
        phase = self.phase
        if phase in _DECIDING:
            return self.turn
        return None

    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    def outcome(self) -> Outcome | None:
        """Final scores and ranks; ties are shared (§7)."""
        if self.phase != PHASE_OVER:
            return None
        return outcome_from_keys(self.scores, [(score,) for score in self.scores])

    def standing_keys(self) -> list[tuple[int, ...]]:
        """Each seat's standing now, bigger is better: the score (ties are
        shared, §7)."""
        return [(score,) for score in self.scores]

    def result(self) -> dict[str, Any]:
        """The record's ``result``: scores, winners, ranks and a breakdown by kind."""
        outcome = self.outcome()
        if outcome is None:
            raise ValueError("the game is not over")
        breakdown: list[dict[str, int]] = [{"start": START_SCORE} for _ in self.scores]
        for change in self.score_log:
            row = breakdown[change.seat]
            row[change.kind] = row.get(change.kind, 0) + change.points
        return {
            "scores": list(outcome.scores),
            "winners": list(outcome.winners),
            "ranks": list(outcome.ranks),
            "round_scores": [list(scores) for scores in self.round_scores],
            "breakdown": breakdown,
        }

    def events(self) -> list[dict[str, Any]]:
        """Every event so far as record events (``docs/record.md``)."""
        return self.events_from(0)

    def events_from(self, start: int) -> list[dict[str, Any]]:
        """``events()[start:]``, without building the events before ``start``."""
        return [
            item.to_event() if not isinstance(item, dict) else _copy_event(item)
            for item in self._history[start:]
        ]

    def log_size(self) -> int:
        """How many entries ``log`` has."""
        return len(self.log)

    def copy(self) -> PavilionGame:
        """An independent copy (list copies only)."""
        other = PavilionGame.__new__(PavilionGame)
        other.__dict__.update(self.__dict__)
        other.bag = self.bag[:]
        other.tower = self.tower[:]
        other.supply = self.supply[:]
        other.factories = [f[:] for f in self.factories]
        other.centre = self.centre[:]
        other.hands = [h[:] for h in self.hands]
        other.corners = [c[:] for c in self.corners]
        other.boards = [b[:] for b in self.boards]
        other.filled = self.filled[:]
        other.star_colours = [s[:] for s in self.star_colours]
        other.completed = self.completed[:]
        other.scores = self.scores[:]
        other.passed = self.passed[:]
        other.round_scores = [r[:] for r in self.round_scores]
        other.score_log = self.score_log[:]
        other.log = self.log[:]
        other._history = self._history[:]
        return other

    # -- legal decisions -----------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Legal decisions now: takes; places then passes; or bonus choices."""
        phase = self.phase
        if phase == PHASE_PLACE:
            seat = self.turn
            assert seat is not None
            moves: list[Move] = []
            if self.round < ROUNDS:
                moves.extend(self._place_moves(seat))
                moves.extend(_pass_moves(seat, self.hands[seat]))
            else:
                moves.extend(self._place_moves(seat))
                moves.append(_PASS_CACHE_R6[seat])
            return moves
        if phase == PHASE_TAKE:
            return list(self._take_moves())
        if phase == PHASE_BONUS:
            assert self.turn is not None
            return list(_bonus_moves(self.turn, self.supply, self.bonus_owed))
        return []

    def _take_moves(self) -> list[Take]:
        seat = self.turn
        assert seat is not None
        takes = _TAKES[seat]
        wild = self.wild
        moves: list[Take] = []
        sources: list[tuple[int, list[int]]] = list(enumerate(self.factories))
        sources.append((CENTER, self.centre))
        for source, tiles in sources:
            row = takes[source]
            only_wild = True
            for colour in range(NUM_COLOURS):
                if tiles[colour] and colour != wild:
                    moves.append(row[colour])
                    only_wild = False
            if only_wild and tiles[wild]:
                moves.append(row[wild])
        return moves

    def _allowed_colours(self, seat: int, star: int) -> int:
        """Bitmask of colours ``star`` may still take (§5, §8)."""
        if self.grey:
            if POPCOUNT[self.filled[seat] >> (star * 6) & 63] <= 1:
                return 63
            present = self.star_colours[seat][star]
            return present if SINGLE_COLOUR[present] else 63 & ~present
        if star == 0:
            return 63 & ~self.star_colours[seat][0]
        return 1 << STAR_COLOUR[star]

    def _place_moves(self, seat: int) -> list[Place]:
        hand = self.hands[seat]
        wild = self.wild
        n_wild = hand[wild]
        board = self.boards[seat]
        costs = self.costs
        table = _PLACES[seat]
        moves: list[Place] = []
        for star in range(NUM_STARS):
            allowed = self._allowed_colours(seat, star)
            colours = [c for c in range(NUM_COLOURS) if allowed >> c & 1 and hand[c]]
            if not colours:
                continue
            base = star * 6
            for index in range(base, base + 6):
                if board[index] >= 0:
                    continue
                k = costs[index]
                options = table[index]
                for colour in colours:
                    have = hand[colour]
                    if colour == wild:
                        if have >= k:
                            moves.append(options[colour][0])
                    else:
                        low = k - have if k > have else 0
                        high = k - 1 if k - 1 < n_wild else n_wild
                        moves.extend(options[colour][low : high + 1])
        return moves

    # -- checked entry points ------------------------------------------------

    def play(self, move: Move) -> None:
        """Apply a decision after checking it; ``IllegalMoveError`` says why not."""
        self.check(move)
        self.push(move)

    def check(self, move: Move) -> None:
        """Raise ``InvalidMoveError``/``IllegalMoveError`` unless ``move`` is legal."""
        if not isinstance(move, Take | Place | Bonus | Pass):
            raise InvalidMoveError("not a Summer Pavilion move", "not_a_move")
        if type(move.seat) is not int or not 0 <= move.seat < self.players:
            raise InvalidMoveError(
                f"seat must be a seat number 0-{self.players - 1}",
                "no_such_seat",
                {"seat": move.seat, "players": self.players},
            )
        phase = self.phase
        if phase == PHASE_OVER:
            raise IllegalMoveError("the game is over", "game_over")
        if phase == PHASE_SUPPLY:
            raise IllegalMoveError("the supply must be refilled first", "supply_due")
        if phase == PHASE_DEAL:
            raise IllegalMoveError(
                f"the factories of round {self.round} must be dealt",
                "deal_due",
                {"round": self.round},
            )
        if move.seat != self.turn:
            raise IllegalMoveError(
                f"it is seat {self.turn}'s turn, not seat {move.seat}'s",
                "not_your_turn",
                {"seat": move.seat, "to_move": self.turn},
            )
        if isinstance(move, Take):
            self._check_take(move)
        elif isinstance(move, Place):
            self._check_place(move)
        elif isinstance(move, Bonus):
            self._check_bonus(move)
        else:
            self._check_pass(move)

    def _check_take(self, move: Take) -> None:
        if self.phase != PHASE_TAKE:
            if self.phase == PHASE_BONUS:
                raise IllegalMoveError(
                    "you must choose your bonus tiles now", "bonus_due"
                )
            raise IllegalMoveError(
                "phase 1 is over: place a tile or pass", "take_phase_over"
            )
        if type(move.colour) is not int or not 0 <= move.colour < NUM_COLOURS:
            raise InvalidMoveError(
                "unknown colour",
                "no_such_colour",
                {"field": "colour", "value": move.colour},
            )
        if move.source == CENTER:
            tiles, where = self.centre, "the centre"
        elif type(move.source) is int and 0 <= move.source < len(self.factories):
            tiles, where = self.factories[move.source], f"factory {move.source}"
        else:
            raise InvalidMoveError(
                f"there is no factory {move.source}",
                "no_such_factory",
                {"source": move.source, "factories": len(self.factories)},
            )
        name = COLOURS[move.colour]
        source: int | str = "center" if move.source == CENTER else move.source
        if not any(tiles):
            raise IllegalMoveError(
                f"{where} is empty", "source_empty", {"source": source}
            )
        wild = self.wild
        if move.colour == wild:
            if any(tiles[c] for c in range(NUM_COLOURS) if c != wild):
                raise IllegalMoveError(
                    f"{name} is wild this round: take another colour from {where} "
                    f"(one {name} comes with it)",
                    "wild_take_with_others",
                    {"source": source, "colour": name},
                )
        elif not tiles[move.colour]:
            raise IllegalMoveError(
                f"{where} holds no {name}",
                "colour_absent",
                {"source": source, "colour": name},
            )

    def _check_place(self, move: Place) -> None:
        if self.phase != PHASE_PLACE:
            if self.phase == PHASE_BONUS:
                raise IllegalMoveError(
                    "you must choose your bonus tiles now", "bonus_due"
                )
            raise IllegalMoveError(
                "tiles are placed in phase 2: take tiles now", "place_before_phase_2"
            )
        if type(move.star) is not int or not 0 <= move.star < NUM_STARS:
            raise InvalidMoveError("unknown star", "no_such_star", {"star": move.star})
        if type(move.space) is not int or not 1 <= move.space <= 6:
            raise InvalidMoveError(
                "space must be 1-6", "no_such_space", {"space": move.space}
            )
        if type(move.colour) is not int or not 0 <= move.colour < NUM_COLOURS:
            raise InvalidMoveError(
                "unknown colour",
                "no_such_colour",
                {"field": "colour", "value": move.colour},
            )
        if type(move.wilds) is not int or move.wilds < 0:
            raise InvalidMoveError(
                "wilds must be 0 or more", "invalid_wilds", {"wilds": move.wilds}
            )
        seat, star, colour = move.seat, move.star, move.colour
        index = star * 6 + move.space - 1
        where = f"{STARS[star]} {move.space}"
        name = COLOURS[colour]
        star_name = "centre" if star == 0 else STARS[star]
        if self.boards[seat][index] >= 0:
            raise IllegalMoveError(
                f"{where} is already filled",
                "space_filled",
                {"star": STARS[star], "space": move.space},
            )
        present = self.star_colours[seat][star]
        if not self._allowed_colours(seat, star) >> colour & 1:
            if not self.grey and star != 0:
                raise IllegalMoveError(
                    f"only {star_name} goes on the {star_name} star",
                    "star_takes_its_colour",
                    {"star": STARS[star], "colour": name, "allowed": STARS[star]},
                )
            if present >> colour & 1:
                raise IllegalMoveError(
                    f"the {star_name} star already holds {name}",
                    "star_holds_colour",
                    {"star": STARS[star], "colour": name},
                )
            only = COLOURS[present.bit_length() - 1]
            raise IllegalMoveError(
                f"the {star_name} star holds only {only}: it takes {only} or nothing",
                "star_holds_only",
                {"star": STARS[star], "colour": name, "only": only},
            )
        k = self.costs[index]
        hand = self.hands[seat]
        wild = self.wild
        if colour == wild:
            if move.wilds:
                raise IllegalMoveError(
                    f"{name} is wild this round and pays for itself: wilds must be 0",
                    "wild_pays_for_itself",
                    {"colour": name, "wilds": move.wilds},
                )
            if hand[colour] < k:
                raise IllegalMoveError(
                    f"{where} costs {k} {name} and you have {hand[colour]}",
                    "too_few_tiles",
                    {
                        "star": STARS[star],
                        "space": move.space,
                        "cost": k,
                        "colour": name,
                        "have": hand[colour],
                    },
                )
            return
        if not hand[colour]:
            raise IllegalMoveError(
                f"you need at least one {name} to place on {where}",
                "no_tile_of_colour",
                {"star": STARS[star], "space": move.space, "colour": name},
            )
        if move.wilds > k - 1:
            raise IllegalMoveError(
                f"{where} costs {k}: at least one {name} must be paid, so at most "
                f"{k - 1} wild",
                "too_many_wilds",
                {
                    "star": STARS[star],
                    "space": move.space,
                    "cost": k,
                    "colour": name,
                    "wilds": move.wilds,
                },
            )
        if move.wilds > hand[wild]:
            raise IllegalMoveError(
                f"you have {hand[wild]} {COLOURS[wild]} (wild), not {move.wilds}",
                "not_enough_wilds",
                {"colour": COLOURS[wild], "have": hand[wild], "wilds": move.wilds},
            )
        if k - move.wilds > hand[colour]:
            raise IllegalMoveError(
                f"{where} costs {k}: with {move.wilds} wild you need "
                f"{k - move.wilds} {name} and have {hand[colour]}",
                "too_few_tiles_with_wilds",
                {
                    "star": STARS[star],
                    "space": move.space,
                    "cost": k,
                    "colour": name,
                    "wilds": move.wilds,
                    "need": k - move.wilds,
                    "have": hand[colour],
                },
            )

    def _check_bonus(self, move: Bonus) -> None:
        if self.phase != PHASE_BONUS:
            raise IllegalMoveError("no bonus tiles are owed now", "no_bonus_owed")
        for c in move.tiles:
            if type(c) is not int or not 0 <= c < NUM_COLOURS:
                raise InvalidMoveError(
                    "unknown colour", "no_such_colour", {"field": "bonus", "value": c}
                )
        if len(move.tiles) != self.bonus_owed:
            raise IllegalMoveError(
                f"you must choose {self.bonus_owed} tile"
                f"{'s' if self.bonus_owed != 1 else ''} from the supply, "
                f"not {len(move.tiles)}",
                "bonus_count",
                {"owed": self.bonus_owed, "chosen": len(move.tiles)},
            )
        for colour in set(move.tiles):
            wanted = move.tiles.count(colour)
            if wanted > self.supply[colour]:
                raise IllegalMoveError(
                    f"the supply holds {self.supply[colour]} {COLOURS[colour]}, "
                    f"not {wanted}",
                    "supply_short",
                    {
                        "colour": COLOURS[colour],
                        "have": self.supply[colour],
                        "wanted": wanted,
                    },
                )

    def _check_pass(self, move: Pass) -> None:
        if self.phase != PHASE_PLACE:
            if self.phase == PHASE_BONUS:
                raise IllegalMoveError(
                    "you must choose your bonus tiles now", "bonus_due"
                )
            raise IllegalMoveError(
                "you can pass only in phase 2: take tiles now", "pass_before_phase_2"
            )
        for c in move.keep:
            if type(c) is not int or not 0 <= c < NUM_COLOURS:
                raise InvalidMoveError(
                    "unknown colour", "no_such_colour", {"field": "keep", "value": c}
                )
        if self.round == ROUNDS and move.keep:
            raise IllegalMoveError(
                "nothing can be kept after round 6",
                "keep_after_last_round",
                {"round": ROUNDS},
            )
        if len(move.keep) > MAX_KEEP:
            raise IllegalMoveError(
                f"you may keep at most {MAX_KEEP} tiles",
                "keep_too_many",
                {"max": MAX_KEEP, "kept": len(move.keep)},
            )
        hand = self.hands[move.seat]
        for colour in set(move.keep):
            wanted = move.keep.count(colour)
            if wanted > hand[colour]:
                raise IllegalMoveError(
                    f"you have {hand[colour]} {COLOURS[colour]} to keep, not {wanted}",
                    "keep_not_in_hand",
                    {"colour": COLOURS[colour], "have": hand[colour], "wanted": wanted},
                )

    def apply_event(self, event: Mapping[str, Any]) -> None:
        """Apply one record event, checked; on ``EngineError`` nothing changed."""
        if not isinstance(event, Mapping):
            raise InvalidMoveError("an event is a JSON object", "not_an_object")
        if self.phase == PHASE_OVER:
            raise IllegalMoveError("the game is already over", "game_over")
        if "supply" in event or "deal" in event:
            self._apply_chance_event(event)
            return
        move = move_from_event(event, self.players)
        if self.phase == PHASE_SUPPLY:
            raise IllegalMoveError(
                "a supply draw is due before any decision", "supply_due"
            )
        if self.phase == PHASE_DEAL:
            raise IllegalMoveError(
                f"the deal of round {self.round} is due",
                "deal_due",
                {"round": self.round},
            )
        self.play(move)

    # -- chance ----------------------------------------------------------------

    def chance(self, rng: random.Random) -> dict[str, Any]:
        """Draw the pending supply refill or deal with ``rng``; return its event."""
        bag, tower = self.bag, self.tower
        if self.phase == PHASE_SUPPLY:
            drawn: list[int] = []
            poured = 0
            for _ in range(SUPPLY_SIZE - sum(self.supply)):
                if not any(bag):
                    poured += sum(tower)
                colour = draw_tile(bag, tower, rng)
                if colour is None:
                    break
                drawn.append(colour)
            event: dict[str, Any] = {"supply": _names(drawn)}
            self._finish_supply(drawn, event, poured)
            return event
        if self.phase == PHASE_DEAL:
            deal: list[list[int]] = []
            poured = 0
            for _ in self.factories:
                tiles: list[int] = []
                for _ in range(FACTORY_SIZE):
                    if not any(bag):
                        poured += sum(tower)
                    colour = draw_tile(bag, tower, rng)
                    if colour is None:
                        break
                    tiles.append(colour)
                deal.append(tiles)
            event = {"deal": [_names(tiles) for tiles in deal]}
            self._finish_deal(deal, event, poured)
            return event
        raise IllegalMoveError(
            "no random event is due",
            "no_chance_due",
            {"phase": self.phase, "round": self.round, "to_move": self.to_move()},
        )

    def _apply_chance_event(self, event: Mapping[str, Any]) -> None:
        if "supply" in event:
            if self.phase != PHASE_SUPPLY:
                raise IllegalMoveError(
                    f"no supply draw is due now ({self._due()})",
                    "no_supply_due",
                    {
                        "phase": self.phase,
                        "round": self.round,
                        "to_move": self.to_move(),
                    },
                )
            names = event["supply"]
            if not isinstance(names, list):
                raise InvalidMoveError(
                    '"supply" must be a list of colours',
                    "not_a_colour_list",
                    {"field": "supply"},
                )
            drawn = [
                COLOUR_NAMES.read(name, "each supply tile", "supply") for name in names
            ]
            bag, tower = self.bag[:], self.tower[:]
            room = SUPPLY_SIZE - sum(self.supply)
            poured = 0
            if not drawn:
                raise IllegalMoveError(
                    "a supply draw lists at least one tile", "supply_draw_empty"
                )
            if len(drawn) > room:
                raise IllegalMoveError(
                    f"the supply has room for {room} tiles, not {len(drawn)}",
                    "supply_draw_too_many",
                    {"room": room, "drawn": len(drawn)},
                )
            for colour in drawn:
                if not any(bag):
                    poured += sum(tower)
                if not take_drawn_tile(bag, tower, colour):
                    raise IllegalMoveError(
                        f"{COLOURS[colour]} cannot be drawn: the bag holds none",
                        "supply_draw_impossible",
                        {"colour": COLOURS[colour]},
                    )
            if len(drawn) < room and can_draw(bag, tower):
                raise IllegalMoveError(
                    f"the supply refill stops at {len(drawn)} of {room} tiles "
                    "while tiles remain to draw",
                    "supply_draw_short",
                    {"room": room, "drawn": len(drawn)},
                )
            self.bag, self.tower = bag, tower
            self._finish_supply(drawn, {"supply": _names(drawn)}, poured)
            return
        if self.phase != PHASE_DEAL:
            raise IllegalMoveError(
                f"no deal is due now ({self._due()})",
                "no_deal_due",
                {"phase": self.phase, "round": self.round, "to_move": self.to_move()},
            )
        factories = event["deal"]
        count = len(self.factories)
        if not isinstance(factories, list) or len(factories) != count:
            raise InvalidMoveError(
                f'"deal" must list {count} factories', "deal_size", {"factories": count}
            )
        deal: list[list[int]] = []
        for number, tiles in enumerate(factories):
            if not isinstance(tiles, list) or len(tiles) > FACTORY_SIZE:
                raise InvalidMoveError(
                    f"each factory of a deal lists at most {FACTORY_SIZE} colours",
                    "deal_overfull",
                    {"factory": number, "max": FACTORY_SIZE},
                )
            deal.append(
                [COLOUR_NAMES.read(name, "each dealt tile", "deal") for name in tiles]
            )
        bag, tower = self.bag[:], self.tower[:]
        poured = 0
        for number, tiles in enumerate(deal):
            for colour in tiles:
                if not any(bag):
                    poured += sum(tower)
                if not take_drawn_tile(bag, tower, colour):
                    raise IllegalMoveError(
                        f"factory {number}: {COLOURS[colour]} cannot be drawn, "
                        "the bag holds none",
                        "deal_impossible",
                        {"factory": number, "colour": COLOURS[colour]},
                    )
            if len(tiles) < FACTORY_SIZE and can_draw(bag, tower):
                raise IllegalMoveError(
                    f"factory {number} gets {len(tiles)} tiles while tiles remain "
                    "to draw",
                    "deal_short",
                    {"factory": number, "tiles": len(tiles), "size": FACTORY_SIZE},
                )
        self.bag, self.tower = bag, tower
        event_copy = {"deal": [_names(tiles) for tiles in deal]}
        self._finish_deal(deal, event_copy, poured)

    def _due(self) -> str:
        if self.phase == PHASE_SUPPLY:
            return "a supply draw is due"
        if self.phase == PHASE_DEAL:
            return f"the deal of round {self.round} is due"
        return f"seat {self.turn} is to {self.phase}"

    def _finish_supply(
        self, drawn: list[int], event: dict[str, Any], poured: int
    ) -> None:
        supply = self.supply
        for colour in drawn:
            supply[colour] += 1
        self._history.append(event)
        self.log.append({"type": "supply", "tiles": _names(drawn), "poured": poured})
        if self._refill_then_deal:
            self._refill_then_deal = False
            self.phase = PHASE_DEAL
        else:
            self._go_on(self._last_seat)

    def _finish_deal(
        self, deal: list[list[int]], event: dict[str, Any], poured: int
    ) -> None:
        total = 0
        for factory, tiles in zip(self.factories, deal, strict=True):
            for colour in tiles:
                factory[colour] += 1
            total += len(tiles)
        self._table = total
        self._history.append(event)
        self.log.append(
            {
                "type": "deal",
                "round": self.round,
                "factories": [_names(tiles) for tiles in deal],
                "poured": poured,
            }
        )
        self.turn = self.round_starter
        if total:
            self.phase = PHASE_TAKE
        else:
            self._start_phase2()

    # -- unchecked application -------------------------------------------------

    def push(self, move: Move) -> None:
        """Apply a decision from ``legal_moves()`` without checking it (fast path)."""
        if type(move) is Place:
            self._push_place(move)
        elif type(move) is Pass:
            self._push_pass(move)
        elif type(move) is Take:
            self._push_take(move)
        else:
            assert isinstance(move, Bonus)
            self._push_bonus(move)

    def _push_take(self, move: Take) -> None:
        seat, source, colour = move.seat, move.source, move.colour
        wild = self.wild
        tiles = self.centre if source == CENTER else self.factories[source]
        hand = self.hands[seat]
        if colour == wild:
            count, extra = 1, 0
            tiles[wild] -= 1
            hand[wild] += 1
        else:
            count = tiles[colour]
            tiles[colour] = 0
            hand[colour] += count
            extra = 1 if tiles[wild] else 0
            if extra:
                tiles[wild] -= 1
                hand[wild] += 1
        taken = count + extra
        self._table -= taken
        entry: dict[str, Any] = {
            "type": "take",
            "seat": seat,
            "from": "center" if source == CENTER else source,
            "colour": COLOURS[colour],
            "tiles": count,
            "wild": extra,
        }
        if source == CENTER:
            if self.token_holder is None:
                self.token_holder = seat
                lost = self._penalise(
                    seat, taken, "start-token", "took the start token"
                )
                entry["start_token"] = True
                entry["penalty"] = lost
        else:
            centre = self.centre
            moved = [0] * NUM_COLOURS
            for c in range(NUM_COLOURS):
                n = tiles[c]
                if n:
                    centre[c] += n
                    moved[c] = n
                    tiles[c] = 0
            entry["to_centre"] = _colour_counts_names(moved)
        self._history.append(move)
        self.log.append(entry)
        if self._table:
            self.turn = (seat + 1) % self.players
        else:
            self._start_phase2()

    def _start_phase2(self) -> None:
        """Phase 2 starts with the start-token holder, else the round's starter."""
        self.phase = PHASE_PLACE
        holder = self.token_holder
        self.turn = self.round_starter if holder is None else holder

    def _penalise(self, seat: int, tiles: int, kind: str, detail: str) -> int:
        """Lose ``tiles`` points, never below 1 (§1); log it; return points lost."""
        score = self.scores[seat]
        lost = tiles if tiles < score else score - 1
        self.scores[seat] = score - lost
        self.score_log.append(
            ScoreChange(self.round, seat, -lost, kind, f"{detail}: {tiles} tiles")
        )
        return lost

    def _push_place(self, move: Place) -> None:
        seat, star, colour, wilds = move.seat, move.star, move.colour, move.wilds
        index = star * 6 + move.space - 1
        k = self.costs[index]
        wild = self.wild
        hand = self.hands[seat]
        tower = self.tower
        own = k - wilds
        hand[colour] -= own
        tower[colour] += own - 1
        if wilds:
            hand[wild] -= wilds
            tower[wild] += wilds
        self.boards[seat][index] = colour
        filled = self.filled[seat] | 1 << index
        self.filled[seat] = filled
        self.star_colours[seat][star] |= 1 << colour
        points = RUN[filled >> (star * 6) & 63][move.space - 1]
        self.scores[seat] += points
        name = space_name(index)
        self.score_log.append(ScoreChange(self.round, seat, points, "star", name))
        owed = 0
        done = self.completed[seat]
        completed: list[dict[str, Any]] = []
        for j in SPACE_STRUCTURES[index]:
            mask = STRUCTURE_MASKS[j]
            if filled & mask == mask:
                done |= 1 << j
                owed += STRUCTURE_BONUSES[j]
                completed.append(STRUCTURES[j].describe())
        self.completed[seat] = done
        available = sum(self.supply)
        due = owed if owed < available else available
        self._history.append(move)
        self.log.append(
            {
                "type": "place",
                "seat": seat,
                "star": STARS[star],
                "space": move.space,
                "colour": COLOURS[colour],
                "cost": k,
                "paid": own,
                "wilds": wilds,
                "wild_colour": COLOURS[wild],
                "to_tower": k - 1,
                "points": points,
                "completed": completed,
                "bonus_owed": owed,
                "bonus_available": due,
            }
        )
        if due:
            self.phase = PHASE_BONUS
            self.bonus_owed = due
        else:
            self._end_turn(seat)

    def _push_bonus(self, move: Bonus) -> None:
        seat = move.seat
        supply, hand = self.supply, self.hands[seat]
        for colour in move.tiles:
            supply[colour] -= 1
            hand[colour] += 1
        self.bonus_owed = 0
        self._history.append(move)
        self.log.append({"type": "bonus", "seat": seat, "tiles": _names(move.tiles)})
        self._end_turn(seat)

    def _push_pass(self, move: Pass) -> None:
        seat = move.seat
        hand, corner, tower = self.hands[seat], self.corners[seat], self.tower
        for colour in move.keep:
            hand[colour] -= 1
            corner[colour] += 1
        discarded = 0
        for colour in range(NUM_COLOURS):
            n = hand[colour]
            if n:
                tower[colour] += n
                discarded += n
        entry: dict[str, Any] = {
            "type": "pass",
            "seat": seat,
            "kept": _names(move.keep),
            "discarded": _colour_counts_names(hand),
            "penalty": 0,
        }
        self.hands[seat] = [0] * NUM_COLOURS
        if discarded:
            last = self.round == ROUNDS
            entry["penalty"] = self._penalise(
                seat,
                discarded,
                "leftover" if last else "discard",
                "tiles left after round 6" if last else "discarded when passing",
            )
        self.passed[seat] = True
        self._history.append(move)
        self.log.append(entry)
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        """After a Phase-2 turn: round end, supply refill, next player (§5, §6)."""
        self.phase = PHASE_PLACE
        all_passed = all(self.passed)
        if all_passed:
            self.round_scores.append(self.scores[:])
            if self.round == ROUNDS:
                self._end_game()
                return
        if sum(self.supply) < SUPPLY_SIZE and can_draw(self.bag, self.tower):
            self.phase = PHASE_SUPPLY
            self._last_seat = seat
            return
        self._go_on(seat)

    def _go_on(self, seat: int) -> None:
        """Next Phase-2 turn clockwise skipping passed seats, or the next round."""
        passed = self.passed
        if all(passed):
            self._next_round()
            return
        self.phase = PHASE_PLACE
        n = self.players
        nxt = (seat + 1) % n
        while passed[nxt]:
            nxt = (nxt + 1) % n
        self.turn = nxt

    def _next_round(self) -> None:
        """Between rounds (§6): new wild colour, corners to hands, token to centre."""
        holder = self.token_holder
        if holder is not None:
            self.round_starter = holder
        self.token_holder = None
        self.round += 1
        for hand, corner in zip(self.hands, self.corners, strict=True):
            for colour in range(NUM_COLOURS):
                hand[colour] += corner[colour]
                corner[colour] = 0
        self.passed = [False] * self.players
        self.phase = PHASE_DEAL
        self.turn = None

    def _end_game(self) -> None:
        """End bonuses (§7, §8) after round 6's Phase 2."""
        masks = NUMBER_MASKS_GREY if self.grey else NUMBER_MASKS_COLOURED
        for seat in range(self.players):
            filled = self.filled[seat]
            for star in range(NUM_STARS):
                if filled >> (star * 6) & 63 != 63:
                    continue
                present = self.star_colours[seat][star]
                if self.grey:
                    if SINGLE_COLOUR[present]:
                        colour = present.bit_length() - 1
                        bonus = STAR_BONUS_BY_COLOUR[colour]
                        detail = f"{STARS[star]} star, all {COLOURS[colour]}"
                    else:
                        bonus = SIX_COLOUR_BONUS
                        detail = f"{STARS[star]} star, six colours"
                elif star == 0:
                    bonus, detail = SIX_COLOUR_BONUS, "center star"
                else:
                    bonus = STAR_BONUS_BY_COLOUR[STAR_COLOUR[star]]
                    detail = f"{STARS[star]} star"
                self.scores[seat] += bonus
                self.score_log.append(
                    ScoreChange(self.round, seat, bonus, "star-bonus", detail)
                )
            for (mask, bonus), k in zip(masks, NUMBER_BONUS, strict=True):
                if filled & mask == mask:
                    self.scores[seat] += bonus
                    self.score_log.append(
                        ScoreChange(
                            self.round, seat, bonus, "number-bonus", f"all {k}s"
                        )
                    )
        self.phase = PHASE_OVER
        self.turn = None
        if self.log:
            self.log[-1]["game_over"] = True


_PASS_CACHE_R6: list[Pass] = [Pass(seat, ()) for seat in range(4)]


def _copy_event(event: dict[str, Any]) -> dict[str, Any]:
    if "deal" in event:
        return {"deal": [list(tiles) for tiles in event["deal"]]}
    return {key: list(value) for key, value in event.items()}


register(PAVILION_FAMILY, PavilionGame)
