"""The one module that talks to the channel layer (docs/style.md, "Channels doorbells").

Services call these from ``transaction.on_commit``; each message only says that
something changed (and the ply and status it changed to, so a browser can ignore a
stale message), and the browser refetches its own permission-checked view.
Groups: ``game-<id>`` for everyone watching a game page, ``user-<id>`` for every
page a signed-in player has open (the "your move" toast and badge),
``review-<id>`` for the replays of a finished game open while its review is
being made (the Review tab's progress, docs/review.md).

The calls are plain ``async_to_sync(channel_layer.group_send)``. From a request
(or from the deadline job run by the server, ``games/jobs.py``) asgiref runs the
send on the server's event loop, where the in-memory layer's queues live; from a
separate process (``manage.py process_deadlines``) only the Redis layer reaches
the server's sockets.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def review_group(game_id: int) -> str:
    return f"review-{game_id}"


def _send(messages: list[tuple[str, dict[str, object]]]) -> None:
    """Ring every ``(group, message)`` in order. The change is committed: a
    failed ring is logged, never raised (the page catches up on reconnect)."""
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:
            logger.exception("could not ring the doorbell of %s", group)


def game_updated(
    *,
    game_id: int,
    ply: int,
    user_to_move_id: int | None,
    status: str = "active",
    seated_user_ids: Iterable[int] = (),
    redraw: bool = False,
) -> None:
    """Tell watchers of a game it changed, and its players that their lists did.

    ``redraw``: what changed is not a move (a player's vacation began or ended,
    and the clocks with it), so the pages draw the board again at the same ply.
    """
    game_message: dict[str, object] = {
        "type": "game.updated",
        "game": game_id,
        "ply": ply,
        "status": status,
    }
    if redraw:
        game_message["redraw"] = True
    messages: list[tuple[str, dict[str, object]]] = [
        (game_group(game_id), game_message)
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


def chatted(*, game_id: int, user_ids: Iterable[int]) -> None:
    """Tell these players' pages that the chat of a game changed (a message,
    or who reads whom): the game page's chat panel fetches itself again
    (``chat``; only its people hear, never the game's watchers)."""
    _send(
        [
            (user_group(user_id), {"type": "user.chatted", "game": game_id})
            for user_id in sorted(set(user_ids))
        ]
    )


def review_updated(
    *, game_id: int, status: str, done: int, total: int, ahead: int | None = None
) -> None:
    """Tell the open replays of a finished game that its review went on
    (``done`` of ``total`` events weighed), is made (``status``), or while it
    waits, that its place in the queue changed (``ahead``: the reviews to be
    made before it): the Review tab fetches itself again (``tasks.review_game``;
    never for a game in progress, which is not reviewed)."""
    review_places([(game_id, status, done, total, ahead)])


def review_places(
    reviews: Iterable[tuple[int, str, int, int, int | None]],
) -> None:
    """:func:`review_updated` for each ``(game_id, status, done, total,
    ahead)``: the places of the reviews waiting, each time the queue moves on
    (``games.history.review_queue``)."""
    _send(
        [
            (
                review_group(game_id),
                {
                    "type": "review.updated",
                    "game": game_id,
                    "status": str(status),
                    "done": done,
                    "total": total,
                    "ahead": ahead,
                },
            )
            for game_id, status, done, total, ahead in reviews
        ]
    )
