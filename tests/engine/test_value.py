"""The learned classic board value (games/engine/value.py) and its weights."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import bots, value
from games.engine.record import new_game

pytestmark = pytest.mark.once

EMPTY = -1


def wall_from(rows: list[str]) -> list[list[int]]:
    """A wall from five strings of five characters: a digit is a tile's colour."""
    return [[int(c) if c.isdigit() else EMPTY for c in row] for row in rows]


def named(row: list[float]) -> dict[str, float]:
    return dict(zip(value.FEATURES, row, strict=True))


def test_the_features_count_rows_columns_colours_and_lines() -> None:
    wall = wall_from(
        [
            "01234",
            "4....",
            "3....",
            "2....",
            ".....",
        ]
    )
    row = named(
        value.features(
            wall,
            [1, 1, 2, 0, 3],
            [2, 0, 1, -1, 4],
            starts_next=True,
            players=3,
            grey=False,
            others_fullest=2,
            round_number=3,
        )
    )
    assert row["rows_5"] == 1  # the top row is complete
    assert row["rows_1"] == 3 and row["rows_2"] == 0
    assert row["columns_4"] == 1  # the first column holds 4 tiles
    assert row["columns_1"] == 4
    # colours: 0 once, 1 once, 2 twice, 3 twice, 4 twice
    assert row["colours_1"] == 2 and row["colours_2"] == 3
    # pattern line 0 is full (tiled), 1 holds 1 of 2, 2 holds 2 of 3, 4 holds 3 of 5
    assert row["lines_partial"] == 3
    assert row["line_tiles"] == 6
    assert row["line_share"] == pytest.approx(1 / 2 + 2 / 3 + 3 / 5)
    assert row["starts_next"] == 1 and row["players_3"] == 1 and row["grey"] == 0
    assert row["own_fullest"] == 5 and row["others_fullest"] == 2
    # the space under the first column's four tiles scores 5: 4 points of adjacency
    assert row["adjacency"] >= 4


def test_the_weights_file_fits_the_features() -> None:
    data = json.loads(value.CLASSIC.file.read_text())
    assert data["features"] == list(value.FEATURES)
    assert len(value.CLASSIC.weights()) == value.STAGES
    assert all(len(stage) == len(value.FEATURES) for stage in value.CLASSIC.weights())


def test_an_early_board_expects_more_points_than_a_late_one() -> None:
    """After the first round a seat has most of its points ahead of it; with a
    row one tile from complete on some board, the game ends in a round or so."""
    early = wall_from(["0....", ".0...", "..0..", ".....", "....."])
    late = wall_from(["0123.", "4012.", "340.2", "23...", "1...."])
    common = dict(starts_next=False, players=2, grey=False)
    early_gain = value.future_gain(
        value.features(
            early, [0] * 5, [-1] * 5, others_fullest=1, round_number=1, **common
        ),
        fullest=1,
    )
    late_gain = value.future_gain(
        value.features(
            late, [0] * 5, [-1] * 5, others_fullest=4, round_number=5, **common
        ),
        fullest=4,
    )
    assert early_gain > 30
    assert early_gain > late_gain + 15


def test_a_pavilion_position_is_valued_after_the_plan_of_the_hand() -> None:
    """Round 1's taking: 5 factories of 4 tiles for two seats, an empty board."""
    game = new_game("pavilion", 2)
    while game.needs_chance():
        game.chance(random.Random(5))
    learned = bots.pavilion_row(game, 0)
    assert learned is not None
    row, stage = learned
    features = dict(zip(value.PAVILION_FEATURES, row, strict=True))
    assert stage == value.pavilion_stage(1, taking=True) == 1
    assert features["taking"] == 1
    assert features["table_per_seat"] == 20 / 2
    assert features["filled"] == 0 and features["planned_points"] == 0
    assert features["stars_complete"] == 0 and features["kept"] == 0
    assert value.pavilion_future_gain(row, stage) > 40


def test_a_pavilion_board_with_a_complete_star_counts_its_bonus() -> None:
    filled = 63 << 6  # star 1 complete
    colours = [0, 1 << 2, 0, 0, 0, 0, 0]
    row = dict(
        zip(
            value.PAVILION_FEATURES,
            value.pavilion_features(filled, colours, 2, players=2, grey=False),
            strict=False,
        )
    )
    assert row["stars_complete"] == 1 and row["filled"] == 6 and row["kept"] == 2
    assert row["star_bonus_complete"] == value.star_bonus(False, 1, colours[1])
