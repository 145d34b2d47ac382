"""Classic Azul rules, section by section (``docs/rules/azul.md``), scores by hand."""

from __future__ import annotations

import random

import pytest

from games.engine.classic import (
    COLOUR_INDEX,
    COLOURS,
    FACTORY_COUNT,
    FLOOR,
    MARKER,
    Board,
    ClassicGame,
    Take,
    WallPlacement,
)
from games.engine.common import CENTER, IllegalMoveError, InvalidMoveError

B, Y, R, K, W = (COLOUR_INDEX[c] for c in ("blue", "yellow", "red", "black", "white"))


def dealt(players: int = 2, *factories: str, grey: bool = False, first: int = 0):
    """A game whose round-1 deal is ``factories`` (strings of B/Y/R/K/W letters)."""
    game = ClassicGame(players, grey=grey, first_seat=first)
    letters = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}
    deal = [[letters[ch] for ch in f] for f in factories]
    deal += [[] for _ in range(FACTORY_COUNT[players] - len(deal))]
    game.bag = _bag_for(deal)
    game.apply_event({"deal": deal})
    return game


def _bag_for(deal: list[list[str]]) -> list[int]:
    """A bag holding exactly the dealt tiles, so factories may be left short."""
    bag = [0] * 5
    for tiles in deal:
        for name in tiles:
            bag[COLOUR_INDEX[name]] += 1
    return bag


def put_wall(board: Board, row: int, column: int, colour: int | None = None) -> None:
    """Put a tile on a wall space (coloured wall colour unless given)."""
    if colour is None:
        colour = (column - row) % 5
    board.wall[row][column] = colour
    board.row_mask[row] |= 1 << colour
    board.col_mask[column] |= 1 << colour
    board.recompute_allowed()


def fill_line(board: Board, line: int, colour: int, count: int | None = None) -> None:
    board.line_colour[line] = colour
    board.line_count[line] = line + 1 if count is None else count
    board.recompute_allowed()


def finish_offer(game: ClassicGame) -> None:
    """Empty the table by sending every remaining group to the floor, then the lid."""
    while game.phase == "offer":
        move = next(m for m in game.legal_moves() if m.line == FLOOR)
        game.play(move)


# §1 Components --------------------------------------------------------------


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_s1_factory_count_by_player_count(players: int, factories: int) -> None:
    game = ClassicGame(players)
    assert len(game.factories) == factories
    game.chance(random.Random(1))
    assert [sum(f) for f in game.factories] == [4] * factories


def test_s1_hundred_tiles_twenty_per_colour() -> None:
    assert ClassicGame(2).bag == [20, 20, 20, 20, 20]
    assert COLOURS == ("blue", "yellow", "red", "black", "white")


# §2 Player board ------------------------------------------------------------


def test_s2_coloured_wall_pattern() -> None:
    game = ClassicGame(2)
    row0 = [COLOURS[game.wall_colour(0, c)] for c in range(5)]
    row1 = [COLOURS[game.wall_colour(1, c)] for c in range(5)]
    assert row0 == ["blue", "yellow", "red", "black", "white"]
    assert row1 == ["white", "blue", "yellow", "red", "black"]
    assert ClassicGame(2, grey=True).wall_colour(0, 0) is None


# §3 Set-up ------------------------------------------------------------------


def test_s3_first_seat_moves_first_and_marker_starts_in_centre() -> None:
    game = dealt(3, "BBYR", first=2)
    assert game.to_move() == 2
    assert game.center_marker
    assert all(m.seat == 2 for m in game.legal_moves())


def test_s3_play_goes_clockwise() -> None:
    game = dealt(3, "BBYR", "KKKK", "WWWW", first=2)
    game.play(Take(2, 0, B, 1))
    assert game.to_move() == 0
    game.play(Take(0, 1, K, 3))
    assert game.to_move() == 1


# §4 Factory offer -----------------------------------------------------------


def test_s4_1_take_from_factory_sends_rest_to_centre() -> None:
    game = dealt(2, "BBYR", "KKKK")
    game.play(Take(0, 0, B, 1))
    board = game.boards[0]
    assert (board.line_colour[1], board.line_count[1]) == (B, 2)
    assert game.factories[0] == [0] * 5
    assert game.center[Y] == 1 and game.center[R] == 1
    assert board.floor == []


