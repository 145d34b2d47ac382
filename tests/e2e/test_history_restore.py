"""Back after htmx's history cache lost the page: htmx asks the server again
(``HX-Request`` with ``HX-History-Restore-Request``) and swaps the answer into
``<body>``; the player sees one whole page, header and board, not a partial alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_live_board import PASSWORD, log_in, start_game
from tests.e2e.test_place_on_board import _a_take, _engine, _group
from tests.games.helpers import classic_zones
from tests.games.marks import zones

CACHE = "htmx-history-cache"  # htmx 2 keeps it in sessionStorage


@pytest.fixture
def game_and_page(browser: Browser, live_url: str, make_user):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    mover = {0: ana, 1: binh}[game.seat_to_move]
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, mover.username)
    yield game, page
    page.context.close()


def _back_past_an_empty_cache(page: Page, url: str) -> None:
    """Forget htmx's copies of the pages, go Back to ``url``, and wait until
    htmx has drawn what the server answered its restore request."""
    assert url in (page.evaluate(f"sessionStorage.getItem('{CACHE}')") or "")
    page.evaluate(f"sessionStorage.removeItem('{CACHE}')")
    page.evaluate(  # <html> stays: htmx swaps what is inside <body>
        "document.addEventListener('htmx:historyRestore',"
        " () => { document.documentElement.dataset.restored = 'yes' })"
    )
    with page.expect_request(
        lambda request: request.headers.get("hx-history-restore-request") == "true"
    ):
        page.go_back()
    expect(page.locator("html[data-restored]")).to_have_count(1)
    assert page.url.endswith(url)


def _one_whole_page(page: Page) -> None:
    expect(page.locator("header.site-header")).to_have_count(1)
    expect(page.locator("main#main")).to_have_count(1)
    expect(page.get_by_role("button", name="Log out")).to_have_count(1)


def test_back_to_a_game_page_shows_the_whole_page(live_url: str, game_and_page):
    game, page = game_and_page
    path = f"/games/{game.pk}/"
    page.goto(live_url + path)
    engine = _engine(game.pk)
    take = _a_take(engine, floor=False)
    _group(page, take).click()
    # the line: an hx-get of the preview to confirm, which pushes ?group=&line=
    page.locator(f'[data-zone="line-{game.seat_to_move}-{take.line}"]').click()
    expect(page.locator("#board form.confirm-move")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"\?group=.*&line="))
    _back_past_an_empty_cache(page, path)
    _one_whole_page(page)
    expect(page.locator("#board")).to_have_count(1)
    assert zones(page.locator("#board").inner_html()) == classic_zones(engine)
    expect(page.locator("#board form.confirm-move")).to_have_count(0)


def test_back_to_a_replay_shows_the_whole_page(live_url: str, game_and_page):
    game, page = game_and_page
    path = f"/games/{game.pk}/replay/"
    page.goto(live_url + path)
    page.get_by_role("link", name="First").click()  # hx-get, pushes ?ply=0
    expect(page.locator("#replay")).to_have_attribute("data-ply", "0")
    _back_past_an_empty_cache(page, path)
    _one_whole_page(page)
    expect(page.locator("#replay")).to_have_count(1)
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(game.ply))
    drawn = zones(page.locator("#replay").inner_html())
    assert drawn == classic_zones(_engine(game.pk))
