"""Property tests over thousands of random Summer Pavilion games
(docs/rules/summer-pavilion.md).

Every random game is played through the checked ``play`` (so each decision that
``legal_moves`` offers must also pass the checks) and after every event: the 132 tiles
are all somewhere (§1), no score is below 1 (§1), the game ends after round 6 (§7),
and the record round trip reproduces the result.
"""

from __future__ import annotations

import random
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.common import EngineError, ScoreChange
from games.engine.pavilion import (
    CENTER,
    NUM_SPACES,
    Bonus,
    Move,
    Pass,
    PavilionGame,
    Place,
    Take,
    _multisets,
)
from games.engine.record import default_names, export, load

VARIANTS = st.sampled_from([False, True])
PLAYERS = st.sampled_from([2, 3, 4])


def snapshot(game: PavilionGame) -> tuple[object, ...]:
    return (
        game.phase,
        game.turn,
        game.round,
        [f[:] for f in game.factories],
        game.centre[:],
        game.supply[:],
        game.bag[:],
        game.tower[:],
        [h[:] for h in game.hands],
        [c[:] for c in game.corners],
        [b[:] for b in game.boards],
        game.scores[:],
        game.passed[:],
        game.completed[:],
        len(game.events()),
        len(game.score_log),
    )


def play_checked(grey: bool, players: int, seed: int) -> PavilionGame:
    """A random game through ``play``, checking the invariants after every event."""
    rng = random.Random(seed)
    game = PavilionGame(players, grey=grey, first_seat=rng.randrange(players))
    events = 0
    while not game.is_over():
        if game.needs_chance():
            assert game.to_move() is None and game.legal_moves() == []
            game.chance(rng)
        else:
            moves = game.legal_moves()
            assert moves and len(set(moves)) == len(moves)
            assert all(move.seat == game.to_move() for move in moves)
            game.play(moves[rng.randrange(len(moves))])
        events += 1
        assert game.tile_total() == 132
        assert min(game.scores) >= 1
        assert game.round <= 6
        assert len(game.log) == events
    assert game.round == 6 and len(game.round_scores) == 6
    assert min(min(scores) for scores in game.round_scores) >= 1
    assert game.to_move() is None and not game.needs_chance()
    breakdown = game.result()["breakdown"]
    assert [sum(row.values()) for row in breakdown] == game.scores
    return game


def check_round_trip(game: PavilionGame) -> None:
    record = export(game, default_names(game.players))
    again = load(record).game
    assert isinstance(again, PavilionGame)
    assert again.result() == game.result()
    assert again.events() == game.events()
    assert snapshot(again) == snapshot(game)


@settings(max_examples=300, deadline=None)
@given(grey=VARIANTS, players=PLAYERS, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(grey: bool, players: int, seed: int) -> None:
    check_round_trip(play_checked(grey, players, seed))


def test_many_seeded_games_keep_every_invariant() -> None:
    """A plain loop over seeds: 6 × 600 games, both sides, 2-4 players."""
    for grey, players in product((False, True), (2, 3, 4)):
        for seed in range(600):
            game = play_checked(grey, players, seed)
            if seed % 10 == 0:
                check_round_trip(game)


def candidates(game: PavilionGame) -> list[Move]:
    """Every decision of the current kind that parses, legal or not."""
    seat = game.to_move()
    assert seat is not None
    if game.phase == "take":
        sources = [CENTER, *range(len(game.factories))]
        return [Take(seat, s, c) for s in sources for c in range(6)]
    if game.phase == "bonus":
        return [
            Bonus(seat, tiles)
            for size in range(4)
            for tiles in _multisets([size] * 6, size)
        ]
    places: list[Move] = [
        Place(seat, index // 6, index % 6 + 1, colour, wilds)
        for index in range(NUM_SPACES)
        for colour in range(6)
        for wilds in range(6)
    ]
    keeps: list[Move] = [
        Pass(seat, keep) for size in range(6) for keep in _multisets([5] * 6, size)
    ]
    return places + keeps


def test_legal_moves_are_exactly_the_moves_play_accepts() -> None:
    """``legal_moves`` against ``check`` over every candidate decision (perft-like)."""
    for grey, players, seed in product((False, True), (2, 3, 4), range(4)):
        rng = random.Random(seed)
        game = PavilionGame(players, grey=grey, first_seat=seed % players)
        while not game.is_over():
            if game.needs_chance():
                game.chance(rng)
                continue
            legal = set(game.legal_moves())
            accepted = set()
            for move in candidates(game):
                try:
                    game.check(move)
                except EngineError:
                    continue
                accepted.add(move)
            assert accepted == legal
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])


@settings(max_examples=40, deadline=None)
@given(grey=VARIANTS, players=PLAYERS, seed=st.integers(0, 2**32 - 1))
def test_copy_is_independent_of_the_original(
    grey: bool, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = PavilionGame(players, grey=grey)
    stop = rng.randrange(20, 120)
    for _ in range(stop):
        if game.is_over():
            break
        if game.needs_chance():
            game.chance(rng)
        else:
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    while not twin.is_over():
        if twin.needs_chance():
            twin.chance(rng)
        else:
            moves = twin.legal_moves()
            twin.push(moves[rng.randrange(len(moves))])
    assert snapshot(game) == before
    assert all(isinstance(change, ScoreChange) for change in twin.score_log)


def test_same_seed_same_game() -> None:
    a = play_checked(False, 3, 99)
    b = play_checked(False, 3, 99)
    assert a.events() == b.events() and a.scores == b.scores
