"""Presence changes when a page opens and closes (issue #26 item 5): binh reads
ana's profile; ana opens a game page (its socket opens) and binh's reload says
"online now"; ana closes it and, once the socket has closed, binh's reload says
"last seen" again."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, expect

from accounts.models import GamePage

from .test_live_board import PASSWORD, log_in, start_game


@pytest.fixture
def _online_from_sockets_only(settings) -> None:
    """Requests never make a player online here, only open pages: so closing
    the page is seen at once, with no window of minutes to wait out. Set before
    the live server forks, which takes the settings with it."""
    settings.PRESENCE_ONLINE_SECONDS = 0


@pytest.fixture
def live_url(_online_from_sockets_only: None, live_url: str) -> Iterator[str]:
    """The conftest's live server, started after the setting above."""
    yield live_url


def _until(condition: Callable[[], bool], what: str) -> None:
    """Wait for the server's side to catch up (a socket opens or closes)."""
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not {what}")
        time.sleep(0.1)


def test_presence_follows_a_game_page_opening_and_closing(
    browser: Browser, live_url: str, make_user
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)

    ana_page = browser.new_context().new_page()
    ana_page.set_default_timeout(10_000)
    log_in(ana_page, live_url, "ana")
    binh_page = browser.new_context().new_page()
    binh_page.set_default_timeout(10_000)
    log_in(binh_page, live_url, "binh")

    binh_page.goto(f"{live_url}/accounts/players/ana/")
    mark = binh_page.locator("h1 + p .presence")
    expect(mark).to_have_attribute("data-presence", "away")
    expect(mark).to_have_text("last seen just now")

    ana_page.goto(f"{live_url}/games/{game.pk}/")
    expect(ana_page.locator("#board")).to_have_attribute("data-status", "active")
    _until(lambda: GamePage.objects.filter(user=ana).exists(), "open")
    binh_page.reload()
    expect(mark).to_have_attribute("data-presence", "online")
    expect(mark).to_have_text("online now")

    # binh on the game page sees ana beside her name, online; nobody watches
    binh_page.goto(f"{live_url}/games/{game.pk}/")
    players = binh_page.locator("p.players")
    expect(players.locator(".presence")).to_have_count(2)
    beside_ana = players.locator("a[href$='/players/ana/'] + .presence")
    expect(beside_ana).to_have_attribute("data-presence", "online")
    expect(binh_page.locator("#board .watchers")).to_have_attribute(
        "data-watchers", "0"
    )

    ana_page.close()
    _until(lambda: not GamePage.objects.filter(user=ana).exists(), "closed")
    binh_page.goto(f"{live_url}/accounts/players/ana/")
    expect(mark).to_have_attribute("data-presence", "away")
    expect(mark).to_have_text("last seen just now")
    binh_page.context.close()
