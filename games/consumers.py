"""WebSocket doorbells (docs/style.md): they say "something changed", never what.

``GameConsumer`` (``/ws/games/<id>/``) serves everyone who may see the game page —
which, like the page, is public. On connect it sends the current ply and status so
a page that reconnects after a drop catches up by refetching its board.
``UserConsumer`` (``/ws/user/``) needs a signed-in user and rings on every page
they have open when one of their games changes. ``ReviewConsumer``
(``/ws/games/<id>/review/``) serves a finished game's replay while its review is
being made: on connect and as the review task goes on, where it stands, so the
Review tab fetches itself again; a game in progress has none (4404). Clients
have nothing to say on any: every frame they send (text, JSON or not, or
binary) is ignored. Any other ``/ws/`` path is refused at the handshake
(``NoSuchSocket``).

A socket that cannot join its group (Redis busy or gone: issue #23, a burst of
new sockets ran the layer's pool dry) is accepted and closed at once with
``CLOSE_TRY_AGAIN`` (4013: RFC 6455's "Try Again Later" is 1013, but Daphne's
WebSocket library sends only 1000 and 3000–4999 from a server): a refused
handshake would reach the page as a bare 1006, with nothing to tell a busy
moment from a dead server. ``static/js/live.js`` reconnects later, with backoff
and jitter, and catches up. So is a socket whose connect met the database away
for a moment (issue #33: a connection cut, ``azulsite.unavailable``), logged as
a warning, not as an application's traceback; ``database_sync_to_async`` closes
the broken connection. A socket that cannot leave its group tries again
after a pause, then is logged; the member expires with ``CHANNEL_GROUP_EXPIRY``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import (
    AsyncJsonWebsocketConsumer,
    AsyncWebsocketConsumer,
)

from accounts import services as account_services
from accounts.models import User
from azulsite.unavailable import database_unavailable
from games import notifications, selectors
from games.people import presence

logger = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404
CLOSE_UNAUTHORISED = 4401
CLOSE_TRY_AGAIN = 4013
LEAVE_ATTEMPTS = 3
# Seconds before a second try to leave, doubled before a third; each pause is
# drawn between half and one and a half times that, so the sockets of a burst of
# closes (a restart, a crowd leaving) do not all try again at the same moment.
LEAVE_PAUSE = 0.5


class Doorbell(AsyncJsonWebsocketConsumer):
    """Sends JSON; ignores whatever the client sends (moves go through the POST)."""

    group = ""
    accepted = False

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        """``connect``, or accept and close with ``CLOSE_TRY_AGAIN`` when it met
        the database away for a moment (any other error still raises)."""
        try:
            await super().websocket_connect(message)
        except Exception as error:
            if not database_unavailable(error):
                raise
            logger.warning("socket closed 4013, database unavailable: %r", error)
            if not self.accepted:
                await self.accept()
            await self.close(code=CLOSE_TRY_AGAIN)

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        self.accepted = True

    async def join(self, group: str) -> bool:
        """Join ``group``, or accept and close with ``CLOSE_TRY_AGAIN``."""
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except Exception as error:
            logger.warning("socket not joined to %s, closed 4013: %r", group, error)
            await self.accept()
            await self.close(code=CLOSE_TRY_AGAIN)
            return False
        self.group = group
        return True

    async def leave(self) -> None:
        """Leave the group joined, trying again a little later if the layer fails."""
        if not self.group:
            return
        pause = LEAVE_PAUSE
        for attempt in range(1, LEAVE_ATTEMPTS + 1):
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
                return
            except Exception as error:
                if attempt == LEAVE_ATTEMPTS:
                    logger.warning(
                        "socket not removed from %s (expires with the group): %r",
                        self.group,
                        error,
                    )
                    return
            await asyncio.sleep(pause * (0.5 + random.random()))
            pause *= 2

    async def seen(self) -> None:
        """A signed-in player's page closed: they were last seen now
        (``accounts.services.user_seen``, docs/together.md "Who is around"); a
        failure is logged, the socket closes all the same."""
        user = self.scope.get("user")
        if not isinstance(user, User) or user.is_computer:
            return
        try:
            await database_sync_to_async(account_services.user_seen)(user_id=user.pk)
        except Exception:
            logger.exception("could not write when a player was last seen")

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
    page: presence.PageWatch | None = None
    """This socket's open page (``games.people.presence``), a signed-in player's."""

    async def connect(self) -> None:
        game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        version = await database_sync_to_async(selectors.game_version)(
            game_id=game_id, user=self.scope.get("user")
        )
        if version is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not await self.join(notifications.game_group(game_id)):
            return
        await self.accept()
        # A signed-in player's open page: online, watching, and no push about
        # this game meanwhile (recorded before the page hears its first message).
        self.page = await presence.page_opened(
            user=self.scope.get("user"),
            game_id=game_id,
            channel_name=self.channel_name,
        )
        ply, status = version
        await self.send_json({"type": "game", "ply": ply, "status": status})

    async def disconnect(self, code: int) -> None:
        await self.leave()
        await presence.page_closed(self.page)
        await self.seen()

    async def game_updated(self, event: dict[str, Any]) -> None:
        message = {"type": "game", "ply": event["ply"], "status": event["status"]}
        if event.get("redraw"):
            # Not a move: a player's vacation (and the clocks) changed.
            message["redraw"] = True
        await self.send_json(message)


class UserConsumer(Doorbell):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        if not await self.join(notifications.user_group(user.pk)):
            return
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()
        await self.seen()

    async def user_updated(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "user",
                "game": event.get("game"),
                "your_turn": bool(event.get("your_turn")),
            }
        )

    async def user_chatted(self, event: dict[str, Any]) -> None:
        """A game's chat changed for this player (``notifications.chatted``)."""
        await self.send_json({"type": "chat", "game": event.get("game")})


class ReviewConsumer(Doorbell):
    """A finished game's review as it is made (docs/review.md): where it
    stands on connect (a page that reconnects catches up), then each ring of
    ``notifications.review_updated``. Not a game page: nothing is recorded of
    who has it open."""

    async def connect(self) -> None:
        game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        progress = await database_sync_to_async(selectors.review_progress)(
            game_id=game_id, user=self.scope.get("user")
        )
        if progress is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not await self.join(notifications.review_group(game_id)):
            return
        await self.accept()
        status, done, total, ahead = progress
        await self.send_json(
            {
                "type": "review",
                "status": status,
                "done": done,
                "total": total,
                "ahead": ahead,
            }
        )

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def review_updated(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "review",
                "status": event["status"],
                "done": event["done"],
                "total": event["total"],
                "ahead": event.get("ahead"),
            }
        )
