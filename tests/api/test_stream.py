"""The event stream (issue #39, ``GET /api/stream/events``): what is current
on open, an event as it happens, a keep-alive, and one stream per token (a
new one closes the old)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import ApplicationCommunicator
from django.test import AsyncClient

from api import services, stream
from api.consumers import EventStream
from api.receivers import on_invited
from games import services as game_services

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _open(token):
    """The stream of ``token``, served by its consumer as Daphne would."""
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/api/stream/events",
        "headers": [(b"authorization", f"Bearer {token}".encode())],
    }
    communicator = ApplicationCommunicator(EventStream.as_asgi(), scope)
    return communicator


async def _start(communicator):
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(5)
    return start


async def _body(communicator, timeout=5.0):
    message = await communicator.receive_output(timeout)
    assert message["type"] == "http.response.body"
    return message["body"].decode(), message.get("more_body", False)


@pytest.fixture
def people(make_user):
    ana, binh = make_user("ana"), make_user("binh")
    _row, token = services.token_create(user=binh, name="s", scopes=["game:read"])
    return ana, binh, token


async def test_the_stream_sends_what_is_current_then_what_happens(people, monkeypatch):
    ana, binh, token = people
    game = await sync_to_async(game_services.game_create)(
        creator=ana, variant="classic", players=2, rated=False, invitees=[binh]
    )
    monkeypatch.setattr(stream, "KEEP_ALIVE", 0.5)  # the first within 0.5 s
    communicator = _open(token)
    start = await _start(communicator)
    assert start["status"] == 200
    assert (b"Content-Type", b"text/event-stream") in start["headers"]
    # on open: the challenge waiting
    first, more = await _body(communicator)
    assert first == f'event: challenge\ndata: {{"game": {game.pk}}}\n\n' and more
    # then what happens: an event logged and rung
    other = await sync_to_async(game_services.game_create)(
        creator=ana, variant="pavilion", players=2, rated=False, invitees=[]
    )
    await sync_to_async(on_invited)(game_id=other.pk, user_id=binh.pk)
    line, _more = await _body(communicator)
    assert line.startswith("id: ") and f'"game": {other.pk}' in line
    assert "event: challenge" in line
    # nothing more: a keep-alive comes
    assert (await _body(communicator))[0] == ": keep-alive\n\n"
    await communicator.send_input({"type": "http.disconnect"})
    await communicator.wait(2)


async def test_a_second_stream_of_a_token_closes_the_first(people):
    _ana, _binh, token = people
    first = _open(token)
    await _start(first)
    await _body(first)  # what is current (nothing: an empty body)
    second = _open(token)
    await _start(second)
    # the first ends: its last body closes the response
    body, more = await _body(first)
    assert (body, more) == ("", False)
    await second.send_input({"type": "http.disconnect"})
    await second.wait(2)


async def test_a_stream_without_a_live_token_or_the_scope_is_refused(people, make_user):
    communicator = _open("azul_forged")
    start = await _start(communicator)
    assert start["status"] == 401
    body, _more = await _body(communicator)
    assert "Bearer" in json.loads(body)["error"]
    carla = await sync_to_async(make_user)("carla")
    _row, player = await sync_to_async(services.token_create)(
        user=carla, name="p", scopes=["game:play"]
    )
    communicator = _open(player)
    assert (await _start(communicator))["status"] == 403


async def test_a_declined_and_a_cancelled_challenge_are_told(people, make_user):
    """``challengeDeclined`` to the creator (with who declined),
    ``challengeCanceled`` to those invited."""
    ana, binh, binh_token = people
    carla = await sync_to_async(make_user)("carla")
    _row, ana_token = await sync_to_async(services.token_create)(
        user=ana, name="a", scopes=["game:read"]
    )
    first = await sync_to_async(game_services.game_create)(
        creator=ana, variant="classic", players=2, rated=False, invitees=[binh]
    )
    await sync_to_async(game_services.game_invitation_respond)(
        game_id=first.pk, user=binh, accept=False
    )
    second = await sync_to_async(game_services.game_create)(
        creator=ana, variant="classic", players=3, rated=False, invitees=[binh, carla]
    )
    await sync_to_async(game_services.game_cancel)(game_id=second.pk, user=ana)
    client = AsyncClient()

    async def kinds(token):
        answer = await client.get(
            "/api/events", headers={"Authorization": f"Bearer {token}"}
        )
        return [(e["type"], e["data"]) for e in answer.json()["events"]]

    assert ("challengeDeclined", {"game": first.pk, "by": "binh"}) in await kinds(
        ana_token
    )
    assert ("challengeCanceled", {"game": second.pk}) in await kinds(binh_token)