def test_s4_2_first_from_centre_takes_marker_to_floor() -> None:
    game = dealt(2, "BBYR", "KKYR")
    game.play(Take(0, 0, B, 1))
    game.play(Take(1, CENTER, Y, 0))
    assert game.boards[1].floor == [MARKER]
    assert game.marker_holder == 1 and not game.center_marker
    game.play(Take(0, 1, K, 2))
    game.play(Take(1, CENTER, R, 4))
    assert game.boards[1].floor == [MARKER]  # only the first centre take has it
    assert game.boards[1].line_count[4] == 2


def test_s4_3_surplus_goes_to_floor() -> None:
    game = dealt(2, "BBBY")
    game.play(Take(0, 0, B, 0))
    assert game.boards[0].line_count[0] == 1
    assert game.boards[0].floor == [B, B]


def test_s4_3_line_holding_another_colour_is_refused() -> None:
    game = dealt(2, "BBYR")
    fill_line(game.boards[0], 2, B, 1)
    with pytest.raises(IllegalMoveError, match="line 2 already holds blue") as info:
        game.play(Take(0, 0, Y, 2))
    assert info.value.code == "line_holds_other"


def test_s4_3_full_line_is_refused() -> None:
    game = dealt(2, "BBYR")
    fill_line(game.boards[0], 1, B)
    with pytest.raises(IllegalMoveError, match="line 1 is full"):
        game.play(Take(0, 0, B, 1))


def test_s4_3_colour_already_on_wall_row_is_refused() -> None:
    game = dealt(2, "BBRR")
    put_wall(game.boards[0], 1, 3)  # row 1, column 3 is red
    with pytest.raises(IllegalMoveError, match="wall row 1 already has red"):
        game.play(Take(0, 0, R, 1))
    assert Take(0, 0, R, 1) not in game.legal_moves()
    assert Take(0, 0, R, 2) in game.legal_moves()


def test_s4_3_floor_is_always_legal() -> None:
    game = dealt(2, "BBBB")
    board = game.boards[0]
    for line in range(5):
        fill_line(board, line, Y)
    assert game.legal_moves() == [Take(0, 0, B, FLOOR)]


def test_illegal_move_changes_nothing() -> None:
    game = dealt(2, "BBYR")
    fill_line(game.boards[0], 2, B, 1)
    before = game.events(), game.factories, game.boards[0].line_count[:]
    with pytest.raises(IllegalMoveError):
        game.play(Take(0, 0, Y, 2))
    assert (game.events(), game.factories, game.boards[0].line_count) == before


def test_move_out_of_turn_is_refused() -> None:
    game = dealt(2, "BBYR", first=0)
    with pytest.raises(IllegalMoveError, match="turn") as info:
        game.play(Take(1, 0, B, 1))
    assert info.value.code == "not_your_turn"


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (Take(0, 7, B, 1), "no factory 7"),
        (Take(0, 0, 9, 1), "no colour 9"),
        (Take(0, 0, B, 6), "no line 6"),
        (Take(5, 0, B, 1), "no seat 5"),
    ],
)
def test_malformed_move_is_invalid(move: Take, message: str) -> None:
    game = dealt(2, "BBYR")
    with pytest.raises(InvalidMoveError, match=message):
        game.play(move)


def test_take_from_empty_factory_or_missing_colour_is_refused() -> None:
    game = dealt(2, "BBYR", "KKWW")
    with pytest.raises(IllegalMoveError, match="factory 2 is empty"):
        game.play(Take(0, 2, B, 1))
    with pytest.raises(IllegalMoveError, match="factory 1 has no blue"):
        game.play(Take(0, 1, B, 1))
    with pytest.raises(IllegalMoveError, match="the centre is empty"):
        game.play(Take(0, CENTER, B, 1))


def test_s4_4_full_floor_sends_surplus_to_lid() -> None:
    game = dealt(2, "BBBB", "YYYY")
    game.boards[0].floor = [R, R, R, R, R]
    game.play(Take(0, 0, B, FLOOR))
    assert game.boards[0].floor == [R] * 5 + [B, B]
    assert game.lid[B] == 2


