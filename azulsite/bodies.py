"""Request bodies bounded before Django reads them: a plain ASGI middleware.

Django's ASGI handler reads the whole body (into memory, then a temporary file)
before any view or upload setting can refuse it. ``BodyLimit`` sits in front of it
(``azulsite/asgi.py``) and answers, without calling Django:

- **413** when ``Content-Length`` says more than ``max_bytes`` — before reading any
  of it;
- **413** as soon as a body without a length (chunked) passes ``max_bytes``;
- **408** when the body has not all arrived after ``timeout`` seconds;
- **400** for a ``Content-Length`` that is not one number.

A body within the limits is handed on to Django whole (it is at most
``max_bytes``, and Django would have read it all before the view anyway).

Under Daphne this bounds what Django does; Daphne itself (Twisted) takes in a
request's whole body before it calls any application, so in production nginx
refuses large and slow bodies first (``deploy/nginx.conf``: the same limit and a
body timeout). ``bench/bodies.py`` measures both.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from http import HTTPStatus
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]

logger = logging.getLogger(__name__)

COMPLETE = "complete"
GONE = "gone"


class BodyLimit:
    def __init__(self, app: ASGIApp, *, max_bytes: int, timeout: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lengths = [v for k, v in scope.get("headers", ()) if k == b"content-length"]
        if len(lengths) > 1 or (lengths and not _is_number(lengths[0])):
            await _refuse(scope, send, HTTPStatus.BAD_REQUEST)
            return
        if lengths and int(lengths[0]) > self.max_bytes:
            await _refuse(scope, send, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            return
        chunks: list[bytes] = []
        try:
            async with asyncio.timeout(self.timeout):
                outcome = await self._read(receive, chunks)
        except TimeoutError:
            outcome = HTTPStatus.REQUEST_TIMEOUT
        if outcome == GONE:
            return  # the client left before its body ended: nobody to answer
        if isinstance(outcome, HTTPStatus):
            await _refuse(scope, send, outcome)
            return
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # Django listens for http.disconnect

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive, chunks: list[bytes]) -> str | HTTPStatus:
        """Read the body into ``chunks``: ``COMPLETE``, ``GONE`` (the client
        disconnected) or the status of a refusal (too large)."""
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return GONE
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                return HTTPStatus.REQUEST_ENTITY_TOO_LARGE
            chunks.append(chunk)
            if not message.get("more_body", False):
                return COMPLETE


def _is_number(value: bytes) -> bool:
    return value.isdigit() and len(value) <= 18


async def _refuse(scope: Scope, send: Send, status: HTTPStatus) -> None:
    logger.warning(
        "%s %s: %d %s", scope.get("method"), scope.get("path"), status, status.phrase
    )
    text = f"{status.value} {status.phrase}\n".encode()
    await send(
        {
            "type": "http.response.start",
            "status": status.value,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(text)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text})
