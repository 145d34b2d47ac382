"""Independent audit of the classic engine against ``docs/rules/azul.md`` and
``docs/record.md``.

Two kinds of checks:

- hand-worked positions, one statement of the rules page each (the section is in
  the test name, the arithmetic in a comment);
- a lockstep comparison with :class:`Reference`, a deliberately naive second
  implementation written from the rules page alone (lists and dicts, no bitmasks,
  nothing imported from the engine): at every decision of a set of seeded games
  both must agree on whose turn it is and on the exact set of legal decisions, and
  at the end on every round's scores, the final scores, ranks, bag and lid.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine import record
from games.engine.__main__ import main
from games.engine.classic import (
    COLOUR_INDEX,
    FACTORY_COUNT,
    FLOOR,
    MARKER,
    Board,
    ClassicGame,
    Take,
    WallPlacement,
)
from games.engine.common import CENTER, IllegalMoveError, RecordError

B, Y, R, K, W = (COLOUR_INDEX[c] for c in ("blue", "yellow", "red", "black", "white"))
LETTERS = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}


def dealt(players: int, *factories: str, grey: bool = False, first: int = 0):
    """A game whose round-1 deal is ``factories``; the bag held only those tiles."""
    game = ClassicGame(players, grey=grey, first_seat=first)
    deal = [[LETTERS[ch] for ch in f] for f in factories]
    deal += [[] for _ in range(FACTORY_COUNT[players] - len(deal))]
    game.bag = [sum(tiles.count(name) for tiles in deal) for name in LETTERS.values()]
    game.apply_event({"deal": deal})
    return game


def put_wall(board: Board, row: int, column: int, colour: int | None = None) -> None:
    if colour is None:
        colour = (column - row) % 5
    board.wall[row][column] = colour
    board.row_mask[row] |= 1 << colour
    board.col_mask[column] |= 1 << colour
    board.recompute_allowed()


def fill_line(board: Board, line: int, colour: int) -> None:
    board.line_colour[line] = colour
    board.line_count[line] = line + 1
    board.recompute_allowed()


# §2 The wall --------------------------------------------------------------------------


@pytest.mark.parametrize("row", range(5))
def test_s2_every_colour_is_tiled_to_column_c_with_colour_c_minus_r(row: int) -> None:
    """§2: space (r, c) is COLOURS[(c - r) mod 5]; a tile of line r goes there."""
    names = ["blue", "yellow", "red", "black", "white"]
    for colour in range(5):
        game = dealt(2, "RRRR")
        fill_line(game.boards[1], row, colour)
        game.play(Take(0, 0, R, FLOOR))
        column = next(c for c in range(5) if game.boards[1].wall[row][c] >= 0)
        assert names[(column - row) % 5] == names[colour]
        assert game.wall_colour(row, column) == colour


# §4.4 / §5.3 Floor --------------------------------------------------------------------


def test_s4_4_marker_arriving_on_six_tiles_takes_the_last_space() -> None:
    """§4.2/§4.4: marker first (leftmost free space), then the surplus; the rest
    goes to the lid. Floor of 7: -1-1-2-2-2-3-3 = -14, clamped at 0 (§5.3)."""
    game = dealt(2, "BBYY", "KKKK")
    game.play(Take(0, 0, B, 1))  # 2 yellow to the centre
    board = game.boards[1]
    board.floor = [R] * 6
    game.play(Take(1, CENTER, Y, FLOOR))
    assert board.floor == [R] * 6 + [MARKER]
    assert game.lid[Y] == 2
    game.play(Take(0, 1, K, 3))
    assert game.round_scores[-1][1] == 0


def test_s5_3_floor_penalties_are_positional_and_clamp_at_zero() -> None:
    """§2/§5.3: 4 floor tiles cost 1+1+2+2 = 6: a score of 7 becomes 1, 5 becomes 0."""
    game = dealt(2, "BBBB", "YYYY")
    game.boards[0].score, game.boards[1].score = 7, 5
    game.play(Take(0, 0, B, FLOOR))
    game.play(Take(1, 1, Y, FLOOR))
    assert game.round_scores == [[1, 0]]
    assert [c.points for c in game.score_log if c.kind == "floor"] == [-6, -5]
    assert game.lid == [4, 4, 0, 0, 0]


# §6 Scoring ---------------------------------------------------------------------------


def test_s6_tile_with_both_runs_counts_itself_twice() -> None:
    """§6: a tile joining a horizontal run of 3 and a vertical run of 4 scores 7."""
    game = dealt(2, "RRRR")
    board = game.boards[1]
    # Row 2: (2,1) and (2,3) filled; column 2: (0,2), (1,2) and (3,2) filled.
    for row, column in ((2, 1), (2, 3), (0, 2), (1, 2), (3, 2)):
        put_wall(board, row, column)
    fill_line(board, 2, (2 - 2) % 5)  # blue goes to (2, 2)
    game.play(Take(0, 0, R, FLOOR))
    # horizontal (2,1)-(2,3): 3; vertical (0,2)-(3,2): 4; 3 + 4 = 7
    assert board.score == 7


def test_s6_lines_are_tiled_top_first_so_lower_lines_see_this_rounds_tiles() -> None:
    """§6: lines 0, 1, 2 fill column 0 downwards this round: 1, then 2, then 3 = 6."""
    game = dealt(2, "RRRR")
    board = game.boards[1]
    for line in range(3):
        fill_line(board, line, (0 - line) % 5)  # the colour of column 0 in row i
    game.play(Take(0, 0, R, FLOOR))
    assert [c.points for c in game.score_log if c.seat == 1] == [1, 2, 3]
    assert game.round_scores == [[0, 6]]


# §7 Next round, end of game -----------------------------------------------------------


def test_s7_the_lid_waits_while_the_bag_still_holds_tiles() -> None:
    """§7: the first draws of a deal take exactly what the bag held; only the draw
    that finds the bag empty pours the lid."""
    game = dealt(2, "BBBB", "YYYY")
    game.play(Take(0, 0, B, FLOOR))
    game.play(Take(1, 1, Y, FLOOR))
    assert game.lid == [4, 4, 0, 0, 0]
    game.bag = [0, 0, 2, 1, 0]  # red, red, black left
    event = game.chance(random.Random(8))
    first = event["deal"][0]
    assert sorted(first[:3]) == ["black", "red", "red"]
    assert first[3] in ("blue", "yellow")
    assert sum(game.bag) + sum(game.lid) == 0  # 3 + 8 tiles, 11 dealt
    assert [len(f) for f in event["deal"]] == [4, 4, 3, 0, 0]


def test_s7_a_no_deal_is_recorded_and_replay_reports_one_round() -> None:
    """§7 (a): bag and lid empty when a round should begin: the game ends, no deal."""
    game = dealt(2, "B")
    game.play(Take(0, 0, B, 0))  # 1 point; nothing reaches the lid
    assert game.is_over()
    data = record.export(game, ["ana", "binh"])
    assert data["events"][-1] == {"seat": 0, "from": 0, "colour": "blue", "to": 0}
    # Not replayable as a 100-tile game (the bag was set by hand), so check the
    # summary from the game itself: one round, final = round scores (no bonus).
    assert game.round_scores == [[1, 0]]
    assert game.outcome().scores == (1, 0)
    with pytest.raises(IllegalMoveError, match="no deal is due"):
        game.apply_event({"deal": [[]] * 5})


def test_s7_b_a_round_with_a_wall_tile_restarts_the_idle_count() -> None:
    """§7 (b): three idle rounds *in a row*. Idle, tile, idle, idle, idle: ends after
    round 5, not round 3."""
    game = ClassicGame(2)
    rng = random.Random(4)
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            continue
        moves = game.legal_moves()
        wanted = 0 if game.round == 2 else FLOOR
        game.play(next((m for m in moves if m.line == wanted), moves[-1]))
    placed = [c.round for c in game.score_log if c.kind == "wall"]
    assert placed and set(placed) == {2}
    assert len(game.round_scores) == 5


def test_s7_ranks_are_one_plus_seats_strictly_ahead_by_score_then_rows() -> None:
    """§7 + docs/record.md ``ranks``: finals 20, 20, 18, 20 with 1, 2, 0, 2 rows."""
    game = ClassicGame(4)
    for seat, (score, rows) in enumerate(((18, 1), (16, 2), (18, 0), (16, 2))):
        game.boards[seat].score = score
        for row in range(rows):
            for column in range(5):
                put_wall(game.boards[seat], row, column)
    game._finish()  # +2 per complete row
    outcome = game.outcome()
    assert outcome.scores == (20, 20, 18, 20)
    assert outcome.ranks == (3, 1, 4, 1)
    assert outcome.winners == (1, 3)
    assert game.result()["ranks"] == [3, 1, 4, 1]


# §8 Grey wall -------------------------------------------------------------------------


def test_s8_wall_events_start_at_seat_0_whoever_holds_the_marker() -> None:
    """docs/record.md: grouped by seat from seat 0, lines 0..4 within a seat."""
    game = dealt(2, "RRRY", "BBBB", grey=True, first=1)
    game.play(Take(1, 0, R, 2))  # 3 red: line 2 full; yellow to the centre
    game.play(Take(0, 1, B, 3))  # 4 blue: line 3 full
    game.play(Take(1, CENTER, Y, 0))  # marker to seat 1, line 0 full
    assert game.marker_holder == 1
    order = []
    while game.phase == "tiling":
        move = game.legal_moves()[0]
        order.append((move.seat, move.line))
        game.play(move)
    assert order == [(0, 3), (1, 0), (1, 2)]
    assert game.round_starter == 1


def test_s8_a_line_with_exactly_one_legal_column_still_gets_an_event() -> None:
    """docs/record.md: an event whenever at least one column is legal, even only one."""
    game = dealt(2, "RRRR", grey=True)
    board = game.boards[0]
    for column, colour in enumerate((B, Y, R, K)):
        put_wall(board, 0, column, colour)
    fill_line(board, 0, W)
    game.play(Take(0, 0, R, FLOOR))
    assert game.phase == "tiling"
    assert game.legal_moves() == [WallPlacement(0, 0, 4)]
    game.play(WallPlacement(0, 0, 4))
    assert {"seat": 0, "wall": {"line": 0, "column": 4}} in game.events()


def test_s8_an_upper_line_can_leave_a_lower_line_without_a_column() -> None:
    """§8 + docs/record.md: legality is judged when the line is tiled (after the upper
    lines). Red line 0 can only go to column 4; then red line 1, whose only empty
    space is column 4 too, has none: its 2 tiles go to the floor without an event.
    Red at (0, 4): horizontal run (0,1)-(0,4) = 4 points; floor 2 tiles = -2."""
    game = dealt(2, "BBBB", "YYYY", grey=True)
    board = game.boards[0]
    put_wall(board, 2, 0, R)  # column 0 holds red
    for column, colour in ((1, Y), (2, K), (3, W)):
        put_wall(board, 0, column, colour)
    for column, colour in ((0, B), (1, K), (2, W), (3, Y)):
        put_wall(board, 1, column, colour)
    fill_line(board, 0, R)
    fill_line(board, 1, R)
    game.play(Take(0, 0, B, 4))  # 4 of 5: not full
    game.play(Take(1, 1, Y, 4))
    assert game.legal_moves() == [WallPlacement(0, 0, 4)]
    game.play(WallPlacement(0, 0, 4))
    assert game.phase == "deal"
    assert [e for e in game.events() if "wall" in e] == [
        {"seat": 0, "wall": {"line": 0, "column": 4}}
    ]
    assert game.round_scores == [[4 - 2, 0]]
    assert game.lid[R] == 2  # the floor tiles went to the lid after scoring


def test_s8_grey_end_bonus_counts_a_colour_wherever_it_stands() -> None:
    """§7 on the grey wall: five blue tiles (distinct rows and columns) = +10."""
    game = ClassicGame(2, grey=True)
    for row in range(5):
        put_wall(game.boards[0], row, (row + 2) % 5, B)
    game._finish()
    assert game.outcome().scores == (10, 0)


# docs/record.md -----------------------------------------------------------------------


def tiny_record(**changes: Any) -> dict[str, Any]:
    """A one-round classic record on a fresh bag (unfinished)."""
    data: dict[str, Any] = {
        "format": "azul-record",
        "version": 1,
        "variant": "classic",
        "players": ["ana", "binh"],
        "first_seat": 0,
        "events": [
            {
                "deal": [
                    ["red"] * 4,
                    ["blue"] * 4,
                    ["black"] * 4,
                    ["white"] * 4,
                    ["yellow"] * 4,
                ]
            },
            {"seat": 0, "from": 0, "colour": "red", "to": 3},
        ],
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("events", 1, "seat"), False),
        (("events", 1, "from"), False),
        (("events", 1, "from"), 0.0),
        (("events", 1, "to"), 3.0),
        (("events", 1, "to"), True),
        (("first_seat",), False),
        (("version",), True),
        (("version",), 1.0),
    ],
)
def test_record_integers_must_be_json_integers(path: tuple, value: object) -> None:
    """docs/record.md Syntax: seats, factories, lines are JSON integers (no
    0.0/false)."""
    data = json.loads(json.dumps(tiny_record()))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(RecordError):
        record.load(json.dumps(data))


def test_record_wall_line_and_column_must_be_integers() -> None:
    game = record.random_game("classic-grey", 2, 3)
    data = record.export(game, ["a", "b"])
    index = next(i for i, e in enumerate(data["events"]) if "wall" in e)
    for key, value in (("line", True), ("column", 1.0)):
        bad = json.loads(json.dumps(data))
        bad["events"][index]["wall"][key] = value
        with pytest.raises(RecordError, match=rf"^event {index}: "):
            record.load(bad)


def test_record_one_kind_key_unknown_keys_ignored_result_ignored() -> None:
    data = tiny_record(result={"scores": [999, -1], "winners": [7]})
    data["events"][1]["comment"] = "nice"
    data["events"][0]["seat"] = 5  # not a kind key: ignored on a deal
    loaded = record.load(data)
    assert loaded.game.events()[1] == {"seat": 0, "from": 0, "colour": "red", "to": 3}
    both = tiny_record()
    both["events"][1]["wall"] = {"line": 0, "column": 0}
    with pytest.raises(RecordError, match="^event 1: an event holds exactly one"):
        record.load(both)


def test_replay_refuses_an_unfinished_record_with_the_event_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/record.md: ``event <len>: the record ends before the game is over``, exit
    non-zero, nothing on standard output."""
    path = tmp_path / "part.json"
    path.write_text(json.dumps(tiny_record()))
    assert main(["replay", str(path)]) != 0
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.strip() == "event 2: the record ends before the game is over"
    path.write_text("[1, 2]")
    assert main(["replay", str(path)]) != 0
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("record: ")


