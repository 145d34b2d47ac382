"""Loops that run inside the Daphne process (the README's one-command set-up):
the deadline job (``DEADLINE_LOOP_SECONDS``) and the task worker
(``TASK_WORKER_IN_SERVER``), started by ``azulsite/asgi.py``.

At the server's shutdown (SIGTERM, Ctrl-C) each loop's task is cancelled and
:data:`stopping` is set. A pass already running in a thread (a computer's
decision, a review that takes minutes) cannot be cancelled, and the interpreter
waits for those threads before it exits; so the work in them checks
:data:`stopping` between its steps and hands back what it has not done (the
task worker runs no further task; a review goes back to the queue,
``tasks.review_game``), and the server exits within seconds (issue #35 item 9).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Callable, Coroutine
from typing import Any

logger = logging.getLogger(__name__)

_running: set[asyncio.Task[None]] = set()

stopping = threading.Event()
"""Set when this server shuts down: work running in a loop's thread stops at its
next step (never set outside a Daphne process that started a loop)."""


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
        reactor.addSystemEventTrigger("before", "shutdown", stopping.set)
        reactor.addSystemEventTrigger("before", "shutdown", task.cancel)

    reactor.callWhenRunning(start)
