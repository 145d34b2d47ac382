"""Classic Azul, coloured wall (``classic``) and grey wall (``classic-grey``).

Implements ``docs/rules/azul.md``. The state is compact (lists of small ints, colour
masks) so that a copy is a handful of list slices and a random playout runs fast.

Decisions are small immutable values: :class:`Take` in the factory offer phase and,
on the grey wall, :class:`WallPlacement` in the wall-tiling phase. Random outcomes
(each round's deal) are events too: :meth:`ClassicGame.chance` draws one with the
caller's ``random.Random``, :meth:`ClassicGame.apply_event` replays one from a
record. :meth:`ClassicGame.play` is the checked entry point for user input;
:meth:`ClassicGame.push` is the fast unchecked one for moves taken from
:meth:`ClassicGame.legal_moves`.

Cases the rules page settles by decision are cited where they are implemented
(``§4.4`` marker onto a full floor, ``§7`` games that could never end, and so on).
One more, settled here: on the grey wall, tiles of a pattern line that has no legal
column are moved to the floor at the moment that line is tiled (``§8``), so they
take free floor spaces before the tiles of lower lines of the same player.
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
from .variants import CLASSIC_FAMILY, Family, register

COLOURS = ("blue", "yellow", "red", "black", "white")
COLOUR_INDEX = {name: index for index, name in enumerate(COLOURS)}
COLOUR_NAMES = ColourNames(COLOUR_INDEX, "{value!r} is not a classic colour")
"""The colour names of records (``common.ColourNames``, as Summer Pavilion's)."""
FLOOR = 5
"""Destination index of the floor line in a :class:`Take`."""
MARKER = 5
"""The first-player marker, as an entry of a floor line."""
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)
FLOOR_SPACES = len(FLOOR_PENALTIES)
FACTORY_COUNT = {2: 5, 3: 7, 4: 9}
TILES_PER_COLOUR = 20
ALL_COLOURS_MASK = 0b11111
ROW_BONUS, COLUMN_BONUS, COLOUR_BONUS = 2, 7, 10
IDLE_ROUNDS_LIMIT = 3


class Phase(StrEnum):
    """Values of ``ClassicGame.phase``. Members are strings
    (``Phase.OFFER == "offer"``), so stored and compared names keep working."""

    DEAL = "deal"
    """The round's deal is due (a chance event)."""
    OFFER = "offer"
    """Factory offer (``§4``): the seat to move takes tiles."""
    TILING = "tiling"
    """Grey wall tiling (``§8``): the seat to move chooses a column."""
    OVER = "over"


# The members under module names, for the hot paths: reading a member off its
# enum class costs about 100 ns in Python 3.11, a module global a tenth of it.
PHASE_DEAL = Phase.DEAL
PHASE_OFFER = Phase.OFFER
PHASE_TILING = Phase.TILING
PHASE_OVER = Phase.OVER

_POPCOUNT = tuple(bin(mask).count("1") for mask in range(32))
_ORDINAL_LINES = range(5)


def wall_points(wall: Sequence[Sequence[int]], row: int, column: int) -> int:
    """Points a tile at ``(row, column)`` of ``wall`` scores (``§6``): its
    horizontal and vertical runs of neighbours; the space itself may be empty."""
    line = wall[row]
    left = column
    while left > 0 and line[left - 1] >= 0:
        left -= 1
    right = column
    while right < 4 and line[right + 1] >= 0:
        right += 1
    top = row
    while top > 0 and wall[top - 1][column] >= 0:
        top -= 1
    bottom = row
    while bottom < 4 and wall[bottom + 1][column] >= 0:
        bottom += 1
    horizontal = right - left + 1
    vertical = bottom - top + 1
    if horizontal == 1 and vertical == 1:
        return 1
    return (horizontal if horizontal > 1 else 0) + (vertical if vertical > 1 else 0)


def _source_name(source: int) -> str:
    return "the centre" if source == CENTER else f"factory {source}"


@dataclass(frozen=True, slots=True)
class Take:
    """Take every tile of ``colour`` from ``source`` and place them on ``line``.

    ``source`` is a factory index or :data:`CENTER`; ``line`` is 0–4 or
    :data:`FLOOR` (``docs/rules/azul.md §4``). The engine hands out shared
    instances (:func:`take`): building a frozen dataclass costs several times a
    tuple's, and the search builds thousands of moves a second.
    """

    seat: int
    source: int
    colour: int
    line: int

    def to_event(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "from": "center" if self.source == CENTER else self.source,
            "colour": COLOURS[self.colour],
            "to": "floor" if self.line == FLOOR else self.line,
        }

    def __str__(self) -> str:
        target = "the floor" if self.line == FLOOR else f"line {self.line}"
        return (
            f"seat {self.seat} takes {COLOURS[self.colour]} from "
            f"{_source_name(self.source)} to {target}"
        )