def test_s4_4_marker_onto_a_full_floor_costs_nothing_but_starts_next_round() -> None:
    game = dealt(2, "BBYY", "KKKK")
    game.play(Take(0, 0, B, 1))  # Y Y to the centre
    board = game.boards[1]
    board.floor = [R] * 7
    game.play(Take(1, CENTER, Y, 1))
    assert board.floor == [R] * 7  # no space for the marker
    assert game.marker_holder == 1
    game.play(Take(0, 1, K, 3))
    assert game.phase == "deal"
    # floor: 7 tiles = -14, clamped at 0; line 1 (2 yellow) not full... nothing scored
    assert board.score == 0
    assert game.round_starter == 1
    game.chance(random.Random(3))
    assert game.to_move() == 1


def test_s4_4_marker_takes_leftmost_free_space_before_the_surplus() -> None:
    game = dealt(2, "BBYY", "KKKK")
    game.play(Take(0, 0, B, 1))
    game.play(Take(1, CENTER, Y, 0))
    assert game.boards[1].floor == [MARKER, Y]


def test_s4_5_phase_ends_when_table_is_empty() -> None:
    game = dealt(2, "BBYR")
    game.play(Take(0, 0, B, 1))
    assert game.phase == "offer"
    game.play(Take(1, CENTER, Y, 0))
    assert game.phase == "offer"
    game.play(Take(0, CENTER, R, 0))
    assert game.phase in ("deal", "over")
    # seat 0: red line 0 -> (0, 2) 1 point; blue line 1 -> (1, 1) 1 point
    # seat 1: yellow line 0 -> 1 point, marker -1
    assert game.round_scores == [[2, 0]]


# §5 Wall tiling --------------------------------------------------------------


def test_s5_full_line_moves_one_tile_to_wall_rest_to_lid_partial_lines_stay() -> None:
    game = dealt(2, "RRRY", "KKKK")
    game.play(Take(0, 0, R, 2))  # line 2 full: 3 red; yellow to centre
    game.play(Take(1, 1, K, 4))  # line 4: 4 of 5
    game.play(Take(0, CENTER, Y, 0))  # marker + yellow 0
    board0, board1 = game.boards
    assert board0.wall[2][(R + 2) % 5] == R
    assert board0.line_count[2] == 0
    assert game.lid[R] == 2
    assert (board1.line_colour[4], board1.line_count[4]) == (K, 4)
    # seat 0: red row 2 (1) + yellow row 0 (1) = 2, marker -1 -> 1
    assert board0.score == 1
    assert board0.floor == []
    assert game.round_starter == 0


def test_s5_3_floor_penalty_clamps_at_zero() -> None:
    game = dealt(2, "BBBB", "YYYY")
    game.boards[0].score = 3
    game.boards[0].floor = [R, R]
    game.play(Take(0, 0, B, FLOOR))  # floor: R R B B B B = -1-1-2-2-2-3 = -11
    game.play(Take(1, 1, Y, 4))
    assert game.boards[0].score == 0
    floor_changes = [c for c in game.score_log if c.kind == "floor"]
    assert floor_changes[0].points == -3  # the actual change after the clamp


def test_s5_floor_tiles_go_to_lid_marker_returns() -> None:
    game = dealt(2, "BBYY", "KKKK")
    game.play(Take(0, 0, B, FLOOR))
    game.play(Take(1, CENTER, Y, FLOOR))
    game.play(Take(0, 1, K, FLOOR))
    assert game.lid == [2, 2, 0, 4, 0]
    assert game.center_marker
    assert game.boards[1].score == 0


# §6 Scoring -------------------------------------------------------------------


def test_s6_lone_tile_scores_one() -> None:
    board = Board()
    assert board.place_on_wall(2, 2, R) == 1


def test_s6_horizontal_run_scores_its_length() -> None:
    board = Board()
    put_wall(board, 0, 0)
    put_wall(board, 0, 1)
    assert board.place_on_wall(0, 2, R) == 3
    put_wall(board, 0, 4)
    # 0..4 now all filled except 3; placing 3 joins a run of 5
    assert board.place_on_wall(0, 3, K) == 5


def test_s6_tile_scoring_both_row_and_column_counts_itself_twice() -> None:
    board = Board()
    put_wall(board, 2, 0)
    put_wall(board, 2, 1)  # left of (2, 2)
    put_wall(board, 0, 2)  # not adjacent: row 1 column 2 empty
    put_wall(board, 3, 2)  # below (2, 2)
    put_wall(board, 4, 2)
    # horizontal run: (2,0) (2,1) (2,2) = 3; vertical run: (2,2) (3,2) (4,2) = 3
    assert board.place_on_wall(2, 2, (2 - 2) % 5) == 6


