"""Two players sign up in separate browsers, meet in the lobby and play round 1."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from games import selectors
from games.models import Game
from tests.e2e.test_live_board import confirm_move
from tests.games.helpers import classic_zones
from tests.games.marks import zones

PASSWORD = "azul-tiles-in-a-row-7"


def sign_up(page: Page, live_url: str, username: str) -> None:
    page.goto(f"{live_url}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.locator("#id_password1").fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    # signed in ("Log out" is in the menu, folded on a phone: issue #25 item 16)
    log_out = page.get_by_role("button", name="Log out", include_hidden=True)
    expect(log_out).to_have_count(1)


def board_ply(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-ply") or "0")


def play_one_move(page: Page) -> None:
    """Pick the first tile group, then its first legal destination, by clicking."""
    before = board_ply(page)
    page.locator("button.group").first.click()
    # choosing tiles is local (static/js/board.js): no request, no new URL
    assert "group=" not in page.url
    legal = page.locator("button.dest.legal")
    expect(legal.first).to_be_visible()
    # the pattern lines that can take the group are highlighted on our own board
    assert page.locator(".player-board.mine .legal").count() >= 1
    legal.first.click()
    confirm_move(page)
    page.wait_for_function(
        "before => Number(document.querySelector('#board').dataset.ply) > before",
        arg=before,
    )
    expect(page.locator("#board .error")).to_have_count(0)


def test_two_players_sign_up_join_and_play_round_one(
    browser: Browser, live_url: str
) -> None:
    # ana plays on a phone-sized screen, binh on a desktop one
    ana = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    binh = browser.new_context().new_page()
    for page in (ana, binh):
        page.set_default_timeout(10_000)
    sign_up(ana, live_url, "ana")
    sign_up(binh, live_url, "binh")

    ana.get_by_text("Menu", exact=True).click()  # on a phone the menu is folded
    ana.get_by_role("link", name="New game").click()
    ana.locator("#id_variant").select_option("classic")
    ana.locator("#id_players").select_option("2")
    # the clock: Brisk, and the line under it says what that means (htmx)
    pace = ana.locator("#clock-pace")
    expect(pace).to_contain_text("Azul, 2 players: about 24 turns each")
    expect(pace).to_contain_text("at most 52 days")  # Daily, the default
    ana.get_by_label("Brisk: 1 day, +4 hours a turn, at most 3 days").check()
    expect(pace).to_contain_text("about 1 week, at most 10 days")
    ana.get_by_role("button", name="Create game").click()
    expect(ana.get_by_text("Game created.")).to_be_visible()
    game_url = ana.url

    binh.goto(live_url)
    binh.get_by_role("button", name="Join").click()
    expect(binh.get_by_text("You joined the game.")).to_be_visible()
    ana.goto(game_url)
    binh.goto(game_url)

    pages = {"ana": ana, "binh": binh}
    moves = 0
    while True:
        ana.reload()
        log = ana.locator(".log").inner_text()
        if "End of round 1" in log:
            break
        status = ana.locator("#board .status").inner_text()
        mover = "ana" if "Your move." in status else "binh"
        page = pages[mover]
        if mover == "binh":
            binh.reload()
        expect(page.locator("#board .status")).to_contain_text("Your move.")
        play_one_move(page)
        moves += 1
        assert moves < 40, "round 1 did not end"

    assert re.search(r"Round 2: \d+ tiles dealt", log)
    assert moves >= 5
    # both boards show scores after the wall tiling of round 1
    expect(ana.locator(".player-board")).to_have_count(2)
    # and ana's page shows the position after round 1's wall tiling exactly
    engine = selectors.game_engine(Game.objects.get())
    assert zones(ana.locator("#board").inner_html()) == classic_zones(engine)
    for context in (ana.context, binh.context):
        context.close()
