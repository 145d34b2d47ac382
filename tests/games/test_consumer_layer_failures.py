"""A channel layer that fails (Redis busy or away) gives a clean close the page
understands, never a traceback (issue #23: ``MaxConnectionsError`` in
``group_add`` answered 502, and failed ``group_discard``s left members behind).
"""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import consumers, notifications
from games.routing import websocket_urlpatterns

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

APP = URLRouter(websocket_urlpatterns)
ORIGIN = [(b"origin", b"http://127.0.0.1")]
ROOT = Path(__file__).resolve().parents[2]


class PoolExhausted(Exception):
    """Stands for redis' ``MaxConnectionsError`` (or a Redis that went away)."""


class FailingLayer(InMemoryChannelLayer):
    """The in-memory layer, but ``group_add`` always fails and ``group_discard``
    fails the first ``discard_failures`` times (class attributes: the test sets
    them; the layer is built by Channels from settings)."""

    add_fails = True
    discard_failures = 0
    discard_calls = 0

    async def group_add(self, group: str, channel: str) -> None:
        if FailingLayer.add_fails:
            raise PoolExhausted("Too many connections")
        await super().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        FailingLayer.discard_calls += 1
        if FailingLayer.discard_calls <= FailingLayer.discard_failures:
            raise PoolExhausted("Too many connections")
        await super().group_discard(group, channel)


@pytest.fixture
def failing_layer(settings, monkeypatch):
    monkeypatch.setattr(FailingLayer, "add_fails", True)
    monkeypatch.setattr(FailingLayer, "discard_failures", 0)
    monkeypatch.setattr(FailingLayer, "discard_calls", 0)
    monkeypatch.setattr(consumers, "LEAVE_PAUSE", 0.0)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.FailingLayer"}}
    from channels.layers import get_channel_layer

    return get_channel_layer()


def communicator(path: str, user=None) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(APP, path, headers=ORIGIN)
    if user is not None:
        comm.scope["user"] = user
    return comm


async def test_a_game_socket_that_cannot_join_closes_with_try_again_later(
    failing_layer, players, start_game, caplog
):
    game = await sync_to_async(start_game)(players[:2])
    comm = communicator(f"/ws/games/{game.pk}/", players[2])
    with caplog.at_level(logging.WARNING, logger="games.consumers"):
        connected, _ = await comm.connect()
        # Accepted, so the close code reaches the page (a refused handshake is a
        # bare 1006 there), then closed before any hello.
        assert connected
        assert await comm.receive_output(timeout=2) == {
            "type": "websocket.close",
            "code": consumers.CLOSE_TRY_AGAIN,
        }
        await comm.disconnect()
    assert consumers.CLOSE_TRY_AGAIN == 4013
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert all(r.exc_info is None for r in caplog.records)  # no traceback
    assert FailingLayer.discard_calls == 0  # never joined, nothing to leave


async def test_a_user_socket_that_cannot_join_closes_with_try_again_later(
    failing_layer, players
):
    comm = communicator("/ws/user/", players[0])
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_output(timeout=2) == {
        "type": "websocket.close",
        "code": consumers.CLOSE_TRY_AGAIN,
    }
    await comm.disconnect()


async def test_a_failed_leave_is_tried_again_and_the_member_goes(
    failing_layer, players, start_game
):
    FailingLayer.add_fails = False
    FailingLayer.discard_failures = 1
    game = await sync_to_async(start_game)(players[:2])
    group = notifications.game_group(game.pk)
    comm = communicator(f"/ws/games/{game.pk}/", players[2])
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from())["ply"] == game.ply
    assert len(failing_layer.groups[group]) == 1
    await comm.disconnect()
    assert FailingLayer.discard_calls == 2
    assert group not in failing_layer.groups


async def test_a_leave_that_keeps_failing_is_logged_not_raised(
    failing_layer, players, caplog
):
    FailingLayer.add_fails = False
    FailingLayer.discard_failures = 99
    comm = communicator("/ws/user/", players[0])
    connected, _ = await comm.connect()
    assert connected
    with caplog.at_level(logging.WARNING, logger="games.consumers"):
        await comm.disconnect()
    assert FailingLayer.discard_calls == consumers.LEAVE_ATTEMPTS
    assert len(caplog.records) == 1
    assert "expires with the group" in caplog.records[0].getMessage()
    assert caplog.records[0].exc_info is None


def _pool_size(**env: str) -> str:
    """The Redis layer's pool size as a server process builds it (no Redis
    needed: the pool connects lazily)."""
    code = (
        "from channels.layers import get_channel_layer;"
        "print(get_channel_layer().create_pool(0).max_connections)"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={
            "PATH": "/usr/bin:/bin",
            "DEBUG": "true",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
            **env,
        },
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


async def test_the_redis_layers_pool_holds_a_connection_for_every_socket():
    # redis-py's own default is 100: a burst of sockets ran it dry.
    assert await sync_to_async(_pool_size)() == "1000"
    assert await sync_to_async(_pool_size)(CHANNEL_LAYER_MAX_CONNECTIONS="2500") == (
        "2500"
    )