def test_replay_reports_absurdly_nested_json_as_a_record_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/record.md Commands: a malformed record gives ``record: ...`` on stderr and a
    non-zero exit, not a traceback (json raises RecursionError, not ValueError)."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["replay", str(path)]) != 0
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("record: not valid JSON")


def test_replay_prints_round_scores_final_scores_winners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = record.random_game("classic", 3, 21)
    path = tmp_path / "game.json"
    path.write_text(record.dumps(record.export(game, ["a", "b", "c"])))
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(printed) == ["round_scores", "final_scores", "winners"]
    assert printed["round_scores"] == game.round_scores
    assert printed["final_scores"] == list(game.outcome().scores)
    assert printed["winners"] == list(game.outcome().winners)


# Hidden information (§9) --------------------------------------------------------------


def test_s9_no_bag_order_or_generator_is_stored() -> None:
    """§9: the state holds counts only; nothing random survives between draws."""
    game = ClassicGame(2)
    game.chance(random.Random(1))
    for name in ClassicGame.__slots__:
        value = getattr(game, name)
        assert not isinstance(value, random.Random), name
    assert all(isinstance(n, int) for n in game.bag) and len(game.bag) == 5


# Lockstep with an independent reference -----------------------------------------------

NAMES = ["blue", "yellow", "red", "black", "white"]
PENALTY = [1, 1, 2, 2, 2, 3, 3]