def test_s6_vertical_only_run() -> None:
    board = Board()
    put_wall(board, 0, 4)
    assert board.place_on_wall(1, 4, 3) == 2


def test_s6_tiles_placed_top_row_first_count_this_rounds_tiles() -> None:
    game = dealt(2, "BBBB", "WWYY")
    board = game.boards[0]
    fill_line(board, 0, B)  # blue goes to (0, 0)
    # white in row 1 goes to column 0, under the blue
    game.play(Take(0, 1, W, 1))  # completes line 1 (2 white)
    game.play(Take(1, 0, B, 4))
    game.play(Take(0, CENTER, Y, 3))  # marker -1
    # blue (0,0): 1; white (1,0): vertical run of 2 = 2; marker -1 -> 2
    wall_points = [c.points for c in game.score_log if c.kind == "wall" and c.seat == 0]
    assert wall_points == [1, 2]
    assert board.score == 2


# §7 Next round, end, final scoring -------------------------------------------


def test_s7_nobody_takes_marker_same_player_starts_again() -> None:
    game = dealt(2, "BBBB", "YYYY", first=1)
    game.play(Take(1, 0, B, 3))
    game.play(Take(0, 1, Y, 3))
    assert game.phase == "deal"
    assert game.round_starter == 1
    game.chance(random.Random(0))
    assert game.to_move() == 1


def test_s7_lid_poured_only_when_a_tile_must_be_drawn() -> None:
    game = dealt(2, "BBBB", "YYYY")
    game.play(Take(0, 0, B, FLOOR))
    game.play(Take(1, 1, Y, FLOOR))
    assert game.phase == "deal"
    assert game.lid == [4, 4, 0, 0, 0]
    game.bag = [1, 0, 2, 0, 0]  # 3 tiles left in the bag
    game.apply_event(
        {
            "deal": [
                ["red", "blue", "red", "yellow"],  # bag empty after 3: lid poured
                ["blue", "yellow", "blue", "blue"],
                ["yellow", "yellow", "blue"],  # then bag and lid are both empty
                [],
                [],
            ]
        }
    )
    assert game.bag == [0, 0, 0, 0, 0] and game.lid == [0] * 5
    assert [sum(f) for f in game.factories] == [4, 4, 3, 0, 0]


def test_s7_deal_refuses_a_tile_the_bag_cannot_hold() -> None:
    game = dealt(2, "BBBB", "YYYY")
    game.play(Take(0, 0, B, FLOOR))
    game.play(Take(1, 1, Y, FLOOR))
    game.bag = [1, 0, 2, 0, 0]
    # The lid may only be poured once the bag is empty: a yellow first is impossible
    with pytest.raises(IllegalMoveError, match="factory 0: no yellow"):
        game.apply_event({"deal": [["yellow", "red", "red", "blue"]] + [[]] * 4})
    assert game.bag == [1, 0, 2, 0, 0] and game.phase == "deal"


def test_s7_short_deal_while_tiles_remain_is_refused() -> None:
    game = ClassicGame(2)
    with pytest.raises(IllegalMoveError, match="factory 0 is dealt 3 tiles"):
        game.apply_event({"deal": [["blue", "blue", "red"]] + [["red"] * 4] * 4})


def test_s7_factories_partly_empty_round_is_played() -> None:
    game = dealt(2, "BBRR", "Y")
    assert [sum(f) for f in game.factories] == [4, 1, 0, 0, 0]
    game.play(Take(0, 1, Y, 0))
    game.play(Take(1, 0, B, 1))
    game.play(Take(0, CENTER, R, 1))
    assert game.round_scores == [[1, 1]]  # yellow line 0 (+1) -1 marker; blue line 1


def test_s7_a_game_ends_when_no_tile_can_be_dealt() -> None:
    game = dealt(2, "B")  # the bag held this one tile; the lid is empty
    game.play(Take(0, 0, B, 0))  # tiled to the wall: nothing reaches the lid
    assert game.is_over()
    assert game.events()[-1] == {"seat": 0, "from": 0, "colour": "blue", "to": 0}
    assert game.outcome().scores == (1, 0)
    assert len(game.round_scores) == 1


