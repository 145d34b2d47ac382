"""The one module that talks to the channel layer (STYLE.md: Channels doorbells).

Services call these from ``transaction.on_commit``; each message only says that
something changed (and the ply and status it changed to, so a browser can ignore a
stale message), and the browser refetches its own permission-checked view.
Groups: ``game-<id>`` for everyone watching a game page, ``user-<id>`` for every
page a signed-in player has open (the "your move" toast and badge).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
from collections.abc import Iterable

from asgiref.sync import SyncToAsync, async_to_sync
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


# Rings handed to the server's event loop and not finished yet (a reference
# keeps each task alive until it is done).
_pending: set[concurrent.futures.Future[None]] = set()


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the server whose worker thread this is, if any (the one
    asgiref's ``sync_to_async`` runs this thread's work for), while it runs."""
    threadlocal = SyncToAsync.threadlocal
    loop = getattr(threadlocal, "main_event_loop", None)
    if getattr(threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


def _send(messages: list[tuple[str, dict[str, object]]]) -> None:
    """Ring every ``(group, message)``, in order, without waiting for it.

    In a server process this runs in the worker thread that serves every request
    of the process (``azulsite/handlers.py``): waiting there for the channel layer
    (with Redis, a few network round trips a move) held up every other request,
    so the rings are handed to the server's event loop and the move returns at
    once. Elsewhere (a management command, a test) they are sent before
    returning. A failed ring is logged; the move is committed either way.
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    loop = _server_loop()
    if loop is not None:
        try:
            future = asyncio.run_coroutine_threadsafe(
                _group_send_all(layer, messages), loop
            )
        except RuntimeError:  # the loop closed in between: send it here
            pass
        else:
            _pending.add(future)
            future.add_done_callback(_pending.discard)
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
