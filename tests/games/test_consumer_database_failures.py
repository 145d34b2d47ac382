"""A socket whose connect meets the database away for a moment (a connection cut,
issue #33 item 4) closes with "try again later" (4013), which the page answers by
reconnecting later, and is logged as a warning, never raised to the server;
any other error still raises (a bug is not a moment to wait out)."""

from __future__ import annotations

import logging

import psycopg
import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db.utils import OperationalError, ProgrammingError

from games import consumers, selectors
from games.routing import websocket_urlpatterns

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

APP = URLRouter(websocket_urlpatterns)
ORIGIN = [(b"origin", b"http://127.0.0.1")]


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }


def _cut(**kwargs):
    error = OperationalError("server closed the connection unexpectedly")
    error.__cause__ = psycopg.OperationalError(str(error))
    raise error


async def test_a_game_socket_meeting_a_cut_connection_closes_with_try_again(
    players, start_game, monkeypatch, caplog
):
    game = await sync_to_async(start_game)(players[:2])
    monkeypatch.setattr(selectors, "game_version", _cut)
    comm = WebsocketCommunicator(APP, f"/ws/games/{game.pk}/", headers=ORIGIN)
    comm.scope["user"] = players[2]
    with caplog.at_level(logging.WARNING, logger="games.consumers"):
        connected, _ = await comm.connect()
        assert connected
        assert await comm.receive_output(timeout=2) == {
            "type": "websocket.close",
            "code": consumers.CLOSE_TRY_AGAIN,
        }
        await comm.disconnect()
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "database unavailable" in caplog.records[0].getMessage()
    assert caplog.records[0].exc_info is None  # no traceback

    monkeypatch.undo()  # the database is back: the page's next try works
    comm = WebsocketCommunicator(APP, f"/ws/games/{game.pk}/", headers=ORIGIN)
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from())["ply"] == game.ply
    await comm.disconnect()


async def test_any_other_error_in_connect_still_raises(monkeypatch):
    def broken(**kwargs):
        raise ProgrammingError("relation does not exist")

    monkeypatch.setattr(selectors, "game_version", broken)
    comm = WebsocketCommunicator(APP, "/ws/games/1/", headers=ORIGIN)
    with pytest.raises(ProgrammingError):
        await comm.connect()