def test_s7_b_three_rounds_without_wall_tiles_end_the_game() -> None:
    game = ClassicGame(2)
    rng = random.Random(5)
    rounds = 0
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            rounds += 1
        else:
            game.play(next(m for m in game.legal_moves() if m.line == FLOOR))
    assert rounds == 3
    assert all(not any(row) or max(row) < 0 for b in game.boards for row in b.wall)
    assert len(game.round_scores) == 3


def test_s7_game_ends_after_a_complete_row_with_end_bonuses() -> None:
    game = dealt(2, "KKKK", "YYYY")
    board = game.boards[0]
    # Seat 0: row 0 has 4 tiles (columns 0-3); column 4 of row 0 is white.
    for column in range(4):
        put_wall(board, 0, column)
    # Column 0 holds blue row 0 already; add rows 1-4 column 0 to complete it.
    for row in range(1, 5):
        put_wall(board, row, 0)
    fill_line(board, 0, W)  # white row 0 -> column 4 completes row 0
    game.play(Take(0, 0, K, 4))  # 4 black on line 4 (not full)
    game.play(Take(1, 1, Y, 3))  # 4 yellow on line 3 (full) -> 1 point
    assert game.is_over()
    # white at (0,4): horizontal run of 5 -> 5 points; no vertical neighbour.
    # bonuses: 1 row +2, 1 column (column 0) +7, no colour complete.
    assert game.round_scores == [[5, 1]]
    assert game.outcome().scores == (5 + 2 + 7, 1)
    bonus = [(c.kind, c.points) for c in game.score_log if c.kind != "wall"]
    assert bonus == [("row", 2), ("column", 7)]


def test_s7_colour_bonus_ten_per_complete_colour() -> None:
    board = Board()
    for row in range(5):
        put_wall(board, row, row)  # the diagonal is all blue
    assert board.complete_colours() == 1
    game = ClassicGame(2)
    game.boards[0] = board
    game._finish()
    assert game.outcome().scores == (10, 0)


def test_s7_tie_broken_by_complete_rows_then_shared() -> None:
    game = ClassicGame(3)
    for seat, rows in enumerate((1, 0, 1)):
        for row in range(rows):
            for column in range(5):
                put_wall(game.boards[seat], row, column)
    game.boards[0].score = 10  # +2 row bonus -> 12
    game.boards[1].score = 12  # 0 rows -> 12
    game.boards[2].score = 10  # +2 -> 12
    game._finish()
    outcome = game.outcome()
    assert outcome.scores == (12, 12, 12)
    assert outcome.ranks == (1, 3, 1)
    assert outcome.winners == (0, 2)


# §8 Grey wall -----------------------------------------------------------------


def test_s8_grey_wall_column_is_a_decision() -> None:
    game = dealt(2, "RRRR", "YYYY", grey=True)
    game.play(Take(0, 0, R, 2))  # line 2 full, 1 red to floor
    game.play(Take(1, 1, Y, 0))  # line 0 full, 3 yellow to floor
    assert game.phase == "tiling"
    assert game.to_move() == 0
    assert game.legal_moves() == [WallPlacement(0, 2, c) for c in range(5)]
    game.play(WallPlacement(0, 2, 4))
    assert game.boards[0].wall[2][4] == R
    assert game.to_move() == 1
    game.play(WallPlacement(1, 0, 0))
    assert game.phase == "deal"
    assert game.round_scores == [[0, 0]]  # 1 - 1 floor; 1 - 4 -> 0


def test_s8_grey_wall_column_holding_the_colour_is_refused() -> None:
    game = dealt(2, "RRRR", "YYYY", grey=True)
    put_wall(game.boards[0], 0, 1, R)
    game.play(Take(0, 0, R, 2))
    game.play(Take(1, 1, Y, FLOOR))
    with pytest.raises(IllegalMoveError, match="wall column 1 already has red"):
        game.play(WallPlacement(0, 2, 1))
    assert [m.column for m in game.legal_moves()] == [0, 2, 3, 4]


