"""The event stream's parts (served by ``api.consumers.EventStream``): its
channel groups, the ring the event log sends, and its lines (server-sent
events): what is current for an account on open, the events after a cursor."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from api.models import ApiEvent
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


def line(event_id: int | None, kind: str, data: dict[str, Any]) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data)}\n\n"


def current(user_id: int) -> tuple[list[str], int]:
    """What is current for ``user_id``, as lines, and the event cursor."""
    lines = []
    seats = Seat.objects.filter(
        user_id=user_id, game__status__in=[Game.Status.ACTIVE, Game.Status.OPEN]
    ).select_related("game")
    for seat in seats.order_by("game_id"):
        game = seat.game
        if game.status == Game.Status.OPEN:
            if seat.invite_status == Seat.Invite.INVITED:
                lines.append(line(None, "challenge", {"game": game.pk}))
            continue
        lines.append(line(None, "gameStart", {"game": game.pk}))
        if game.seat_to_move == seat.number and game.play_stopped_at is None:
            deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
            lines.append(
                line(
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


def after(user_id: int, cursor: int) -> list[ApiEvent]:
    return list(
        ApiEvent.objects.filter(user_id=user_id, pk__gt=cursor).order_by("pk")[:100]
    )
