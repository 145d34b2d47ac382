"""Waits for what a browser test means (issue #36 item 8), not for a fixed time.

``static/js/live.js`` marks the page's body while each of its sockets is open
(``data-user-socket-open``, ``data-game-socket-open``,
``data-review-socket-open``): the server joins a socket's group before it
accepts it, so from the mark on the page hears every ring.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

SOCKETS = ("user", "game", "review")

UNSETTLED = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"
"""What htmx marks while a request or a swap is under way."""


def sockets_open(page: Page, *names: str) -> None:
    """Wait until each named socket of ``page`` is open (``SOCKETS``)."""
    assert names and set(names) <= set(SOCKETS), names
    for name in names:
        expect(page.locator("body")).to_have_attribute(
            f"data-{name}-socket-open", "true"
        )


def settled(page: Page) -> None:
    """Wait until no htmx request or swap of ``page`` is under way."""
    expect(page.locator(UNSETTLED)).to_have_count(0)