def test_s8_grey_line_with_no_legal_column_goes_to_floor_without_event() -> None:
    game = dealt(2, "RRRB", "YYYY", grey=True)
    board = game.boards[0]
    # Row 1: columns 0-2 filled (blue, yellow, white); red sits in columns 3 and 4.
    put_wall(board, 1, 0, B)
    put_wall(board, 1, 1, Y)
    put_wall(board, 1, 2, W)
    put_wall(board, 0, 3, R)
    put_wall(board, 2, 4, R)
    game.play(Take(0, 0, R, 1))  # 2 red on line 1, 1 red to the floor, blue to centre
    game.play(Take(1, 1, Y, 0))
    game.play(Take(0, CENTER, B, 0))  # marker + blue line 0
    assert game.phase == "tiling"
    assert game.pending_wall == (0, 0)
    # Column 0 has blue (row 1), column 3 is filled: blue may go to 1, 2 or 4.
    assert [m.column for m in game.legal_moves()] == [1, 2, 4]
    game.play(WallPlacement(0, 0, 1))
    # Blue (0, 1) touches yellow (1, 1) below: vertical run of 2 -> 2 points.
    # Line 1 (red) has no legal column: columns 3 and 4 already hold red, so its
    # 2 red go to the floor, now R, M, R, R: -(1 + 1 + 2 + 2) = -6.
    assert game.phase == "tiling" and game.pending_wall == (1, 0)
    events = [e for e in game.events() if "wall" in e]
    assert events == [{"seat": 0, "wall": {"line": 0, "column": 1}}]
    to_floor = [e for e in game.log if e["type"] == "to_floor"]
    assert to_floor == [
        {
            "type": "to_floor",
            "seat": 0,
            "line": 1,
            "colour": R,
            "count": 2,
            "to_floor": 2,
            "to_lid": 0,
        }
    ]
    assert board.floor == []
    assert board.score == 0  # 2 - 6, clamped at 0
    assert [c.points for c in game.score_log if c.seat == 0] == [2, -2]


def test_s8_grey_column_checked_at_the_moment_the_line_is_tiled() -> None:
    game = dealt(2, "RRRR", "KKRK", grey=True)
    board = game.boards[0]
    fill_line(board, 0, R)
    game.play(Take(0, 0, R, 3))  # line 3 holds 4 red (full)
    game.play(Take(1, 1, K, 4))
    game.play(Take(0, CENTER, R, FLOOR))
    game.play(WallPlacement(0, 0, 2))
    # red now in column 2: line 3 may not use it
    assert [m.column for m in game.legal_moves()] == [0, 1, 3, 4]


def test_s8_grey_wall_row_rule_still_holds_in_offer_phase() -> None:
    game = dealt(2, "RRBB", grey=True)
    put_wall(game.boards[0], 3, 0, R)
    with pytest.raises(IllegalMoveError, match="wall row 3 already has red"):
        game.play(Take(0, 0, R, 3))


def test_s8_wall_placement_out_of_order_is_refused() -> None:
    game = dealt(2, "RRRR", "YYYY", grey=True)
    game.play(Take(0, 0, R, 2))
    game.play(Take(1, 1, Y, 0))
    with pytest.raises(IllegalMoveError, match="seat 0 must tile line 2 first"):
        game.play(WallPlacement(1, 0, 0))


# §9 Information, randomness -----------------------------------------------------


def test_s9_engine_never_touches_the_global_random_generator() -> None:
    random.seed(1234)
    state = random.getstate()
    from games.engine.record import random_game

    random_game("classic", 3, 99)
    assert random.getstate() == state


def test_same_rng_same_deal() -> None:
    a, b = ClassicGame(4), ClassicGame(4)
    assert a.chance(random.Random(8)) == b.chance(random.Random(8))


def test_random_move_draws_like_choosing_from_legal_moves() -> None:
    rng = random.Random(2)
    for seed in range(30):
        game = ClassicGame(3, grey=seed % 2 == 1)
        while not game.is_over():
            if game.needs_chance():
                game.chance(rng)
                continue
            state = random.Random(seed * 1000 + len(game.events()))
            copy = random.Random()
            copy.setstate(state.getstate())
            moves = game.legal_moves()
            expected = moves[copy.randrange(len(moves))]
            assert game.random_move(state) == expected
            game.push(expected)


def test_copy_is_independent() -> None:
    game = dealt(2, "BBYR", "KKKK")
    other = game.copy()
    other.play(Take(0, 0, B, 1))
    assert game.factories[0][B] == 2 and game.boards[0].line_count[1] == 0
    assert game.events() != other.events()
