"""The greedy policy (``games/engine/policy.py``) on hand-made and random games."""

from __future__ import annotations

import random

import pytest

from games.engine import policy, record
from games.engine.classic import COLOUR_INDEX, FACTORY_COUNT, FLOOR, ClassicGame, Take
from games.engine.common import CENTER
from games.engine.pavilion import Pass, Place
from games.engine.pavilion import Take as PavilionTake
from games.engine.variants import VARIANT_NAMES

B, Y, R, K, W = (COLOUR_INDEX[c] for c in ("blue", "yellow", "red", "black", "white"))


def classic_dealt(*factories: str) -> ClassicGame:
    game = ClassicGame(2, first_seat=0)
    letters = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}
    deal = [[letters[ch] for ch in f] for f in factories]
    deal += [[] for _ in range(FACTORY_COUNT[2] - len(deal))]
    bag = [0] * 5
    for tiles in deal:
        for name in tiles:
            bag[COLOUR_INDEX[name]] += 1
    game.bag = bag
    game.apply_event({"deal": deal})
    return game


def test_classic_prefers_the_take_that_fills_pattern_lines_without_floor():
    # factory 1 holds 3 red: line 3 (index 2) takes all three, nothing to the floor.
    game = classic_dealt("BYKW", "RRRY")
    move = policy.choose_move(game, random.Random(1))
    assert move == Take(0, 1, R, 2)


def test_classic_avoids_the_floor_when_a_line_has_room():
    game = classic_dealt("BBBB", "YRKW")
    game.push(Take(0, 1, Y, 0))  # centre now holds R, K, W and the marker
    game.boards[1].line_colour[3] = B
    game.boards[1].line_count[3] = 3
    game.boards[1].recompute_allowed()
    # seat 1: 4 blue on line 5 (index 4) places all; line 4 (3/4 full) only one.
    move = policy.choose_move(game, random.Random(1))
    assert move == Take(1, 0, B, 4)


def test_classic_counts_the_first_player_marker_as_a_floor_tile():
    game = classic_dealt("BYKW", "YRKW")
    # one black from factory 0 or from the centre? only factories hold tiles now;
    # after seat 0 takes, the centre has the marker: taking from it costs one more.
    game.push(Take(0, 0, B, 0))
    move = policy.choose_move(game, random.Random(1))
    assert move.source != CENTER
    assert move.line != FLOOR


def test_grey_wall_placement_takes_the_column_scoring_most():
    rng = random.Random(3)
    game = record.new_game("classic-grey", 2, 0)
    for _ in range(4000):
        if game.is_over():
            break
        if game.needs_chance():
            game.chance(rng)
            continue
        if game.phase == "tiling":
            seat = game.to_move()
            chosen = policy.choose_move(game, rng)
            best = 0
            for move in game.legal_moves():
                trial = game.copy()
                trial.push(move)
                best = max(best, trial.boards[seat].score)
            trial = game.copy()
            trial.push(chosen)
            assert trial.boards[seat].score == best
        game.push(policy.choose_move(game, rng))
    assert game.is_over()


def test_pavilion_take_brings_the_most_tiles():
    game = record.new_game("pavilion", 2, 0)
    rng = random.Random(5)
    while game.needs_chance():
        game.chance(rng)
    move = policy.choose_move(game, random.Random(0))
    assert isinstance(move, PavilionTake)

    def taken(take: PavilionTake) -> int:
        tiles = game.centre if take.source == CENTER else game.factories[take.source]
        extra = 1 if take.colour != game.wild and tiles[game.wild] else 0
        return tiles[take.colour] + extra

    assert taken(move) == max(taken(m) for m in game.legal_moves())


def _pavilion_at_place(seed: int):
    game = record.new_game("pavilion", 3, 0)
    rng = random.Random(seed)
    while game.phase != "place":
        if game.needs_chance():
            game.chance(rng)
        else:
            game.push(policy.choose_move(game, rng))
    return game


def test_pavilion_places_the_cheapest_with_fewest_wilds_before_passing():
    game = _pavilion_at_place(11)
    moves = game.legal_moves()
    places = [m for m in moves if isinstance(m, Place)]
    move = policy.choose_move(game, random.Random(0))
    if places:
        assert isinstance(move, Place)
        cheapest = min(game.cost(m.star, m.space) for m in places)
        assert game.cost(move.star, move.space) == cheapest
        fewest = min(m.wilds for m in places if game.cost(m.star, m.space) == cheapest)
        assert move.wilds == fewest
    else:
        assert isinstance(move, Pass)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_policy_plays_every_variant_to_the_end(variant, players):
    rng = random.Random(players)
    game = record.new_game(variant, players, 0)
    for _ in range(20_000):
        if game.is_over():
            break
        if game.needs_chance():
            game.chance(rng)
        else:
            game.play(policy.choose_move(game, rng))  # checked entry point: legal
    assert game.is_over()
    assert game.outcome() is not None


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_policy_is_deterministic_given_the_generator(variant):
    def run(seed: int) -> list:
        rng = random.Random(seed)
        game = record.new_game(variant, 3, 1)
        while not game.is_over():
            if game.needs_chance():
                game.chance(rng)
            else:
                game.push(policy.choose_move(game, rng))
        return game.events()

    assert run(9) == run(9)


def test_policy_refuses_when_no_decision_is_awaited():
    game = record.new_game("classic", 2, 0)  # the deal is due
    with pytest.raises(ValueError):
        policy.choose_move(game, random.Random(0))
