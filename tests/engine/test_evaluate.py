"""The evaluator (games/engine/evaluate.py, issue #27 item 1): what a position
is worth to each seat, over the deals still to come."""

from __future__ import annotations

import random

import pytest

from games.engine import classic
from games.engine.common import CENTER
from games.engine.evaluate import evaluate
from games.engine.record import new_game, random_game
from games.engine.variants import VARIANTS


def _dealt(variant: str, players: int, seed: int):
    game = new_game(variant, players)
    game.chance(random.Random(seed))
    return game


def test_a_finished_game_is_worth_exactly_its_result():
    game = random_game("classic", 3, 5)
    outcome = game.outcome()
    value = evaluate(game, samples=3)
    assert value.scores == tuple(float(s) for s in outcome.scores)
    assert value.ranks == tuple(float(r) for r in outcome.ranks)
    assert value.margins == tuple(
        float(s - max(o for j, o in enumerate(outcome.scores) if j != i))
        for i, s in enumerate(outcome.scores)
    )
    assert sum(value.wins) == pytest.approx(1.0)
    assert {i for i, w in enumerate(value.wins) if w > 0} == set(outcome.winners)


@pytest.mark.parametrize(
    ("variant", "players"),
    [(v.name, n) for v in VARIANTS for n in v.players],
)
def test_every_variant_and_player_count_gets_a_whole_evaluation(variant, players):
    game = _dealt(variant, players, 1)
    before = game.events()
    value = evaluate(game, samples=4, seed=2)
    assert game.events() == before  # the position is not touched
    assert len(value.scores) == len(value.wins) == len(value.ranks) == players
    assert sum(value.wins) == pytest.approx(1.0)
    assert all(1.0 <= rank <= players for rank in value.ranks)
    if players == 2:
        assert value.margins[0] == pytest.approx(-value.margins[1])


def test_the_same_position_and_seed_give_the_same_value():
    game = _dealt("pavilion", 2, 3)
    assert evaluate(game, samples=5, seed=9) == evaluate(game, samples=5, seed=9)
    assert evaluate(game, samples=5, seed=9) != evaluate(game, samples=5, seed=10)


def test_a_thrown_away_group_costs_points():
    """Three tiles to the floor at the first take (−4 at once, and the tiles
    lost) is worth several points less to the seat than a sensible take."""
    game = _dealt("classic", 2, 2)
    seat = game.to_move()
    moves = game.legal_moves()
    floor = max(
        (m for m in moves if m.line == classic.FLOOR and m.source != CENTER),
        key=lambda m: game.factories[m.source][m.colour],
    )
    assert game.factories[floor.source][floor.colour] >= 3
    same_group = [
        m for m in moves if (m.source, m.colour) == (floor.source, floor.colour)
    ]

    def worth(move) -> float:
        child = game.copy()
        child.push(move)
        return evaluate(child, samples=48, seed=1).margins[seat]

    values = {move.line: worth(move) for move in same_group}
    # the floor is the worst place for them, and costs at least 4 points
    # beside the line that holds the three exactly (line 2)
    assert min(values, key=values.__getitem__) == classic.FLOOR
    assert values[2] - values[classic.FLOOR] >= 4


def test_no_playout_is_asked_for_zero_samples():
    with pytest.raises(ValueError, match="at least one playout"):
        evaluate(_dealt("classic", 2, 1), samples=0)


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_a_playout_stops_at_the_end_of_the_round_it_plays(variant):
    """From a deal due it draws that deal and plays its round; from the middle
    of a round it plays that round: either way it stops when the next deal is
    due, where the learned value takes over."""
    from games.engine.evaluate import playout

    start = new_game(variant, 2)
    end = playout(start, random.Random(4))
    assert (end.round, end.phase) == (2, "deal")
    assert start.round == 1 and not start.events()  # untouched
    middle = _dealt(variant, 2, 6)
    while middle.needs_chance():
        middle.chance(random.Random(6))
    end = playout(middle, random.Random(5))
    assert (end.round, end.phase) == (2, "deal")


def test_equal_predictions_split_the_win():
    from games.engine.evaluate import _beats

    assert _beats(0.0, 8.0) == 0.5
    assert _beats(10.0, 8.0) == pytest.approx(1 - _beats(-10.0, 8.0))
    assert 0.5 < _beats(5.0, 8.0) < _beats(15.0, 8.0) < 1.0
    assert _beats(3.0, 0.0) == 1.0  # a finished game: no spread
