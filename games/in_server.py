"""Loops that run inside the Daphne process (the README's one-command set-up):
the deadline job (``DEADLINE_LOOP_SECONDS``) and the task worker
(``TASK_WORKER_IN_SERVER``), started by ``azulsite/asgi.py``."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Coroutine
from typing import Any

logger = logging.getLogger(__name__)

_running: set[asyncio.Task[None]] = set()


def start_with_daphne(
    loop: Callable[[], Coroutine[Any, Any, None]], *, otherwise: str
) -> None:
    """Run ``loop()`` in Daphne's event loop once the server runs, cancelled at
    its shutdown. Daphne runs Twisted's asyncio reactor and ``callWhenRunning``
    is Twisted's hook for work that starts with the server; under anything else
    log ``otherwise`` (what to run instead) and do nothing."""
    from twisted.internet import asyncioreactor

    reactor = sys.modules.get("twisted.internet.reactor")
    if not isinstance(reactor, asyncioreactor.AsyncioSelectorReactor):
        logger.warning(otherwise)
        return

    def start() -> None:
        task = asyncio.get_event_loop().create_task(loop())
        _running.add(task)
        task.add_done_callback(_running.discard)
        reactor.addSystemEventTrigger("before", "shutdown", task.cancel)

    reactor.callWhenRunning(start)
