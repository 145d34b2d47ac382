"""WebSocket doorbells (STYLE.md): they say "something changed", never what.

``GameConsumer`` (``/ws/games/<id>/``) serves everyone who may see the game page —
which, like the page, is public. On connect it sends the current ply and status so
a page that reconnects after a drop catches up by refetching its board.
``UserConsumer`` (``/ws/user/``) needs a signed-in user and rings on every page
they have open when one of their games changes. Clients have nothing to say on
either: every frame they send (text, JSON or not, or binary) is ignored. Any other
``/ws/`` path is refused at the handshake (``NoSuchSocket``).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import (
    AsyncJsonWebsocketConsumer,
    AsyncWebsocketConsumer,
)

from notify import presence

from . import notifications, selectors

CLOSE_NOT_FOUND = 4404
CLOSE_UNAUTHORISED = 4401


class Doorbell(AsyncJsonWebsocketConsumer):
    """Sends JSON; ignores whatever the client sends (moves go through the POST)."""

    async def receive(
        self,
        text_data: str | None = None,
        bytes_data: bytes | None = None,
        **kwargs: Any,
    ) -> None:
        """Not parsed at all: a non-JSON or binary frame is no error."""


class NoSuchSocket(AsyncWebsocketConsumer):
    """Every path the routes do not know: refuse the handshake (HTTP 403)."""

    async def connect(self) -> None:
        await self.close()


class GameConsumer(Doorbell):
    group = ""
    page: presence.PageWatch | None = None

    async def connect(self) -> None:
        game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        version = await database_sync_to_async(selectors.game_version)(
            game_id=game_id, user=self.scope.get("user")
        )
        if version is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = notifications.game_group(game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        ply, status = version
        await self.send_json({"type": "game", "ply": ply, "status": status})
        # A signed-in player's open page: no push about this game meanwhile.
        self.page = await presence.page_opened(
            user=self.scope.get("user"), game_id=game_id, channel_name=self.channel_name
        )

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await presence.page_closed(self.page)

    async def game_updated(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "game", "ply": event["ply"], "status": event["status"]}
        )


class UserConsumer(Doorbell):
    group = ""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        self.group = notifications.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def user_updated(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "user",
                "game": event.get("game"),
                "your_turn": bool(event.get("your_turn")),
            }
        )
