"""WebSocket doorbells with WebsocketCommunicator: auth, groups, messages on a move."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import selectors, services
from games.routing import websocket_urlpatterns

from .helpers import move_event

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

APP = URLRouter(websocket_urlpatterns)
ORIGIN = [(b"origin", b"http://127.0.0.1")]


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    """The consumers on Channels' in-memory layer, whatever REDIS_URL says (the
    Redis layer is exercised by the live servers of tests/scale)."""
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }


def communicator(path: str, user=None) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(APP, path, headers=ORIGIN)
    if user is not None:
        comm.scope["user"] = user
    return comm


def _play_first_move(game):
    game.refresh_from_db()
    mover = game.seats.get(number=game.seat_to_move).user
    move = selectors.game_engine(game).legal_moves()[0]
    services.game_play_move(
        game_id=game.pk, user=mover, move=move_event(move), expected_ply=game.ply
    )
    game.refresh_from_db()
    return mover, game


async def test_user_socket_requires_a_signed_in_user():
    from django.contrib.auth.models import AnonymousUser

    comm = communicator("/ws/user/", AnonymousUser())
    connected, code = await comm.connect()
    assert not connected
    assert code == 4401


async def test_game_socket_refuses_an_unknown_game(players):
    comm = communicator("/ws/games/999999/", players[0])
    connected, code = await comm.connect()
    assert not connected and code == 4404


async def test_game_socket_joins_the_group_and_rings_on_a_move(players, start_game):
    game = await sync_to_async(start_game)(players[:2])
    spectator = players[3]
    comm = communicator(f"/ws/games/{game.pk}/", spectator)
    connected, _ = await comm.connect()
    assert connected
    hello = await comm.receive_json_from()
    assert hello == {"type": "game", "ply": game.ply, "status": "active"}

    mover, game = await sync_to_async(_play_first_move)(game)
    message = await comm.receive_json_from(timeout=2)
    assert message == {"type": "game", "ply": game.ply, "status": "active"}
    assert await comm.receive_nothing()
    await comm.disconnect()


async def test_user_socket_rings_for_the_player_to_move(players, start_game):
    game = await sync_to_async(start_game)(players[:2])
    users = await sync_to_async(
        lambda: {s.number: s.user for s in game.seats.select_related("user")}
    )()
    waiting = users[1 - game.seat_to_move]
    comm = communicator("/ws/user/", waiting)
    connected, _ = await comm.connect()
    assert connected
    await sync_to_async(_play_first_move)(game)
    message = await comm.receive_json_from(timeout=2)
    assert message == {"type": "user", "game": game.pk, "your_turn": True}
    await comm.disconnect()


async def test_sockets_leave_their_group_on_disconnect(players, start_game):
    from channels.layers import get_channel_layer

    game = await sync_to_async(start_game)(players[:2])
    comm = communicator(f"/ws/games/{game.pk}/", players[0])
    await comm.connect()
    await comm.receive_json_from()
    layer = get_channel_layer()
    assert layer.groups.get(f"game-{game.pk}")
    await comm.disconnect()
    assert not layer.groups.get(f"game-{game.pk}")


async def test_the_site_application_knows_the_signed_in_user_from_the_session(
    players, client_for
):
    """azulsite.asgi: origin check, then session and auth middleware."""
    from azulsite.asgi import application

    client = await sync_to_async(client_for)(players[0])
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    comm = WebsocketCommunicator(
        application, "/ws/user/", headers=[*ORIGIN, (b"cookie", cookie)]
    )
    connected, _ = await comm.connect()
    assert connected
    await comm.disconnect()
    anonymous = WebsocketCommunicator(application, "/ws/user/", headers=ORIGIN)
    connected, code = await anonymous.connect()
    assert not connected and code == 4401
    no_origin = WebsocketCommunicator(application, "/ws/user/")
    connected, _ = await no_origin.connect()
    assert not connected
