"""The one module that talks to the channel layer (STYLE.md: Channels doorbells).

Services call these from ``transaction.on_commit``; each message only says that
something changed, and the browser refetches its own permission-checked view.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(group: str, message: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(group, message)


def game_updated(*, game_id: int, ply: int, user_to_move_id: int | None) -> None:
    """Tell watchers of a game it changed, and the player to move it is their turn."""
    _send(game_group(game_id), {"type": "game.updated", "game": game_id, "ply": ply})
    if user_to_move_id is not None:
        _send(user_group(user_to_move_id), {"type": "turn", "game": game_id})


def invited(*, game_id: int, user_id: int) -> None:
    """Tell a player they were invited to a game."""
    _send(user_group(user_id), {"type": "invited", "game": game_id})
