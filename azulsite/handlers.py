"""Django's ASGI handler, running the request stack in one worker-thread hop.

Every view and middleware of this site is synchronous. Under Django's own
``ASGIHandler`` each ``MiddlewareMixin`` middleware runs its ``process_request``
and ``process_response`` through ``sync_to_async`` separately, and a sync-only
middleware (whitenoise) forces an ``async_to_sync`` hop back for the rest of the
chain: ~16 thread hand-overs per request, which on a busy Daphne process cost
more than the view itself (``bench/http.py``). This handler builds the middleware
chain in sync mode (as under WSGI) and runs it, view included, in a single
``sync_to_async`` call, together with the ``request_started`` and
``request_finished`` signals (Django gives each its own hop; see ``handle``).
Reading the body and sending the response are Django's own ASGI code.

It also leaves out Django's per-request ``ThreadSensitiveContext``, so the sync
work of every request runs on asgiref's one thread-sensitive thread, first come
first served — like one single-threaded WSGI worker, with one database
connection. Measured with 50 players (README, "Benchmark"): a thread per request
made the requests share the GIL in 5 ms slices and made concurrent SQLite writers
wait in SQLite's sleeping busy handler (move POST p95 1.5 s at 48 moves/s); one
thread gives 79 moves/s with p95 0.24 s. The cost: a slow request holds up the
others of this process (a login's password hash, ~0.3 s); run several processes
behind a proxy with ``REDIS_URL`` set when that matters.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from asgiref.typing import ASGIReceiveCallable as Receive
from asgiref.typing import ASGISendCallable as Send
from asgiref.typing import Scope
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpRequest, HttpResponseBase
from django.urls import set_script_prefix


class SyncStackASGIHandler(ASGIHandler):
    """Django's ASGI handler with a sync middleware chain run in one hop."""

    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle HTTP, not {scope['type']}.")
        await self.handle(scope, receive, send)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Django's ``ASGIHandler.handle`` with one thread hop instead of three.

        Django runs the ``request_started`` receivers, the response and
        ``response.close()`` (the ``request_finished`` receivers) in three
        ``sync_to_async`` calls, beside a task listening for a disconnect so that an
        async view can be cancelled. Every view here is sync and cannot be
        cancelled, so ``_serve`` does all three in one call; only a streaming
        response (a static file) is closed after it was sent, as Django does. A
        reply to a client that went away is dropped by Daphne.
        """
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            set_script_prefix(get_script_prefix(scope))
            response = await sync_to_async(self._serve, thread_sensitive=True)(
                scope, body_file
            )
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:
                    await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _serve(self, scope: Scope, body_file: Any) -> HttpResponseBase:
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response = error_response if request is None else self.get_response(request)
        if not response.streaming:
            response.close()  # request_finished: before sending, in this thread
        return response


def get_asgi_application() -> SyncStackASGIHandler:
    """Like ``django.core.asgi.get_asgi_application``, with the one-hop handler."""
    import django

    django.setup(set_prefix=False)
    return SyncStackASGIHandler()