class Reference:
    """Classic Azul straight from the rules page, driven by record events."""

    def __init__(self, players: int, grey: bool, first: int) -> None:
        self.n, self.grey = players, grey
        self.bag = dict.fromkeys(NAMES, 20)
        self.lid = dict.fromkeys(NAMES, 0)
        self.factories: list[list[str]] = [[] for _ in range(FACTORY_COUNT[players])]
        self.centre: list[str] = []
        self.marker, self.holder, self.starter = True, None, first
        self.score = [0] * players
        self.lines: list[list[tuple[str, int] | None]] = [
            [None] * 5 for _ in range(players)
        ]
        self.wall: list[list[list[str | None]]] = [
            [[None] * 5 for _ in range(5)] for _ in range(players)
        ]
        self.floor: list[list[str]] = [[] for _ in range(players)]
        self.phase, self.turn, self.idle = "deal", -1, 0
        self.round_scores: list[list[int]] = []
        self.ranks: list[int] = []
        self.pending: tuple[int, int] | None = None
        self.placed = False
        self.tseat = self.tline = 0

    def drawable(self) -> bool:
        return sum(self.bag.values()) + sum(self.lid.values()) > 0

    def draw(self, colour: str) -> None:
        if sum(self.bag.values()) == 0:
            for c in NAMES:
                self.bag[c], self.lid[c] = self.lid[c], 0
        assert self.bag[colour] > 0, "a draw the bag cannot hold"
        self.bag[colour] -= 1

    def deal(self, factories: list[list[str]]) -> None:
        assert self.phase == "deal"
        for index, tiles in enumerate(factories):
            for colour in tiles:
                self.draw(colour)
            assert len(tiles) == 4 or not self.drawable()
            self.factories[index] = list(tiles)
        self.phase, self.turn = "offer", self.starter

    def columns(self, seat: int, line: int) -> list[int]:
        line_tiles = self.lines[seat][line]
        assert line_tiles is not None
        colour, wall = line_tiles[0], self.wall[seat]
        return [
            c
            for c in range(5)
            if wall[line][c] is None and all(wall[r][c] != colour for r in range(5))
        ]

    def legal(self) -> set[tuple[Any, ...]]:
        if self.phase == "tiling":
            assert self.pending is not None
            seat, line = self.pending
            return {("wall", seat, line, c) for c in self.columns(seat, line)}
        seat, found = self.turn, set()
        sources: list[tuple[Any, list[str]]] = list(enumerate(self.factories))
        sources.append(("center", self.centre))
        for source, tiles in sources:
            for colour in set(tiles):
                found.add((seat, source, colour, "floor"))
                for line in range(5):
                    held = self.lines[seat][line]
                    if held and (held[0] != colour or held[1] == line + 1):
                        continue
                    if colour not in self.wall[seat][line]:
                        found.add((seat, source, colour, line))
        return found

    def to_floor(self, seat: int, colour: str, count: int) -> None:
        for _ in range(count):
            if len(self.floor[seat]) < 7:
                self.floor[seat].append(colour)
            else:
                self.lid[colour] += 1

    def take(self, seat: int, source: Any, colour: str, to: Any) -> None:
        assert (seat, source, colour, to) in self.legal()
        if source == "center":
            count = self.centre.count(colour)
            self.centre = [t for t in self.centre if t != colour]
            if self.marker:
                self.marker, self.holder = False, seat
                if len(self.floor[seat]) < 7:
                    self.floor[seat].append("marker")
        else:
            tiles = self.factories[source]
            count = tiles.count(colour)
            self.centre += [t for t in tiles if t != colour]
            self.factories[source] = []
        if to == "floor":
            self.to_floor(seat, colour, count)
        else:
            held = self.lines[seat][to]
            have = held[1] if held else 0
            put = min(count, to + 1 - have)
            self.lines[seat][to] = (colour, have + put)
            self.to_floor(seat, colour, count - put)
        self.turn = (seat + 1) % self.n
        if not self.centre and not any(self.factories):
            self.placed, self.phase, self.tseat, self.tline = False, "tiling", 0, 0
            self.tile_on()

    def place(self, seat: int, row: int, column: int, colour: str) -> None:
        wall = self.wall[seat]
        wall[row][column] = colour
        across = [wall[row][c] is not None for c in range(5)]
        down = [wall[r][column] is not None for r in range(5)]

        def run(filled: list[bool], at: int) -> int:
            low = high = at
            while low > 0 and filled[low - 1]:
                low -= 1
            while high < 4 and filled[high + 1]:
                high += 1
            return high - low + 1

        h, v = run(across, column), run(down, row)
        points = 1 if h == v == 1 else (h if h > 1 else 0) + (v if v > 1 else 0)
        self.score[seat] += points
        self.placed = True
        self.lid[colour] += row
        self.lines[seat][row] = None

    def tile_on(self) -> None:
        while self.tseat < self.n:
            seat = self.tseat
            while self.tline < 5:
                line, held = self.tline, self.lines[self.tseat][self.tline]
                if held and held[1] == line + 1:
                    if not self.grey:
                        self.place(
                            seat, line, (NAMES.index(held[0]) + line) % 5, held[0]
                        )
                    elif self.columns(seat, line):
                        self.pending, self.turn = (seat, line), seat
                        return
                    else:
                        self.to_floor(seat, held[0], held[1])
                        self.lines[seat][line] = None
                self.tline += 1
            penalty = sum(PENALTY[: len(self.floor[seat])])
            self.score[seat] = max(0, self.score[seat] - penalty)
            for tile in self.floor[seat]:
                if tile != "marker":
                    self.lid[tile] += 1
            self.floor[seat] = []
            self.tseat, self.tline = self.tseat + 1, 0
        self.pending = None
        self.end_round()

    def wall_event(self, seat: int, line: int, column: int) -> None:
        assert ("wall", seat, line, column) in self.legal()
        held = self.lines[seat][line]
        assert held is not None
        self.place(seat, line, column, held[0])
        self.tline += 1
        self.tile_on()

    def rows(self, seat: int) -> int:
        return sum(all(x is not None for x in row) for row in self.wall[seat])

    def end_round(self) -> None:
        self.round_scores.append(self.score[:])
        self.idle = 0 if self.placed else self.idle + 1
        if (
            any(self.rows(p) for p in range(self.n))
            or self.idle >= 3
            or not (self.drawable())
        ):
            for p in range(self.n):
                wall = self.wall[p]
                self.score[p] += 2 * self.rows(p)
                self.score[p] += 7 * sum(
                    all(wall[r][c] is not None for r in range(5)) for c in range(5)
                )
                self.score[p] += 10 * sum(
                    sum(x == c for row in wall for x in row) == 5 for c in NAMES
                )
            keys = [(self.score[p], self.rows(p)) for p in range(self.n)]
            self.ranks = [1 + sum(k > keys[p] for k in keys) for p in range(self.n)]
            self.phase = "over"
            return
        if self.holder is not None:
            self.starter = self.holder
        self.holder, self.marker, self.phase = None, True, "deal"