@dataclass(frozen=True, slots=True)
class WallPlacement:
    """Grey wall: move the tile of full pattern ``line`` to ``column`` (``§8``)."""

    seat: int
    line: int
    column: int

    def to_event(self) -> dict[str, Any]:
        return {"seat": self.seat, "wall": {"line": self.line, "column": self.column}}

    def __str__(self) -> str:
        return f"seat {self.seat} tiles line {self.line} into column {self.column}"


@dataclass(frozen=True, slots=True)
class Deal:
    """The tiles drawn onto each factory at the start of a round, in drawn order."""

    factories: tuple[tuple[int, ...], ...]

    def to_event(self) -> dict[str, Any]:
        return {"deal": [[COLOURS[c] for c in tiles] for tiles in self.factories]}


Move = Take | WallPlacement

_TAKES: tuple[tuple[tuple[tuple[Take, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(Take(seat, source, colour, line) for line in range(FLOOR + 1))
            for colour in range(5)
        )
        for source in (*range(max(FACTORY_COUNT.values())), CENTER)
    )
    for seat in range(max(FACTORY_COUNT))
)
"""``_TAKES[seat][source][colour][line]``: every take the engine can hand out,
built once; the centre (``CENTER``, -1) is the last row, so it indexes as is."""


def take(seat: int, source: int, colour: int, line: int) -> Take:
    """The shared :class:`Take` of these values (they must be in range)."""
    return _TAKES[seat][source][colour][line]


class Board:
    """One player's board (``§2``).

    - ``score``; ``line_colour[i]`` (-1 when empty) and ``line_count[i]`` for pattern
      line ``i`` (which holds ``i + 1`` tiles);
    - ``wall[row][col]``: colour index or -1; ``row_mask``/``col_mask``: bitmask of
      the colours present in each wall row/column;
    - ``floor``: colour indices or :data:`MARKER`, left to right, at most 7;
    - ``allowed[colour]``: bitmask of the pattern lines that may take ``colour`` now.
    """

    __slots__ = (
        "score",
        "line_colour",
        "line_count",
        "wall",
        "row_mask",
        "col_mask",
        "floor",
        "allowed",
    )

    def __init__(self) -> None:
        self.score = 0
        self.line_colour = [-1] * 5
        self.line_count = [0] * 5
        self.wall = [[-1] * 5 for _ in range(5)]
        self.row_mask = [0] * 5
        self.col_mask = [0] * 5
        self.floor: list[int] = []
        self.allowed = [ALL_COLOURS_MASK] * 5

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.score = self.score
        other.line_colour = self.line_colour[:]
        other.line_count = self.line_count[:]
        other.wall = [row[:] for row in self.wall]
        other.row_mask = self.row_mask[:]
        other.col_mask = self.col_mask[:]
        other.floor = self.floor[:]
        other.allowed = self.allowed[:]
        return other

    def recompute_allowed(self) -> None:
        """Lines that may take each colour (§4.3): same colour, room, not on wall."""
        line_colour, line_count, row_mask = (
            self.line_colour,
            self.line_count,
            self.row_mask,
        )
        allowed = [0] * 5
        for line in _ORDINAL_LINES:
            held = line_colour[line]
            if held == -1:
                for colour in range(5):
                    if not row_mask[line] >> colour & 1:
                        allowed[colour] |= 1 << line
            elif line_count[line] <= line:
                allowed[held] |= 1 << line
        self.allowed = allowed

    def complete_rows(self) -> int:
        return sum(1 for mask in self.row_mask if mask == ALL_COLOURS_MASK)

    def complete_columns(self) -> int:
        return sum(1 for mask in self.col_mask if mask == ALL_COLOURS_MASK)

    def complete_colours(self) -> int:
        counts = [0] * 5
        for row in self.wall:
            for colour in row:
                if colour >= 0:
                    counts[colour] += 1
        return sum(1 for count in counts if count == 5)

    def place_on_wall(self, row: int, column: int, colour: int) -> int:
        """Put a tile on the wall and return its points (``§6``)."""
        wall_row = self.wall[row]
        wall_row[column] = colour
        self.row_mask[row] |= 1 << colour
        self.col_mask[column] |= 1 << colour
        return wall_points(self.wall, row, column)


class ClassicGame:
    """A game of classic Azul (``docs/rules/azul.md``).

    Public state, all readable by the site: ``variant``, ``players``, ``grey``,
    ``first_seat``, ``round`` (1-based), ``phase`` (:class:`Phase`: ``deal``,
    ``offer``, ``tiling``, ``over``), ``factories`` (per factory: count per
    colour), ``center`` (counts), ``center_marker``, ``bag`` and ``lid`` (counts),
    ``boards`` (:class:`Board`),
    ``round_starter``, ``marker_holder`` (seat that took the marker this round, or
    ``None``), ``pending_wall`` (grey wall: ``(seat, line)`` awaiting a column),
    ``round_scores``, :attr:`log` and :attr:`score_log`.
    """

    family: ClassVar[Family] = CLASSIC_FAMILY
    """The game family (``variants``): what the bots and the site look a
    family's behaviour up by, never ``isinstance``."""

    __slots__ = (
        "variant",
        "players",
        "grey",
        "first_seat",
        "round",
        "phase",
        "factories",
        "center",
        "center_marker",
        "bag",
        "lid",
        "boards",
        "round_starter",
        "marker_holder",
        "pending_wall",
        "round_scores",
        "_to_move",
        "_table_tiles",
        "_idle_rounds",
        "_placed_this_round",
        "_tiling_seat",
        "_tiling_line",
        "_history",
        "_log",
        "_score_log",
        "_outcome",
    )

    def __init__(
        self, players: int, *, grey: bool = False, first_seat: int = 0
    ) -> None:
        if players not in FACTORY_COUNT:
            raise ValueError("classic Azul is for 2, 3 or 4 players")
        if not 0 <= first_seat < players:
            raise ValueError("first_seat must be a seat number")
        self.variant = CLASSIC_FAMILY.variant(grey=grey).name
        self.players = players
        self.grey = grey
        self.first_seat = first_seat
        self.round = 1
        self.phase: Phase = PHASE_DEAL
        self.factories = [[0] * 5 for _ in range(FACTORY_COUNT[players])]
        self.center = [0] * 5
        self.center_marker = True
        self.bag = [TILES_PER_COLOUR] * 5
        self.lid = [0] * 5
        self.boards = [Board() for _ in range(players)]
        self.round_starter = first_seat
        self.marker_holder: int | None = None
        self.pending_wall: tuple[int, int] | None = None
        self.round_scores: list[list[int]] = []
        self._to_move = first_seat
        self._table_tiles = 0
        self._idle_rounds = 0
        self._placed_this_round = False
        self._tiling_seat = 0
        self._tiling_line = 0
        self._history: list[Deal | Take | WallPlacement] = []
        self._log: list[tuple[Any, ...]] = []
        self._score_log: list[tuple[int, int, int, str, str]] = []
        self._outcome: Outcome | None = None

    # ------------------------------------------------------------------ reading

    def copy(self) -> ClassicGame:
        """An independent copy; history and logs are shared-prefix copies."""
        other = ClassicGame.__new__(ClassicGame)
        other.variant = self.variant
        other.players = self.players
        other.grey = self.grey
        other.first_seat = self.first_seat
        other.round = self.round
        other.phase = self.phase
        other.factories = [f[:] for f in self.factories]
        other.center = self.center[:]
        other.center_marker = self.center_marker
        other.bag = self.bag[:]
        other.lid = self.lid[:]
        other.boards = [board.copy() for board in self.boards]
        other.round_starter = self.round_starter
        other.marker_holder = self.marker_holder
        other.pending_wall = self.pending_wall
        other.round_scores = [scores[:] for scores in self.round_scores]
        other._to_move = self._to_move
        other._table_tiles = self._table_tiles
        other._idle_rounds = self._idle_rounds
        other._placed_this_round = self._placed_this_round
        other._tiling_seat = self._tiling_seat
        other._tiling_line = self._tiling_line
        other._history = self._history[:]
        other._log = self._log[:]
        other._score_log = self._score_log[:]
        other._outcome = self._outcome
        return other

    def wall_colour(self, row: int, column: int) -> int | None:
        """The colour printed on a wall space; ``None`` on the grey wall."""
        return None if self.grey else (column - row) % 5

    def needs_chance(self) -> bool:
        return self.phase == PHASE_DEAL

    def deal_due(self) -> bool:
        """True when the round's deal is the next event."""
        return self.phase == PHASE_DEAL

    def to_move(self) -> int | None:
        if self.phase == PHASE_OFFER or self.phase == PHASE_TILING:
            return self._to_move
        return None

    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def scores(self) -> list[int]:
        """Every seat's current score."""
        return [board.score for board in self.boards]

    def standing_keys(self) -> list[tuple[int, ...]]:
        """Each seat's standing now, bigger is better: score, then complete rows
        (the tie-break of ``docs/rules/azul.md §7``)."""
        return [(board.score, board.complete_rows()) for board in self.boards]

    def events(self) -> list[dict[str, Any]]:
        return self.events_from(0)

    def events_from(self, start: int) -> list[dict[str, Any]]:
        """``events()[start:]``, without building the events before ``start``."""
        return [event.to_event() for event in self._history[start:]]

    @property
    def history(self) -> list[Deal | Take | WallPlacement]:
        """Every event so far, as values."""
        return self._history[:]

    @property
    def score_log(self) -> list[ScoreChange]:
        """Every score change with its reason, in order."""
        return [ScoreChange(*entry) for entry in self._score_log]

    @property
    def log(self) -> list[dict[str, Any]]:
        """One entry of facts per event, plus a ``round_end`` entry per round."""
        return self.log_from(0)

    def log_size(self) -> int:
        """How many entries ``log`` has."""
        return len(self._log)

    def log_from(self, start: int) -> list[dict[str, Any]]:
        """``log[start:]``, without building the entries before ``start``."""
        entries = []
        for entry in self._log[start:]:
            kind = entry[0]
            if kind == "take":
                keys = [
                    *("seat", "source", "colour", "line", "count", "placed"),
                    *("to_floor", "to_lid", "marker"),
                ]
            elif kind == "deal":
                keys = ["round", "tiles"]
            elif kind == "wall":
                keys = ["seat", "line", "column", "colour", "points"]
            elif kind == "to_floor":
                keys = ["seat", "line", "colour", "count", "to_floor", "to_lid"]
            else:
                keys = ["round", "scores"]
            entries.append({"type": kind, **dict(zip(keys, entry[1:], strict=True))})
        return entries

    def result(self) -> dict[str, Any]:
        """The record's ``result``: scores, winners, ranks and the breakdown."""
        outcome = self._outcome
        if outcome is None:
            raise ValueError("the game is not over")
        breakdown = []
        for seat, board in enumerate(self.boards):
            changes = [e for e in self._score_log if e[1] == seat]
            breakdown.append(
                {
                    "wall": sum(e[2] for e in changes if e[3] == "wall"),
                    "floor": sum(e[2] for e in changes if e[3] == "floor"),
                    "rows": board.complete_rows(),
                    "columns": board.complete_columns(),
                    "colours": board.complete_colours(),
                    "bonus": sum(
                        e[2] for e in changes if e[3] in ("row", "column", "colour")
                    ),
                }
            )
        return {
            "scores": list(outcome.scores),
            "winners": list(outcome.winners),
            "ranks": list(outcome.ranks),
            "breakdown": breakdown,
        }

    # ------------------------------------------------------------ legal moves

    def _sources(self) -> list[tuple[int, list[int]]]:
        sources = [(i, f) for i, f in enumerate(self.factories) if any(f)]
        if any(self.center):
            sources.append((CENTER, self.center))
        return sources

    def legal_moves(self) -> list[Take] | list[WallPlacement]:
        """The legal decisions now, in a fixed order (empty when none is awaited).

        Takes: sources (factories in order, then the centre), colours in
        :data:`COLOURS` order, lines 0–4 then the floor.
        """
        if self.phase == PHASE_OFFER:
            seat = self._to_move
            allowed = self.boards[seat].allowed
            takes = _TAKES[seat]
            moves = []
            for source, counts in self._sources():
                for colour in range(5):
                    if counts[colour]:
                        lines = takes[source][colour]
                        mask = allowed[colour]
                        for line in _ORDINAL_LINES:
                            if mask >> line & 1:
                                moves.append(lines[line])
                        moves.append(lines[FLOOR])
            return moves
        if self.phase == PHASE_TILING:
            seat, line = self._tiling_seat, self._tiling_line
            return [
                WallPlacement(seat, line, column)
                for column in self._legal_columns(seat, line)
            ]
        return []

    def random_move(self, rng: random.Random) -> Take | WallPlacement:
        """``legal_moves()[rng.randrange(len(legal_moves()))]``, without the list.

        The playout fast path: it counts the legal moves instead of building them,
        and consumes the generator exactly as the expression above does.
        """
        if self.phase == PHASE_TILING:
            moves = self.legal_moves()
            return moves[rng.randrange(len(moves))]
        if self.phase != PHASE_OFFER:
            raise IllegalMoveError("no decision is awaited", "no_decision")
        seat = self._to_move
        options = [_POPCOUNT[mask] + 1 for mask in self.boards[seat].allowed]
        groups = []
        total = 0
        for index, counts in enumerate(self.factories):
            for colour in range(5):
                if counts[colour]:
                    groups.append((index, colour))
                    total += options[colour]
        counts = self.center
        for colour in range(5):
            if counts[colour]:
                groups.append((CENTER, colour))
                total += options[colour]
        pick = rng.randrange(total)
        for source, colour in groups:
            n = options[colour]
            if pick < n:
                mask = self.boards[seat].allowed[colour]
                for line in _ORDINAL_LINES:
                    if mask >> line & 1:
                        if pick == 0:
                            return _TAKES[seat][source][colour][line]
                        pick -= 1
                return _TAKES[seat][source][colour][FLOOR]
            pick -= n
        raise AssertionError("unreachable: pick out of range")

    def _legal_columns(self, seat: int, line: int) -> list[int]:
        board = self.boards[seat]
        colour = board.line_colour[line]
        bit = 1 << colour
        row = board.wall[line]
        return [c for c in range(5) if row[c] < 0 and not board.col_mask[c] & bit]

    # ---------------------------------------------------------------- checking

    def _check_take(self, move: Take) -> None:
        """Raise the error a player should read if ``move`` is not legal now."""
        if self.phase != PHASE_OFFER:
            raise IllegalMoveError(
                "tiles cannot be taken now", "not_offer_phase", {"phase": self.phase}
            )
        seat, source, colour, line = move.seat, move.source, move.colour, move.line
        if seat != self._to_move:
            raise IllegalMoveError(
                f"it is seat {self._to_move}'s turn, not seat {seat}'s",
                "not_your_turn",
                {"seat": seat, "to_move": self._to_move},
            )
        counts = self.center if source == CENTER else self.factories[source]
        if not any(counts):
            raise IllegalMoveError(
                f"{_source_name(source)} is empty", "source_empty", {"source": source}
            )
        name = COLOURS[colour]
        if not counts[colour]:
            raise IllegalMoveError(
                f"{_source_name(source)} has no {name}",
                "colour_absent",
                {"source": source, "colour": name},
            )
        if line == FLOOR:
            return
        board = self.boards[seat]
        cannot = f"seat {seat} cannot place {name} on line {line}: "
        held = board.line_colour[line]
        if held != -1 and held != colour:
            raise IllegalMoveError(
                f"{cannot}line {line} already holds {COLOURS[held]}",
                "line_holds_other",
                {"line": line, "colour": name, "held": COLOURS[held]},
            )
        if board.line_count[line] == line + 1:
            raise IllegalMoveError(
                f"{cannot}line {line} is full",
                "line_full",
                {"line": line, "colour": name},
            )
        if board.row_mask[line] >> colour & 1:
            raise IllegalMoveError(
                f"{cannot}wall row {line} already has {name}",
                "wall_row_has_colour",
                {"line": line, "colour": name},
            )

    def _check_wall(self, move: WallPlacement) -> None:
        if self.phase != PHASE_TILING:
            raise IllegalMoveError(
                "no wall placement is awaited now",
                "not_tiling_phase",
                {"phase": self.phase},
            )
        seat, line, column = move.seat, move.line, move.column
        if (seat, line) != (self._tiling_seat, self._tiling_line):
            raise IllegalMoveError(
                f"seat {self._tiling_seat} must tile line {self._tiling_line} first",
                "wrong_wall_line",
                {
                    "seat": seat,
                    "line": line,
                    "expected_seat": self._tiling_seat,
                    "expected_line": self._tiling_line,
                },
            )
        board = self.boards[seat]
        if board.wall[line][column] >= 0:
            raise IllegalMoveError(
                f"column {column} of wall row {line} is already filled",
                "wall_space_filled",
                {"line": line, "column": column},
            )
        colour = board.line_colour[line]
        if board.col_mask[column] >> colour & 1:
            raise IllegalMoveError(
                f"wall column {column} already has {COLOURS[colour]}",
                "wall_column_has_colour",
                {"column": column, "colour": COLOURS[colour]},
            )

    def _validate_shape(self, move: object) -> Take | WallPlacement:
        """Check that a move parses for this game; raise ``InvalidMoveError``."""
        if isinstance(move, Take):
            seat, source, colour, line = move.seat, move.source, move.colour, move.line
            if not all(type(v) is int for v in (seat, source, colour, line)):
                raise InvalidMoveError("a take is made of integers", "malformed")
            if not 0 <= seat < self.players:
                raise InvalidMoveError(
                    f"there is no seat {seat}",
                    "no_such_seat",
                    {"seat": seat, "players": self.players},
                )
            if source != CENTER and not 0 <= source < len(self.factories):
                raise InvalidMoveError(
                    f"there is no factory {source}",
                    "no_such_factory",
                    {"source": source, "factories": len(self.factories)},
                )
            if not 0 <= colour < 5:
                raise InvalidMoveError(
                    f"there is no colour {colour}",
                    "no_such_colour",
                    {"field": "colour", "value": colour},
                )
            if not 0 <= line <= FLOOR:
                raise InvalidMoveError(f"there is no line {line}", "no_such_line")
            return move
        if isinstance(move, WallPlacement):
            if not all(type(v) is int for v in (move.seat, move.line, move.column)):
                raise InvalidMoveError(
                    "a wall placement is made of integers", "malformed"
                )
            if not 0 <= move.seat < self.players:
                raise InvalidMoveError(
                    f"there is no seat {move.seat}",
                    "no_such_seat",
                    {"seat": move.seat, "players": self.players},
                )
            if not 0 <= move.line < 5:
                raise InvalidMoveError(f"there is no line {move.line}", "no_such_line")
            if not 0 <= move.column < 5:
                raise InvalidMoveError(
                    f"there is no column {move.column}", "no_such_column"
                )
            return move
        raise InvalidMoveError("not a classic Azul move", "malformed")

    def play(self, move: Take | WallPlacement) -> None:
        """Apply a player's decision, checked; on error nothing changes."""
        move = self._validate_shape(move)
        if isinstance(move, Take):
            self._check_take(move)
        else:
            self._check_wall(move)
        self.push(move)

    # ----------------------------------------------------------------- applying

    def push(self, move: Take | WallPlacement) -> None:
        """Apply a legal decision without checking it (the fast path)."""
        if isinstance(move, Take):
            self._take(move.seat, move.source, move.colour, move.line)
        else:
            self._place_wall(move.seat, move.line, move.column)

    def preview(self, move: Take) -> ClassicGame:
        """A copy with the take ``move`` (checked) applied and nothing after it:
        its tiles on the pattern line and the floor, the rest of its factory in
        the centre. Unlike ``play``, the offer phase does not end here even when
        the table is left empty (no wall tiling, no scoring, no deal): what a
        player checks before confirming a take. The copy is for drawing only."""
        checked = self._validate_shape(move)
        if not isinstance(checked, Take):
            raise InvalidMoveError("only a take can be previewed", "malformed")
        self._check_take(checked)
        after = self.copy()
        c = checked
        after._take(c.seat, c.source, c.colour, c.line, end_turn=False)
        return after

    def _take(
        self, seat: int, source: int, colour: int, line: int, end_turn: bool = True
    ) -> None:
        self._history.append(_TAKES[seat][source][colour][line])
        center = self.center
        marker = False
        if source == CENTER:
            count = center[colour]
            center[colour] = 0
            if self.center_marker:
                self.center_marker = False
                self.marker_holder = seat
                marker = True
        else:
            factory = self.factories[source]
            count = factory[colour]
            factory[colour] = 0
            for c in range(5):
                if factory[c]:
                    center[c] += factory[c]
                    factory[c] = 0
        self._table_tiles -= count
        board = self.boards[seat]
        floor = board.floor
        # §4.4: on a full floor the marker is still taken but takes no space.
        if marker and len(floor) < FLOOR_SPACES:
            floor.append(MARKER)
        placed = 0
        if line != FLOOR:
            room = line + 1 - board.line_count[line]
            placed = count if count < room else room
            board.line_count[line] += placed
            if board.line_colour[line] == -1:
                board.line_colour[line] = colour
                bit = 1 << line
                allowed = board.allowed
                for c in range(5):
                    if c != colour:
                        allowed[c] &= ~bit
            if board.line_count[line] == line + 1:
                board.allowed[colour] &= ~(1 << line)
        surplus = count - placed
        free = FLOOR_SPACES - len(floor)
        to_floor = surplus if surplus < free else free
        if to_floor:
            floor.extend([colour] * to_floor)
        to_lid = surplus - to_floor
        if to_lid:
            self.lid[colour] += to_lid
        self._log.append(
            (
                "take",
                seat,
                source,
                colour,
                line,
                count,
                placed,
                to_floor,
                to_lid,
                marker,
            )
        )
        if not end_turn:
            return
        if self._table_tiles:
            self._to_move = (seat + 1) % self.players
        else:
            self._end_offer_phase()

    def _place_wall(self, seat: int, line: int, column: int) -> None:
        self._history.append(WallPlacement(seat, line, column))
        board = self.boards[seat]
        colour = board.line_colour[line]
        points = board.place_on_wall(line, column, colour)
        self._score_tile(seat, line, column, colour, points)
        self._empty_line(board, line, colour)
        self._tiling_line = line + 1
        self._continue_tiling()

    def _score_tile(
        self, seat: int, line: int, column: int, colour: int, points: int
    ) -> None:
        self.boards[seat].score += points
        self._placed_this_round = True
        self._score_log.append(
            (
                self.round,
                seat,
                points,
                "wall",
                f"{COLOURS[colour]} at row {line}, column {column}",
            )
        )
        self._log.append(("wall", seat, line, column, colour, points))

    def _empty_line(self, board: Board, line: int, colour: int) -> None:
        """§5.1: the other tiles of a tiled line go to the lid."""
        self.lid[colour] += line
        board.line_colour[line] = -1
        board.line_count[line] = 0

    # ------------------------------------------------------------- round flow

    def _end_offer_phase(self) -> None:
        self._placed_this_round = False
        if self.grey:
            self.phase = PHASE_TILING
            self._tiling_seat = 0
            self._tiling_line = 0
            self._continue_tiling()
            return
        for seat, board in enumerate(self.boards):
            for line in _ORDINAL_LINES:
                if board.line_count[line] == line + 1:
                    colour = board.line_colour[line]
                    column = (colour + line) % 5
                    points = board.place_on_wall(line, column, colour)
                    self._score_tile(seat, line, column, colour, points)
                    self._empty_line(board, line, colour)
            self._score_floor(seat, board)
        self._end_round()

    def _continue_tiling(self) -> None:
        """Grey wall (§8): tile lines until a column choice is needed."""
        players = self.players
        seat, line = self._tiling_seat, self._tiling_line
        while seat < players:
            board = self.boards[seat]
            while line < 5:
                if board.line_count[line] == line + 1:
                    if self._legal_columns(seat, line):
                        self._tiling_seat, self._tiling_line = seat, line
                        self.pending_wall = (seat, line)
                        self._to_move = seat
                        return
                    self._line_to_floor(seat, board, line)
                line += 1
            self._score_floor(seat, board)
            seat += 1
            line = 0
        self.pending_wall = None
        self._end_round()

    def _line_to_floor(self, seat: int, board: Board, line: int) -> None:
        """§8: a full line with no legal column goes to the floor, surplus to lid."""
        colour = board.line_colour[line]
        count = board.line_count[line]
        free = FLOOR_SPACES - len(board.floor)
        to_floor = count if count < free else free
        board.floor.extend([colour] * to_floor)
        self.lid[colour] += count - to_floor
        board.line_colour[line] = -1
        board.line_count[line] = 0
        self._log.append(
            ("to_floor", seat, line, colour, count, to_floor, count - to_floor)
        )

    def _score_floor(self, seat: int, board: Board) -> None:
        """§5.3: floor penalties, clamped at 0; floor tiles to the lid."""
        floor = board.floor
        if floor:
            penalty = sum(FLOOR_PENALTIES[: len(floor)])
            before = board.score
            board.score = max(0, before - penalty)
            self._score_log.append(
                (
                    self.round,
                    seat,
                    board.score - before,
                    "floor",
                    f"{len(floor)} floor spaces, -{penalty}",
                )
            )
            lid = self.lid
            for tile in floor:
                if tile != MARKER:
                    lid[tile] += 1
            board.floor = []
        board.recompute_allowed()

    def _end_round(self) -> None:
        self.round_scores.append([board.score for board in self.boards])
        self._log.append(("round_end", self.round, self.round_scores[-1][:]))
        if self._placed_this_round:
            self._idle_rounds = 0
        else:
            self._idle_rounds += 1
        if any(mask == ALL_COLOURS_MASK for b in self.boards for mask in b.row_mask):
            self._finish()
            return
        if self._idle_rounds >= IDLE_ROUNDS_LIMIT:  # §7 (b)
            self._finish()
            return
        if not can_draw(self.bag, self.lid):  # §7 (a)
            self._finish()
            return
        if self.marker_holder is not None:
            self.round_starter = self.marker_holder
        self.marker_holder = None
        self.center_marker = True
        self.round += 1
        self.phase = PHASE_DEAL

    def _finish(self) -> None:
        """§7: end bonuses, then ranks by score and complete rows."""
        final = len(self.round_scores)
        for seat, board in enumerate(self.boards):
            rows = board.complete_rows()
            columns = board.complete_columns()
            colours = board.complete_colours()
            for kind, count, bonus in (
                ("row", rows, ROW_BONUS),
                ("column", columns, COLUMN_BONUS),
                ("colour", colours, COLOUR_BONUS),
            ):
                if count:
                    board.score += count * bonus
                    self._score_log.append(
                        (final, seat, count * bonus, kind, f"{count} x {bonus}")
                    )
        scores = [board.score for board in self.boards]
        keys = [(board.score, board.complete_rows()) for board in self.boards]
        self._outcome = outcome_from_keys(scores, keys)
        self.phase = PHASE_OVER
        self.pending_wall = None

    # ------------------------------------------------------------- chance

    def chance(self, rng: random.Random) -> dict[str, Any]:
        """Draw this round's deal (§3, §7) with ``rng`` and apply it."""
        if self.phase != PHASE_DEAL:
            raise IllegalMoveError("no deal is due now", "no_deal_due")
        bag, lid = self.bag, self.lid
        drawn = []
        for _ in self.factories:
            tiles = []
            for _ in range(4):
                colour = draw_tile(bag, lid, rng)
                if colour is None:
                    break
                tiles.append(colour)
            drawn.append(tuple(tiles))
        deal = Deal(tuple(drawn))
        self._start_round(deal)
        return deal.to_event()

    def _start_round(self, deal: Deal) -> None:
        total = 0
        for factory, tiles in zip(self.factories, deal.factories, strict=True):
            for colour in tiles:
                factory[colour] += 1
            total += len(tiles)
        self._history.append(deal)
        self._log.append(("deal", self.round, total))
        self._table_tiles = total
        self._to_move = self.round_starter
        self.phase = PHASE_OFFER if total else PHASE_DEAL
        if not total:  # cannot happen: _end_round ends the game first (§7 a)
            raise AssertionError("a deal with no tiles")

    def _apply_deal(self, factories: Sequence[Sequence[int]]) -> None:
        """Replay a recorded deal, checking each draw against the bag
        (docs/record.md)."""
        if self.phase != PHASE_DEAL:
            raise IllegalMoveError("no deal is due now", "no_deal_due")
        if len(factories) != len(self.factories):
            raise IllegalMoveError(
                f"a deal lists {len(self.factories)} factories, not {len(factories)}",
                "deal_size",
                {"factories": len(self.factories)},
            )
        bag, lid = self.bag[:], self.lid[:]
        for index, tiles in enumerate(factories):
            if len(tiles) > 4:
                raise IllegalMoveError(
                    f"factory {index} is dealt more than 4 tiles",
                    "deal_overfull",
                    {"factory": index, "max": 4},
                )
            for colour in tiles:
                if not take_drawn_tile(bag, lid, colour):
                    raise IllegalMoveError(
                        f"factory {index}: no {COLOURS[colour]} tile could be drawn",
                        "deal_impossible",
                        {"factory": index, "colour": COLOURS[colour]},
                    )
            if len(tiles) < 4 and can_draw(bag, lid):
                raise IllegalMoveError(
                    f"factory {index} is dealt {len(tiles)} tiles while tiles remain",
                    "deal_short",
                    {"factory": index, "tiles": len(tiles), "size": 4},
                )
        self.bag, self.lid = bag, lid
        self._start_round(Deal(tuple(tuple(t) for t in factories)))

    # ------------------------------------------------------------- records

    def apply_event(self, event: Mapping[str, Any]) -> None:
        """Apply one record event (``docs/record.md``), checked: a chance event
        (the deal) here, a decision read by :func:`move_from_event` and played."""
        if "deal" in event:
            deal = event["deal"]
            # the same faults, the same codes as Summer Pavilion's deal
            count = len(self.factories)
            if not isinstance(deal, list):
                raise InvalidMoveError(
                    f'"deal" must list {count} factories',
                    "deal_size",
                    {"factories": count},
                )
            for number, tiles in enumerate(deal):
                if not isinstance(tiles, list):
                    raise InvalidMoveError(
                        "each factory of a deal lists at most 4 colours",
                        "deal_overfull",
                        {"factory": number, "max": 4},
                    )
            dealt = [
                [COLOUR_NAMES.read(name, "each dealt tile", "deal") for name in tiles]
                for tiles in deal
            ]
            self._apply_deal(dealt)
            return
        self.play(move_from_event(event, self.players))


def move_from_event(event: Mapping[str, Any], players: int) -> Move:
    """The decision a record event names (``docs/record.md``), as
    ``Move.to_event()`` wrote it; ``InvalidMoveError`` if it does not read.
    The seat and colour are read as Summer Pavilion reads them (``common.read_seat``
    against ``players``, ``COLOUR_NAMES``); the rest of the event only for its
    shape: ``ClassicGame.play`` checks the factory against the game."""
    if "from" in event:
        source = event["from"]
        if source == "center":
            source = CENTER
        elif type(source) is not int or source < 0:
            raise InvalidMoveError(
                '"from" is a factory number or "center"', "malformed"
            )
        to = event.get("to")
        if to == "floor":
            line = FLOOR
        elif type(to) is int and 0 <= to <= 4:
            line = to
        else:
            raise InvalidMoveError('"to" is a line 0-4 or "floor"', "malformed")
        seat = read_seat(event, players)
        return Take(seat, source, COLOUR_NAMES.read(event.get("colour")), line)
    if "wall" in event:
        wall = event["wall"]
        if not isinstance(wall, Mapping):
            raise InvalidMoveError('"wall" holds a line and a column', "malformed")
        row, column = wall.get("line"), wall.get("column")
        if type(row) is not int or type(column) is not int:
            raise InvalidMoveError("line and column are integers", "malformed")
        return WallPlacement(read_seat(event, players), row, column)
    for key in ("supply", "bonus", "pass", "star"):
        if key in event:
            raise InvalidMoveError(
                f'a classic game has no "{key}" events', "wrong_variant"
            )
    raise InvalidMoveError("not a game event", "malformed")


register(CLASSIC_FAMILY, ClassicGame)
