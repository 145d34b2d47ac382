"""static/js/live.js reconnects with backoff and jitter when the server says
"try again later" (close code 4013, games/consumers.py) or a socket never opens,
and at once after a socket that worked (issue #23: a burst of pages through the
proxy must not come back all at once, nor hammer a busy server).

The script runs in Chromium as the site serves it, on a page with a player's
socket; WebSocket, setTimeout and Math.random are stand-ins the test drives, so
every wait the script asks for is read exactly, with no clock involved.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

LIVE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "live.js"
SITE = "http://azul.test"

STAND_INS = """
window.__sockets = [];
window.__waits = [];
window.__random = 0;
Math.random = function () { return window.__random; };
window.setTimeout = function (callback, ms) {
  window.__waits.push({ callback: callback, ms: ms });
  return window.__waits.length;
};
window.WebSocket = function (url) {
  this.url = url;
  window.__sockets.push(this);
};
"""

PAGE = (
    '<!doctype html><html><head><script src="/static/js/live.js"></script></head>'
    '<body data-user-socket="/ws/user/"><main id="main"></main></body></html>'
)


@pytest.fixture
def live_page(browser: Browser) -> Page:
    context = browser.new_context()
    context.add_init_script(STAND_INS)
    context.route(
        f"{SITE}/static/js/live.js",
        lambda route: route.fulfill(
            body=LIVE_JS.read_text(), content_type="text/javascript"
        ),
    )
    context.route(
        f"{SITE}/", lambda route: route.fulfill(body=PAGE, content_type="text/html")
    )
    page = context.new_page()
    page.goto(f"{SITE}/")
    page.wait_for_function("window.__sockets.length === 1")
    return page


def _close(page: Page, code: int, *, opened: bool, random: float = 0.0) -> float:
    """Open (or not) the newest socket, close it with ``code``; the wait the
    script then asks for before its next try, which the test then lets run."""
    return page.evaluate(
        """([code, opened, random]) => {
          const socket = window.__sockets[window.__sockets.length - 1];
          window.__random = random;
          if (opened) socket.onopen();
          const before = window.__waits.length;
          socket.onclose({ code: code });
          const waits = window.__waits.slice(before);
          if (waits.length !== 1) throw new Error("expected one wait");
          const count = window.__sockets.length;
          waits[0].callback();
          if (window.__sockets.length !== count + 1) throw new Error("no retry");
          return waits[0].ms;
        }""",
        [code, opened, random],
    )


def test_the_page_opens_its_socket_on_the_sites_host(live_page):
    assert live_page.evaluate("window.__sockets[0].url") == "ws://azul.test/ws/user/"


def test_try_again_later_backs_off_doubling_up_to_thirty_seconds(live_page):
    # The lowest each wait can be (random 0): half of a doubling ceiling.
    waits = [_close(live_page, 4013, opened=True) for _ in range(7)]
    assert waits == [1000, 2000, 4000, 8000, 15000, 15000, 15000]


def test_each_wait_is_a_random_point_in_the_upper_half(live_page):
    first = _close(live_page, 4013, opened=True, random=0.999)
    second = _close(live_page, 4013, opened=True, random=0.5)
    assert 1990 < first < 2000  # ceiling 2 s: between 1 and 2 s
    assert second == 3000  # ceiling 4 s: halfway through its upper half


def test_a_socket_that_never_opens_backs_off_too(live_page):
    waits = [_close(live_page, 1006, opened=False) for _ in range(3)]
    assert waits == [1000, 2000, 4000]


def test_after_a_socket_that_worked_the_page_reconnects_within_a_second(live_page):
    for _ in range(4):
        _close(live_page, 4013, opened=True)
    # A socket that opened and was closed otherwise (the server's hourly
    # close, a restart): the back-off starts again, 0.5 to 1 s.
    assert _close(live_page, 1000, opened=True) == 500
    assert _close(live_page, 1006, opened=True, random=0.999) == pytest.approx(999.5)
