"""The browser fixtures of tests/e2e (Daphne live server, Chromium launch args).

This folder's path holds ``/e2e/``, so tests/conftest.py runs it with the other
browser tests, last (docs/stack.md pitfall 3).
"""

from tests.e2e.conftest import (  # noqa: F401
    _async_unsafe_with_playwright,
    _needs_chromium,
    browser_type_launch_args,
    live_url,
)
