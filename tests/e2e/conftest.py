"""Browser tests: Debian's Chromium driven by Playwright against a Daphne server.

Follows docs/stack.md: a fork-safe Daphne process (pitfalls 1, 2, 4), the test database
in a file, ``DJANGO_ALLOW_ASYNC_UNSAFE`` for ORM calls next to Playwright's loop
(pitfall 3), and these tests sorted last by ``tests/conftest.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from daphne.testing import DaphneProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(autouse=True)
def _needs_chromium() -> None:
    if not Path(CHROMIUM).exists():
        if os.environ.get("AZUL_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")


@pytest.fixture(scope="session")
def _async_unsafe_with_playwright() -> Iterator[None]:
    """Playwright's sync API keeps an event loop running in this thread; Django's
    ORM (test database set-up, the tests' own queries) must be allowed beside it.
    Session-wide because the browser is; browser tests run last (pitfall 3)."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def browser_type_launch_args(_async_unsafe_with_playwright: None) -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


class ForkSafeDaphneProcess(DaphneProcess):
    """asgiref's single-thread executor does not survive a fork (pitfall 2)."""

    def run(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        from asgiref.sync import SyncToAsync

        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        super().run()


def _application() -> Any:
    from channels.routing import get_default_application
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    return ASGIStaticFilesHandler(get_default_application())


def _serve_reviews() -> None:
    """In the live server's process: its database, and the review queue's
    worker inside it (as ``TASK_WORKER_IN_SERVER`` runs it), so the review's
    doorbells ring this server's sockets on the in-memory channel layer."""
    from channels.testing.live import set_database_connection

    from games import in_server, tasks

    set_database_connection()
    in_server.start_with_daphne(
        lambda: tasks.run_queue_in_server(tasks.REVIEW_QUEUE, 0.2),
        otherwise="the live server runs no review worker",
    )


def _live_server(setup: Any) -> Iterator[str]:
    """A Daphne server in a forked process, sharing the (file) test database;
    ``setup`` runs in that process before it serves."""
    from django.db import connections

    for connection in connections.all():
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            pytest.fail(
                "the live server needs a file database (docs/stack.md pitfall 4)"
            )
    connections.close_all()
    process = ForkSafeDaphneProcess("127.0.0.1", partial(_application), setup=setup)
    process.start()
    if not process.ready.wait(timeout=30):
        process.terminate()
        raise RuntimeError("Daphne did not start")
    try:
        yield f"http://127.0.0.1:{process.port.value}"
    finally:
        process.terminate()
        process.join(timeout=10)


@pytest.fixture
def live_url(
    _async_unsafe_with_playwright: None, transactional_db: None
) -> Iterator[str]:
    """A Daphne server in a forked process, sharing the (file) test database."""
    from channels.testing.live import set_database_connection

    yield from _live_server(set_database_connection)


@pytest.fixture
def live_url_reviewing(
    _async_unsafe_with_playwright: None, transactional_db: None
) -> Iterator[str]:
    """``live_url`` whose process also runs the review queue's worker: a
    review queued by the test is made there, and rings its doorbell there."""
    yield from _live_server(_serve_reviews)
