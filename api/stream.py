"""The event stream (``GET /api/stream/events``, server-sent events): an
account's events as they happen, for a program that stays connected.

An async view on Daphne: an open stream holds no worker thread, only its
channel on the channel layer. On open it sends what is current (``gameStart``
for each game in progress, ``yourTurn`` where it is the account's move,
``challenge`` for each invitation waiting), then each event logged for the
account (``api.receivers`` rings ``events_group`` after writing it), and a
comment line at least every ``KEEP_ALIVE`` seconds. One stream per token: a
new one closes the one open before (``token_group``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from api.models import ApiEvent, ApiToken
from api.services import token_touch
from games.models import Game, Seat

KEEP_ALIVE = 15.0


def events_group(user_id: int) -> str:
    return f"api-events-{user_id}"


def token_group(token_id: int) -> str:
    return f"api-token-{token_id}"


def ring_events(user_ids: list[int]) -> None:
    """Wake the open streams of ``user_ids``: new events are logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    for user_id in user_ids:
        # a failed ring is caught up at the stream's next keep-alive
        with contextlib.suppress(Exception):
            async_to_sync(layer.group_send)(
                events_group(user_id), {"type": "api.event"}
            )


def _line(event_id: int | None, kind: str, data: dict[str, Any]) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data)}\n\n"


def _current(user_id: int) -> tuple[list[str], int]:
    """What is current for ``user_id``, as lines, and the event cursor."""
    lines = []
    seats = Seat.objects.filter(
        user_id=user_id, game__status__in=[Game.Status.ACTIVE, Game.Status.OPEN]
    ).select_related("game")
    for seat in seats.order_by("game_id"):
        game = seat.game
        if game.status == Game.Status.OPEN:
            if seat.invite_status == Seat.Invite.INVITED:
                lines.append(_line(None, "challenge", {"game": game.pk}))
            continue
        lines.append(_line(None, "gameStart", {"game": game.pk}))
        if game.seat_to_move == seat.number and game.play_stopped_at is None:
            deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
            lines.append(
                _line(
                    None,
                    "yourTurn",
                    {"game": game.pk, "ply": game.ply, "deadline": deadline},
                )
            )
    last = (
        ApiEvent.objects.filter(user_id=user_id)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return lines, last or 0


def _after(user_id: int, cursor: int) -> list[ApiEvent]:
    return list(
        ApiEvent.objects.filter(user_id=user_id, pk__gt=cursor).order_by("pk")[:100]
    )


async def events(token: ApiToken) -> AsyncIterator[str]:
    """The stream's lines for ``token``'s account, until a newer stream of
    the same token or the client closes it."""
    layer = get_channel_layer()
    user_id = token.user_id
    if layer is None:
        lines, _cursor = await sync_to_async(_current)(user_id)
        for line in lines:
            yield line
        return
    channel = await layer.new_channel()
    # the stream opened before on this token closes (one per token); this one
    # listens before it reads what is current, so nothing falls between
    await layer.group_send(token_group(token.pk), {"type": "api.close"})
    await layer.group_add(token_group(token.pk), channel)
    await layer.group_add(events_group(user_id), channel)
    try:
        lines, cursor = await sync_to_async(_current)(user_id)
        for line in lines:
            yield line
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), KEEP_ALIVE)
            except TimeoutError:
                message = {"type": "keep-alive"}
            if message.get("type") == "api.close":
                return
            await sync_to_async(token_touch)(token)  # the bot is online
            rows = await sync_to_async(_after)(user_id, cursor)
            for row in rows:
                cursor = row.pk
                yield _line(row.pk, row.kind, row.data)
            if not rows:
                yield ": keep-alive\n\n"
    finally:
        await layer.group_discard(token_group(token.pk), channel)
        await layer.group_discard(events_group(user_id), channel)
