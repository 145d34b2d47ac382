"""Concurrent submissions of the same move: exactly one is applied (PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from games import selectors, services
from games.models import Move

from .helpers import move_event


@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_of_one_move_apply_once(players, start_game):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no row locks; the unique (game, ply) guards it there")
    game = start_game(players[:2])
    mover = game.seats.get(number=game.seat_to_move).user
    move = move_event(selectors.game_engine(game).legal_moves()[0])
    ply = game.ply
    threads = 8
    barrier = threading.Barrier(threads)
    outcomes: list[str] = []

    def submit() -> None:
        try:
            barrier.wait()
            services.game_play_move(
                game_id=game.pk, user=mover, move=move, expected_ply=ply
            )
            outcomes.append("played")
        except services.GameActionError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=submit) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert outcomes.count("played") == 1
    assert sorted(set(outcomes)) == ["played", "stale"]
    assert Move.objects.filter(game=game).count() == ply + 1
    game.refresh_from_db()
    assert game.ply == ply + 1
