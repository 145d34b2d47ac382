"""What a board is worth beyond its score (issue #27 items 1-2): linear values
learned from self-play, for both families (``docs/computer.md``).

A seat's final score is its score now plus what the rest of the game brings:
the tiles it will place, their adjacency, the end bonuses, minus the floor or
the discards. This module predicts that future gain from features of the
seat's board, one linear model per stage of the game:

- Azul, at a round's end (the walls tiled, the floors charged): how full each
  row, column and colour is, the points its empty spaces would score now, the
  pattern lines carried into the next round, the first-player marker; a stage
  is how full the fullest row of any board is, which says how near the end is.
- Summer Pavilion, anywhere in a round: the board after the greedy plan of the
  hand (``bots.pavilion_row``) — stars and number sets complete and in part,
  the points the empty spaces would score, the tiles kept — with the plan's
  points and discards and the tiles left on the table; a stage is a round and
  its part (taking; placing and the round's end).

The strong level searches on these values (``bots.py``), and the evaluator
values a round's end with them (``finals``, ``evaluate.py``).

Why linear and why here: the strong level's search evaluates thousands of
leaves a decision, on one core, in pure Python; a dot product over twenty to
thirty features costs a few microseconds. The weights are fitted by
``tools/train_value.py`` (ridge regression on self-play: its command lines and
data are in ``bench/README.md``) and stored beside this module as
``value_classic.json`` and ``value_pavilion.json``, each with its stages'
held-out error; the same data and seed write the same file. Nothing here reads
the bag's order or anything not on the table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .classic import ClassicGame, wall_points
from .common import Game
from .pavilion import (
    NUM_STARS,
    NUMBER_MASKS_COLOURED,
    NUMBER_MASKS_GREY,
    POPCOUNT,
    ROUNDS,
    RUN,
    SINGLE_COLOUR,
    SIX_COLOUR_BONUS,
    STAR_BONUS_BY_COLOUR,
    STAR_COLOUR,
    PavilionGame,
)
from .variants import CLASSIC_FAMILY, PAVILION_FAMILY

FEATURES = (
    "bias",
    "rows_1",
    "rows_2",
    "rows_3",
    "rows_4",
    "rows_5",
    "columns_1",
    "columns_2",
    "columns_3",
    "columns_4",
    "columns_5",
    "colours_1",
    "colours_2",
    "colours_3",
    "colours_4",
    "colours_5",
    "adjacency",
    "open_neighbours",
    "line_share",
    "lines_partial",
    "line_tiles",
    "line_toward_full_row",
    "starts_next",
    "players_3",
    "players_4",
    "grey",
    "own_fullest",
    "others_fullest",
    "round",
)
"""The features of one seat's board, in the order of the weights."""

STAGES = 5
"""Models by the fullest wall row of any board: 0-1, 2, 3, 4 tiles (index 1-4)."""


def features(
    wall: Sequence[Sequence[int]],
    line_count: Sequence[int],
    line_colour: Sequence[int],
    *,
    starts_next: bool,
    players: int,
    grey: bool,
    others_fullest: int,
    round_number: int,
) -> list[float]:
    """The features of one seat's board at a round's end (``FEATURES``'s order).

    ``wall`` is the seat's wall after this round's tiling, ``line_count`` and
    ``line_colour`` its pattern lines left after it (the full ones emptied).
    """
    rows = [0] * 6
    columns = [0] * 6
    colours = [0] * 5
    fills = []
    for row in wall:
        filled = 0
        for colour in row:
            if colour >= 0:
                filled += 1
                colours[colour] += 1
        rows[filled] += 1
        fills.append(filled)
    for column in range(5):
        columns[sum(1 for r in range(5) if wall[r][column] >= 0)] += 1
    colour_hist = [0] * 6
    for count in colours:
        colour_hist[count] += 1
    adjacency = 0
    open_neighbours = 0
    for r in range(5):
        row = wall[r]
        for c in range(5):
            if row[c] >= 0:
                continue
            points = wall_points(wall, r, c)
            if points > 1:
                adjacency += points - 1
                open_neighbours += 1
    line_share = 0.0
    partial = 0
    tiles = 0
    toward = 0.0
    for line in range(5):
        count = line_count[line]
        if 0 < count <= line and line_colour[line] >= 0:
            line_share += count / (line + 1)
            partial += 1
            tiles += count
            toward += fills[line] / 4
    return [
        1.0,
        *(float(rows[k]) for k in range(1, 6)),
        *(float(columns[k]) for k in range(1, 6)),
        *(float(colour_hist[k]) for k in range(1, 6)),
        float(adjacency),
        float(open_neighbours),
        line_share,
        float(partial),
        float(tiles),
        toward,
        1.0 if starts_next else 0.0,
        1.0 if players == 3 else 0.0,
        1.0 if players == 4 else 0.0,
        1.0 if grey else 0.0,
        float(max(fills)),
        float(others_fullest),
        float(round_number),
    ]


