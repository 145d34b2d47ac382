"""The one module that talks to the channel layer (STYLE.md: Channels doorbells).

Services call these from ``transaction.on_commit``; each message only says that
something changed (and the ply and status it changed to, so a browser can ignore a
stale message), and the browser refetches its own permission-checked view.
Groups: ``game-<id>`` for everyone watching a game page, ``user-<id>`` for every
page a signed-in player has open (the "your move" toast and badge).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


async def _group_send_all(
    layer: BaseChannelLayer, messages: list[tuple[str, dict[str, object]]]
) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # the move is committed; a lost doorbell must not undo it
            logger.exception("channel layer send to %s failed", group)


def _send(messages: list[tuple[str, dict[str, object]]]) -> None:
    """Ring every ``(group, message)`` in one trip to the event loop.

    Each ``async_to_sync`` call from a request's worker thread waits for the
    server's event loop; a move rings the game and each seated player, so one
    trip instead of three (``bench/http.py``).
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        async_to_sync(_group_send_all)(layer, messages)
    except Exception:
        logger.exception("channel layer send failed")


def game_updated(
    *,
    game_id: int,
    ply: int,
    user_to_move_id: int | None,
    status: str = "active",
    seated_user_ids: Iterable[int] = (),
) -> None:
    """Tell watchers of a game it changed, and its players that their lists did."""
    text = json.dumps({"type": "game", "ply": ply, "status": status})
    messages: list[tuple[str, dict[str, object]]] = [
        (
            game_group(game_id),
            {
                "type": "game.updated",
                "game": game_id,
                "ply": ply,
                "status": status,
                "text": text,
            },
        )
    ]
    users = set(seated_user_ids)
    if user_to_move_id is not None:
        users.add(user_to_move_id)
    for user_id in sorted(users):
        messages.append(
            (
                user_group(user_id),
                {
                    "type": "user.updated",
                    "game": game_id,
                    "your_turn": user_id == user_to_move_id,
                },
            )
        )
    _send(messages)


def invited(*, game_id: int, user_id: int) -> None:
    """Tell a player they were invited to a game."""
    _send([(user_group(user_id), {"type": "user.updated", "game": game_id})])
