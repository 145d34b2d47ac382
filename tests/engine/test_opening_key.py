"""A game's first deal as its fingerprint (``record.opening_key``): what ties an
imported record to the game in progress it continues (docs/review.md)."""

from __future__ import annotations

import random

import pytest

from games.engine import record


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_every_record_of_a_game_shares_its_opening_and_other_games_do_not(variant):
    games = [record.random_game(variant, 3, seed) for seed in range(20)]
    keys = [record.opening_key(variant, game.events()) for game in games]
    assert len(set(keys)) == 20 and all(len(key) == 64 for key in keys)
    # a continuation played on from any point after the first deal keeps the
    # first game's key (Summer Pavilion draws its bonus supply before it)
    events = games[0].events()
    dealt = next(i for i, event in enumerate(events) if "deal" in event) + 1
    for cut in (dealt, dealt + 1, 10, len(events) // 2):
        loaded = record.load(
            {**record.export(games[0], ["a", "b", "c"]), "events": events[:cut]}
        ).game
        branch = record.play_random(loaded, random.Random(cut))
        assert record.opening_key(variant, branch.events()) == keys[0]


def test_before_the_first_deal_a_game_has_no_opening():
    game = record.new_game("pavilion", 2)
    assert record.opening_key("pavilion", game.events()) == ""
    assert record.opening_key("classic", []) == ""