def stage(fullest: int) -> int:
    """The model of a position whose fullest wall row (any board) holds ``fullest``."""
    return max(1, min(4, fullest))


@dataclass(frozen=True)
class Model:
    """One family's fitted weights: a linear model per stage of the game."""

    file: Path
    features: tuple[str, ...]
    stages: int

    @cache  # noqa: B019 - two models, alive as long as the process
    def _data(self) -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
        data = json.loads(self.file.read_text())
        if tuple(data["features"]) != self.features:
            raise ValueError(f"{self.file.name} was fitted on other features")
        rows = tuple(tuple(float(w) for w in row) for row in data["stages"])
        if len(rows) != self.stages or len(data["rmse"]) != self.stages:
            raise ValueError(f"{self.file.name} has {len(rows)} stages")
        return rows, tuple(float(e) for e in data["rmse"])

    def weights(self) -> tuple[tuple[float, ...], ...]:
        """The fitted weights, one row per stage, read once."""
        return self._data()[0]

    def spread(self, stage: int) -> float:
        """How far off a prediction at ``stage`` typically is: the root mean
        square error on the samples held out of the fit."""
        return self._data()[1][stage]

    def gain(self, feature_row: Sequence[float], stage: int) -> float:
        """The points a seat is expected to add to its score by the game's end."""
        w = self.weights()[stage]
        return sum(a * b for a, b in zip(w, feature_row, strict=True))


CLASSIC = Model(Path(__file__).with_name("value_classic.json"), FEATURES, STAGES)


def future_gain(feature_row: Sequence[float], fullest: int) -> float:
    """What a classic seat is expected to add to its score by the game's end."""
    return CLASSIC.gain(feature_row, stage(fullest))


# ---------------------------------------------------------------- Summer Pavilion

PAVILION_FEATURES = (
    "bias",
    "stars_complete",
    "star_bonus_complete",
    "star_bonus_1",
    "star_bonus_2",
    "star_bonus_3",
    "star_bonus_4",
    "star_bonus_5",
    "numbers_complete",
    "number_bonus_share",
    "number_bonus_share_cubed",
    "run_potential",
    "filled",
    "kept",
    "players_3",
    "players_4",
    "grey",
    "planned_points",
    "planned_overflow",
    "table_per_seat",
    "taking",
)
"""The features of one seat's Summer Pavilion position: its board after the
greedy plan of its hand (``bots.pavilion_row``) — at a round's end, its board —
then the plan's points, the tiles it would have to discard, the tiles still on
the table per seat and whether the round's taking goes on."""

PAVILION_STAGES = 2 * ROUNDS
"""One model per round and part of it (taking, or placing and the round's end)."""


def pavilion_stage(round_number: int, taking: bool) -> int:
    """The model of a position in round ``round_number`` (1-6)."""
    return 2 * (round_number - 1) + (1 if taking else 0)


def pavilion_features(
    filled: int,
    star_colours: Sequence[int],
    kept: int,
    *,
    players: int,
    grey: bool,
) -> list[float]:
    """The board features of one seat (``filled``: its filled spaces as a
    bitmask; ``star_colours``: the colours on each star; ``kept``: the tiles it
    carries into the next round), the first of ``PAVILION_FEATURES``."""
    complete = 0
    complete_bonus = 0.0
    partial = [0.0] * 6
    run = 0
    for star in range(NUM_STARS):
        ring = filled >> (star * 6) & 63
        bonus = star_bonus(grey, star, star_colours[star])
        count = POPCOUNT[ring]
        if count == 6:
            complete += 1
            complete_bonus += bonus
            continue
        partial[count] += bonus
        for pos in range(6):
            if not ring >> pos & 1:
                run += RUN[ring | 1 << pos][pos]
    numbers = 0
    share = 0.0
    cubed = 0.0
    for mask, bonus in NUMBER_MASKS_GREY if grey else NUMBER_MASKS_COLOURED:
        have = filled & mask
        if have == mask:
            numbers += 1
            continue
        fraction = bin(have).count("1") / bin(mask).count("1")
        share += bonus * fraction
        cubed += bonus * fraction**3
    return [
        1.0,
        float(complete),
        complete_bonus,
        *partial[1:],
        float(numbers),
        share,
        cubed,
        float(run),
        float(bin(filled).count("1")),
        float(kept),
        1.0 if players == 3 else 0.0,
        1.0 if players == 4 else 0.0,
        1.0 if grey else 0.0,
    ]