def _key(event: dict[str, Any]) -> tuple[Any, ...]:
    if "wall" in event:
        return ("wall", event["seat"], event["wall"]["line"], event["wall"]["column"])
    return (event["seat"], event["from"], event["colour"], event["to"])


@pytest.mark.parametrize("variant", ["classic", "classic-grey"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_engine_agrees_with_an_independent_reference(
    variant: str, players: int, seed: int
) -> None:
    """§3-§8 and docs/record.md turn order: same legal sets, scores, ranks, bag, lid.

    Decisions are random but prefer pattern lines, so walls fill, rows complete,
    the lid is poured and the grey wall's column choices (and dead lines) occur."""
    rng = random.Random(seed)
    first = rng.randrange(players)
    game = record.new_game(variant, players, first)
    ref = Reference(players, variant == "classic-grey", first)
    bias = (0.0, 0.9, 0.99, 1.0)[seed % 4]
    while not game.is_over():
        if game.needs_chance():
            ref.deal(game.chance(rng)["deal"])
            continue
        assert game.to_move() == ref.turn
        moves = game.legal_moves()
        assert {_key(m.to_event()) for m in moves} == ref.legal()
        lines = [m for m in moves if not (isinstance(m, Take) and m.line == FLOOR)]
        pool = lines if lines and rng.random() < bias else moves
        move = pool[rng.randrange(len(pool))]
        game.play(move)
        event = move.to_event()
        if "wall" in event:
            ref.wall_event(*_key(event)[1:])
        else:
            ref.take(*_key(event))
        assert game.is_over() == (ref.phase == "over")
    outcome = game.outcome()
    assert game.round_scores == ref.round_scores
    assert list(outcome.scores) == ref.score and list(outcome.ranks) == ref.ranks
    assert game.bag == [ref.bag[c] for c in NAMES]
    assert game.lid == [ref.lid[c] for c in NAMES]
