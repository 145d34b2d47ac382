"""Odd WebSocket traffic gets a clean refusal or is ignored, never a traceback:
an unknown path, a game id no column holds, non-JSON text and binary frames."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.routing import websocket_urlpatterns

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ORIGIN = [(b"origin", b"http://127.0.0.1")]


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }


def _site_application():
    from azulsite.asgi import application

    return application


@pytest.mark.parametrize(
    "path",
    [
        "/ws/nope/",
        "/ws/games/",
        "/ws/games/abc/",
        "/ws/games/%C2%B2/",
        f"/ws/games/{2**63}/",
        f"/ws/games/{'9' * 5000}/",
        "/ws/",
    ],
)
async def test_an_unknown_socket_path_is_refused_at_the_handshake(path, caplog):
    comm = WebsocketCommunicator(_site_application(), path, headers=ORIGIN)
    with caplog.at_level(logging.WARNING):
        connected, _code = await comm.connect()
    assert not connected
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("kind", ["game", "user"])
@pytest.mark.parametrize(
    "frame",
    [
        {"text_data": "not json"},
        {"text_data": "{"},
        {"text_data": " "},
        {"text_data": '{"type": "game.updated", "ply": 1}'},
        {"bytes_data": b"\x00\xff\xfe binary"},
    ],
)
async def test_frames_from_the_client_are_ignored(
    kind, frame, players, start_game, caplog
):
    from games import notifications

    game = await sync_to_async(start_game)(players[:2])
    path = f"/ws/games/{game.pk}/" if kind == "game" else "/ws/user/"
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path, headers=ORIGIN)
    comm.scope["user"] = players[0]
    connected, _ = await comm.connect()
    assert connected
    if kind == "game":
        await comm.receive_json_from()  # the hello: current ply and status
    with caplog.at_level(logging.WARNING):
        await comm.send_to(**frame)
        await comm.send_to(**frame)
        assert await comm.receive_nothing(timeout=0.2)
    # The socket still works: the doorbell rings after the junk.
    await sync_to_async(notifications.game_updated)(
        game_id=game.pk, ply=game.ply, user_to_move_id=players[0].pk
    )
    message = await comm.receive_json_from(timeout=2)
    assert message["type"] == kind
    await comm.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
