"""games.selectors: "my games" in SQL order, open games, the engine cache."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.models import Game

pytestmark = pytest.mark.django_db


def _set_turn(game, seat, hours):
    Game.objects.filter(pk=game.pk).update(
        seat_to_move=seat, turn_deadline=timezone.now() + timedelta(hours=hours)
    )


def test_my_games_puts_my_moves_first_by_deadline(players, start_game):
    ana, binh, chloe, _ = players
    later = start_game([ana, binh])
    sooner = start_game([binh, ana])
    theirs = start_game([ana, chloe])
    _set_turn(later, 0, 48)  # ana is seat 0
    _set_turn(sooner, 1, 5)  # ana is seat 1
    _set_turn(theirs, 1, 1)  # chloe to move
    open_game = services.game_create(
        creator=ana, variant="classic", players=2, days_per_move=1, rated=False
    )
    awaiting = list(selectors.game_list_awaiting_move(user=ana))
    assert awaiting == [sooner, later]
    waiting = list(selectors.game_list_waiting(user=ana))
    assert set(waiting) == {theirs, open_game}
    assert list(selectors.game_list_awaiting_move(user=chloe)) == [theirs]


def test_recently_finished_and_open_lists(players, start_game):
    ana, binh, chloe, _ = players
    game = start_game([ana, binh])
    services.game_resign(game_id=game.pk, user=binh)
    assert list(selectors.game_list_recently_finished(user=ana)) == [game]
    assert list(selectors.game_list_awaiting_move(user=ana)) == []
    open_game = services.game_create(
        creator=ana, variant="classic", players=2, days_per_move=1, rated=False
    )
    assert list(selectors.game_list_open(user=chloe)) == [open_game]
    assert list(selectors.game_list_open(user=ana)) == []


def test_cache_matches_a_rebuild_from_the_move_rows(players, start_game):
    import random

    from .helpers import move_event

    game = start_game(players[:3], variant="classic-grey")
    rng = random.Random(5)
    for _ in range(40):
        game.refresh_from_db()
        engine = selectors.game_engine(game)
        moves = engine.legal_moves()
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.get(number=game.seat_to_move).user,
            move=move_event(moves[rng.randrange(len(moves))]),
            expected_ply=game.ply,
        )
    game.refresh_from_db()
    cached = selectors.game_engine(game)
    rebuilt = selectors.game_engine_from_moves(game)
    assert rebuilt.events() == cached.events() == game.cached_events
    assert rebuilt.log == cached.log
    assert [b.score for b in rebuilt.boards] == [b.score for b in cached.boards]
    assert rebuilt.to_move() == cached.to_move() == game.seat_to_move