def star_bonus(grey: bool, star: int, colours: int) -> float:
    """The end bonus a complete star earns (or may earn, while incomplete: on the
    grey side its colour is still open while it holds fewer than two colours)."""
    if not grey:
        return float(
            SIX_COLOUR_BONUS if star == 0 else STAR_BONUS_BY_COLOUR[STAR_COLOUR[star]]
        )
    if POPCOUNT[colours] >= 2 or not colours:
        return float(SIX_COLOUR_BONUS)
    if SINGLE_COLOUR[colours]:
        return float(STAR_BONUS_BY_COLOUR[colours.bit_length() - 1]) * 0.8
    return float(SIX_COLOUR_BONUS)


PAVILION = Model(
    Path(__file__).with_name("value_pavilion.json"), PAVILION_FEATURES, PAVILION_STAGES
)


def pavilion_future_gain(feature_row: Sequence[float], stage: int) -> float:
    """What a Summer Pavilion seat is expected to add to its score by the game's
    end (``pavilion_stage``)."""
    return PAVILION.gain(feature_row, stage)


# ---------------------------------------------------------------- a round's end


def classic_round_end(game: ClassicGame) -> list[tuple[list[float], int]]:
    """Each seat's features (``FEATURES``) and stage at a round's end (a deal is
    due after the first round: the walls tiled, the floors charged)."""
    fills = [max(sum(1 for c in row if c >= 0) for row in b.wall) for b in game.boards]
    rows = []
    for seat, board in enumerate(game.boards):
        row = features(
            board.wall,
            board.line_count,
            board.line_colour,
            starts_next=seat == game.round_starter,
            players=game.players,
            grey=game.grey,
            others_fullest=max(f for s, f in enumerate(fills) if s != seat),
            round_number=game.round - 1,
        )
        rows.append((row, stage(max(fills))))
    return rows


def pavilion_round_end(
    game: PavilionGame, seat: int, ended: int
) -> tuple[list[float], int]:
    """``seat``'s features (``PAVILION_FEATURES``) and stage once it is done
    with round ``ended`` (1-5): passed, or the next round's deal due."""
    kept = sum(game.hands[seat]) + sum(game.corners[seat])
    board = pavilion_features(
        game.filled[seat],
        game.star_colours[seat],
        kept,
        players=game.players,
        grey=game.grey,
    )
    return board + [0.0, 0.0, 0.0, 0.0], pavilion_stage(ended, False)


def finals(game: Game) -> tuple[list[float], float]:
    """Each seat's expected final score at a round's end — its score plus the
    future gain the learned value predicts — and how far one seat's prediction
    there is typically off (``Model.spread``); a finished game's own scores and
    no spread."""
    if game.is_over():
        outcome = game.outcome()
        assert outcome is not None
        return [float(s) for s in outcome.scores], 0.0
    return _FINALS[game.family.name](game)


def _classic_finals(game: ClassicGame) -> tuple[list[float], float]:
    rows = classic_round_end(game)
    values = [
        board.score + CLASSIC.gain(row, at)
        for board, (row, at) in zip(game.boards, rows, strict=True)
    ]
    return values, CLASSIC.spread(rows[0][1])


def _pavilion_finals(game: PavilionGame) -> tuple[list[float], float]:
    ended = game.round - 1
    values = []
    at = 0
    for seat in range(game.players):
        row, at = pavilion_round_end(game, seat, ended)
        values.append(game.scores[seat] + PAVILION.gain(row, at))
    return values, PAVILION.spread(at)


_FINALS: dict[str, Callable[[Any], tuple[list[float], float]]] = {
    CLASSIC_FAMILY.name: _classic_finals,
    PAVILION_FAMILY.name: _pavilion_finals,
}
"""Each family's :func:`finals` of an unfinished game, by family name."""
