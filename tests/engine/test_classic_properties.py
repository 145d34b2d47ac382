"""Properties over thousands of random classic games (both walls, 2-4 players)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import record
from games.engine.classic import MARKER, ClassicGame

VARIANTS = ("classic", "classic-grey")


def tiles_in_play(game: ClassicGame) -> int:
    """bag + lid + factories + centre + pattern lines + walls + floors."""
    total = sum(game.bag) + sum(game.lid) + sum(game.center)
    total += sum(sum(factory) for factory in game.factories)
    for board in game.boards:
        total += sum(board.line_count)
        total += sum(1 for row in board.wall for colour in row if colour >= 0)
        total += sum(1 for tile in board.floor if tile != MARKER)
    return total


def check_invariants(game: ClassicGame) -> None:
    assert tiles_in_play(game) == 100
    marker_on_floors = sum(board.floor.count(MARKER) for board in game.boards)
    assert marker_on_floors + game.center_marker <= 1
    for board in game.boards:
        assert board.score >= 0
        assert len(board.floor) <= 7
        for line in range(5):
            assert 0 <= board.line_count[line] <= line + 1
            assert (board.line_count[line] == 0) == (board.line_colour[line] == -1)
        for row in range(5):
            placed = [c for c in board.wall[row] if c >= 0]
            assert len(placed) == len(set(placed))  # a colour once per row
        for column in range(5):
            placed = [board.wall[r][column] for r in range(5)]
            placed = [c for c in placed if c >= 0]
            assert len(placed) == len(set(placed))  # and once per column


def play_checked(variant: str, players: int, seed: int) -> ClassicGame:
    rng = random.Random(seed)
    game = record.new_game(variant, players, rng.randrange(players))
    assert isinstance(game, ClassicGame)
    events = 0
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
        else:
            moves = game.legal_moves()
            assert moves, "a player is never without a legal move"
            game.push(moves[rng.randrange(len(moves))])
        events += 1
        assert events < 2000, "every game ends"
        check_invariants(game)
    return game


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_games_keep_every_tile_and_end(variant, players, seed) -> None:
    game = play_checked(variant, players, seed)
    outcome = game.outcome()
    assert outcome is not None and min(outcome.scores) >= 0
    assert outcome.winners and all(outcome.ranks[s] == 1 for s in outcome.winners)


def test_thousands_of_games_round_trip_through_records() -> None:
    """export -> import -> replay gives the same scores and the same state."""
    for seed in range(2400):
        variant = VARIANTS[seed % 2]
        players = 2 + seed % 3
        game = record.random_game(variant, players, seed)
        assert game.is_over()
        assert tiles_in_play(game) == 100
        names = record.default_names(players)
        data = record.export(game, names)
        loaded = record.load(data).game
        assert loaded.outcome() == game.outcome()
        assert loaded.round_scores == game.round_scores
        assert [b.wall for b in loaded.boards] == [b.wall for b in game.boards]
        assert loaded.bag == game.bag and loaded.lid == game.lid
        assert record.export(loaded, names) == data


def test_copy_then_diverge_leaves_the_original_alone() -> None:
    rng = random.Random(4)
    game = ClassicGame(4, grey=True)
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            continue
        snapshot = record.export(game, record.default_names(4))
        other = game.copy()
        record.play_random(other, random.Random(rng.random()))
        assert record.export(game, record.default_names(4)) == snapshot
        game.push(game.random_move(rng))
