"""Doorbells rung outside a request reach an open page, and idle pages keep hearing.

Live Daphne servers on the test database (``servers.py``), a page's socket as a
browser keeps it, and a game whose deadline is moved into the past by updating its
row: the deadline job applies the timeout and the page must hear it — from the
job the server runs itself (``DEADLINE_LOOP_SECONDS``, in-memory layer) and from
a worker process (Redis layer); how soon is ``bench/ws.py``'s to measure. Then
the timeouts in play: an idle socket on Redis outlives redis-py's read timeout,
and a page idle for longer than Daphne's ``websocket_timeout`` and the group
expiry still gets its doorbell.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)

LOOP = "0.1"  # the deadline job's interval in these tests, in seconds


@pytest.fixture
def game(players, start_game):
    for user in players:  # no e-mails: the job's only work is the timeout
        user.email = ""
        user.save(update_fields=["email"])
    return start_game(players[:2], days_per_move=1)


def _pass_the_deadline(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(
        turn_deadline=timezone.now() - timedelta(seconds=1)
    )


def _finished(message: servers.Message) -> bool:
    return message.data.get("status") == "finished"


def _assert_the_doorbell_comes(page: servers.Page, game: Game) -> None:
    hello = page.next(timeout=10)
    assert hello.data == {"type": "game", "ply": game.ply, "status": "active"}
    _pass_the_deadline(game)
    # How soon it comes is bench/ws.py's to measure (no timed assertions here).
    doorbell = page.wait_for(_finished, timeout=10)
    assert not doorbell.first  # a doorbell, not a reconnect's hello
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.TIMEOUT
    assert doorbell.data == {"type": "game", "ply": game.ply, "status": "finished"}


def test_the_servers_deadline_job_rings_an_open_page_in_memory(game):
    env = servers.server_env(redis=False, DEADLINE_LOOP_SECONDS=LOOP)
    with (
        servers.daphne(env) as server,
        servers.Page(server.port, f"/ws/games/{game.pk}/") as page,
    ):
        _assert_the_doorbell_comes(page, game)
    assert servers.errors_in(server.stderr()) == []


def test_a_deadline_worker_process_rings_an_open_page_through_redis(game):
    servers.require_redis()
    env = servers.server_env(redis=True)
    with (
        servers.daphne(env) as server,
        servers.deadline_worker(env, float(LOOP)) as worker,
        servers.Page(server.port, f"/ws/games/{game.pk}/") as page,
    ):
        _assert_the_doorbell_comes(page, game)
    assert servers.errors_in(server.stderr()) == []
    assert servers.errors_in(worker.stderr()) == []


def test_an_idle_socket_on_redis_stays_open_and_gets_its_doorbell(game):
    """redis-py 8 times reads out after 5 s, while channels_redis waits 5 s for
    a message: without the layer's longer socket timeout the consumer died with
    1011 after ~5 s idle (django/channels_redis#422)."""
    servers.require_redis()
    env = servers.server_env(redis=True)
    with (
        servers.daphne(env) as server,
        servers.deadline_worker(env, float(LOOP)),
        servers.Page(server.port, f"/ws/games/{game.pk}/", reconnect=False) as page,
    ):
        page.next(timeout=10)  # the hello
        time.sleep(11)
        assert page.closed == [] and page.connections == 1
        _pass_the_deadline(game)
        doorbell = page.wait_for(_finished, timeout=2)
        assert doorbell.connection == 1
    assert servers.errors_in(server.stderr()) == []


@pytest.mark.parametrize("redis", [False, True], ids=["in-memory", "redis"])
def test_a_page_idle_longer_than_every_timeout_still_gets_its_doorbell(game, redis):
    """Daphne closes a socket after ``--websocket_timeout`` (here 2 s) and group
    memberships expire after ``CHANNEL_GROUP_EXPIRY`` (here 4 s): the page,
    idle for 6 s, has reconnected and rejoined, and hears the next doorbell."""
    if redis:
        servers.require_redis()
    env = servers.server_env(
        redis=redis,
        CHANNEL_GROUP_EXPIRY="4",
        DEADLINE_LOOP_SECONDS="0" if redis else LOOP,
    )
    with (
        servers.daphne(env, websocket_timeout=2) as server,
        servers.deadline_worker(env, float(LOOP)) if redis else _nothing(),
        servers.Page(server.port, f"/ws/games/{game.pk}/") as page,
    ):
        page.next(timeout=10)
        time.sleep(6)
        # Ring right after a reconnect's hello, so that the doorbell cannot
        # arrive as the next connection's hello instead.
        hello = page.wait_for(lambda m: m.first and m.connection > 1, timeout=5)
        assert hello.data["status"] == "active"
        _pass_the_deadline(game)
        doorbell = page.wait_for(_finished, timeout=10)
        # Most often the doorbell itself; on a busy machine the 2 s socket may
        # cycle first, and the next connection's hello says the game finished.
        # Either way the page learns it at once.
        assert not doorbell.first or doorbell.connection > hello.connection
    assert servers.errors_in(server.stderr()) == []


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
