"""The doorbell fan-out: the in-memory layer, the consumers' dispatch, one hop."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from azulsite.layers import FanOutInMemoryChannelLayer
from games import notifications
from games.routing import websocket_urlpatterns

ORIGIN = [(b"origin", b"http://127.0.0.1")]


@pytest.mark.asyncio
async def test_group_send_reaches_every_member_once():
    layer = FanOutInMemoryChannelLayer()
    channels = [await layer.new_channel() for _ in range(50)]
    for channel in channels:
        await layer.group_add("game-1", channel)
    outsider = await layer.new_channel()
    await layer.group_add("game-2", outsider)
    await layer.group_send("game-1", {"type": "game.updated", "ply": 3})
    for channel in channels:
        assert await layer.receive(channel) == {"type": "game.updated", "ply": 3}
    assert not layer.channels  # every queue drained, nothing for the outsider
    await layer.group_discard("game-1", channels[0])
    await layer.group_send("game-1", {"type": "game.updated", "ply": 4})
    assert channels[0] not in layer.channels


@pytest.mark.asyncio
async def test_group_send_copies_the_message_per_member():
    layer = FanOutInMemoryChannelLayer()
    first, second = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", first)
    await layer.group_add("g", second)
    await layer.group_send("g", {"type": "x", "data": {"n": 1}})
    received = await layer.receive(first)
    received["data"]["n"] = 2
    assert await layer.receive(second) == {"type": "x", "data": {"n": 1}}


@pytest.mark.asyncio
async def test_expired_messages_are_still_swept(monkeypatch):
    layer = FanOutInMemoryChannelLayer(expiry=60)
    stale = await layer.new_channel()
    await layer.group_add("g", stale)
    await layer.send(stale, {"type": "old"})
    clock = [1000.0]
    an_hour_later = time.time() + 3600
    monkeypatch.setattr("channels.layers.time.time", lambda: an_hour_later)
    monkeypatch.setattr("azulsite.layers.time.monotonic", lambda: clock[0])
    layer._cleaned_at = clock[0]  # swept just now: the next sweep waits
    layer._clean_expired()
    assert stale in layer.channels
    clock[0] += layer.clean_interval
    layer._clean_expired()
    assert stale not in layer.channels  # expired message dropped
    assert stale not in layer.groups.get("g", {})  # and removed from its group


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_doorbell_is_relayed_without_a_hop_to_the_sync_thread(
    players, start_game, monkeypatch
):
    """Closing stale DB connections before each message queued one hand-over per
    socket behind the HTTP requests; doorbell handlers never use the database."""
    game = await sync_to_async(start_game)(players[:2])
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/", headers=ORIGIN
    )
    comm.scope["user"] = players[3]
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_json_from()  # the hello with the current ply

    hops = []

    async def recording_close():
        hops.append(1)

    monkeypatch.setattr("games.consumers.aclose_old_connections", recording_close)
    await get_channel_layer().group_send(
        notifications.game_group(game.pk),
        {"type": "game.updated", "ply": 99, "status": "active", "text": "{}"},
    )
    assert await comm.receive_from(timeout=2) == "{}"
    assert hops == []
    await comm.disconnect()


def test_a_move_rings_every_group_in_one_trip(monkeypatch):
    calls = []

    def fake_async_to_sync(function):
        def run(layer, messages):
            calls.append([group for group, _ in messages])
            return asyncio.run(function(layer, messages))

        return run

    monkeypatch.setattr(notifications, "async_to_sync", fake_async_to_sync)
    layer = get_channel_layer()
    notifications.game_updated(
        game_id=7, ply=5, user_to_move_id=2, seated_user_ids=[1, 2]
    )
    assert calls == [["game-7", "user-1", "user-2"]]
    assert layer is not None


def test_a_failing_group_does_not_silence_the_others(monkeypatch):
    sent = []

    class Layer:
        async def group_send(self, group, message):
            if group == "game-7":
                raise ConnectionError("down")
            sent.append(group)

    monkeypatch.setattr(notifications, "get_channel_layer", lambda: Layer())
    notifications.game_updated(
        game_id=7, ply=5, user_to_move_id=2, seated_user_ids=[1, 2]
    )
    assert sent == ["user-1", "user-2"]
