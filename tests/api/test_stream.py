"""The event stream (issue #39, ``GET /api/stream/events``): what is current
on open, an event as it happens, a keep-alive, and one stream per token (a
new one closes the old)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from api import services, stream
from api.receivers import on_invited
from games import services as game_services

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _next(chunks, timeout=5.0):
    chunk = await asyncio.wait_for(chunks.__anext__(), timeout)
    return chunk.decode() if isinstance(chunk, bytes) else chunk


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
    client = AsyncClient()
    response = await client.get(
        "/api/stream/events", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    chunks = aiter(response.streaming_content)
    # on open: the challenge waiting
    first = await _next(chunks)
    assert first == f'event: challenge\ndata: {{"game": {game.pk}}}\n\n'
    # then what happens: binh is invited again (an event logged and rung)
    other = await sync_to_async(game_services.game_create)(
        creator=ana, variant="pavilion", players=2, rated=False, invitees=[]
    )
    await sync_to_async(on_invited)(game_id=other.pk, user_id=binh.pk)
    line = await _next(chunks)
    assert line.startswith("id: ") and f'"game": {other.pk}' in line
    assert "event: challenge" in line
    # nothing more: a keep-alive comes
    monkeypatch.setattr(stream, "KEEP_ALIVE", 0.2)
    assert await _next(chunks) == ": keep-alive\n\n"


async def test_a_second_stream_of_a_token_closes_the_first(people):
    _ana, _binh, token = people
    headers = {"Authorization": f"Bearer {token}"}
    first = await AsyncClient().get("/api/stream/events", headers=headers)
    first_chunks = aiter(first.streaming_content)
    waiting = asyncio.ensure_future(_next(first_chunks, timeout=10))
    await asyncio.sleep(0.2)
    second = await AsyncClient().get("/api/stream/events", headers=headers)
    second_chunks = aiter(second.streaming_content)
    waiter = asyncio.ensure_future(_next(second_chunks, timeout=1))
    with pytest.raises(StopAsyncIteration):
        await waiting
    waiter.cancel()


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
