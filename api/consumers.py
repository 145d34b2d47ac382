"""The event stream (``GET /api/stream/events``, server-sent events), served
by a stock Channels HTTP consumer before Django's request handler: an open
stream holds no thread (Django's handler keeps one per request while it
streams, ``bench/streams.py``), only its channel on the channel layer.

On open: what is current for the token's account (``gameStart`` for each game
in progress, ``yourTurn`` where it is its move, ``challenge`` for each
invitation waiting), then each event as it is logged (``api.receivers`` rings
``stream.events_group`` after writing it; the consumer reads the log after its
cursor), and a comment line every ``KEEP_ALIVE`` seconds, which also keeps the
token's last use fresh (the ladder's "online"). One stream per token: a new
one closes the one before (``stream.token_group``). Errors as the API's:
401 without a live token, 403 without ``game:read``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer

from api import services, stream
from api.models import ApiToken

HEADERS = [
    (b"Content-Type", b"text/event-stream"),
    (b"Cache-Control", b"no-cache"),
    (b"X-Accel-Buffering", b"no"),  # nginx passes each event at once
]


def _bearer(scope: dict[str, Any]) -> str:
    for name, value in scope.get("headers", []):
        if name.lower() == b"authorization":
            text = value.decode("latin-1")
            if text[:7].lower() == "bearer ":
                return text[7:].strip()
    return ""


class EventStream(AsyncHttpConsumer):
    token: ApiToken | None = None
    cursor = 0
    beat: asyncio.Task[None] | None = None
    groups: tuple[str, ...] = ()

    async def _refuse(self, status: int, message: str) -> None:
        await self.send_response(
            status,
            json.dumps({"error": message}).encode(),
            headers=[(b"Content-Type", b"application/json")],
        )

    async def http_request(self, message: dict[str, Any]) -> None:
        """Unlike the stock consumer, the response stays open after
        ``handle``: the channel layer's rings are dispatched to it until the
        client goes or a newer stream of its token closes it."""
        if message.get("more_body"):
            return
        if not await self.handle(b""):
            await self.disconnect()
            raise StopConsumer()

    async def handle(self, body: bytes) -> bool:
        """Open the stream; whether it stays open."""
        if self.scope.get("method") != "GET":
            await self._refuse(405, "GET only")
            return False
        token = await database_sync_to_async(services.token_for)(_bearer(self.scope))
        if token is None:
            await self._refuse(
                401, "a live token is needed: Authorization: Bearer azul_…"
            )
            return False
        if "game:read" not in token.scopes:
            await self._refuse(403, "this token lacks the scope game:read")
            return False
        self.token = token
        layer = self.channel_layer
        await layer.group_send(stream.token_group(token.pk), {"type": "api.close"})
        self.groups = (stream.token_group(token.pk), stream.events_group(token.user_id))
        for group in self.groups:
            await layer.group_add(group, self.channel_name)
        lines, self.cursor = await database_sync_to_async(stream.current)(token.user_id)
        await self.send_headers(headers=HEADERS)
        await self.send_body("".join(lines).encode(), more_body=True)
        self.beat = asyncio.ensure_future(self._keep_alive())
        return True

    async def _keep_alive(self) -> None:
        """A comment line every ``KEEP_ALIVE`` seconds, the first at a random
        point of the first period (streams opened together do not beat
        together), and the token's last use written once a minute (the
        database calls of every stream share one thread)."""
        await asyncio.sleep(random.uniform(0, stream.KEEP_ALIVE))
        touched = time.monotonic()
        while True:
            if self.token is not None and time.monotonic() - touched >= 60:
                touched = time.monotonic()
                await database_sync_to_async(services.token_touch)(self.token)
            await self.send_body(b": keep-alive\n\n", more_body=True)
            await asyncio.sleep(stream.KEEP_ALIVE)

    async def api_event(self, message: dict[str, Any]) -> None:
        """New events were logged for the account: send those after the cursor."""
        if self.token is None:
            return
        rows = await database_sync_to_async(stream.after)(
            self.token.user_id, self.cursor
        )
        text = ""
        for row in rows:
            self.cursor = row.pk
            text += stream.line(row.pk, row.kind, row.data)
        if text:
            await self.send_body(text.encode(), more_body=True)

    async def api_close(self, message: dict[str, Any]) -> None:
        """A newer stream of the same token opened: this one ends."""
        await self.send_body(b"", more_body=False)
        await self.disconnect()
        raise StopConsumer()

    async def disconnect(self) -> None:
        if self.beat is not None:
            self.beat.cancel()
            self.beat = None
        for group in self.groups:
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(group, self.channel_name)
        self.groups = ()
