"""The creator's "waiting for players" page keeps itself current: it lists each
seat as it fills and turns into the game when the last one does, without the
player reloading it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, Page, expect

from games import services
from tests.e2e.test_live_board import PASSWORD, confirm_move, log_in

from .waits import sockets_open


def _open_game(creator):
    def create():
        return services.game_create(
            creator=creator,
            variant="classic",
            players=3,
            rated=False,
            invitees=[],
        )

    with ThreadPoolExecutor(1) as pool:  # the ORM outside Playwright's loop
        return pool.submit(create).result()


def _join(browser: Browser, live_url: str, username: str, game_id: int) -> Page:
    """``username`` joins from their own browser (the lobby's Join button)."""
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, username)
    page.goto(f"{live_url}/games/{game_id}/")
    page.get_by_role("button", name="Join this game").click()
    expect(page.get_by_text("You joined the game.")).to_be_visible()
    return page


def test_the_waiting_page_fills_its_seats_and_turns_into_the_game(
    browser: Browser, live_url: str, make_user
):
    ana = make_user("ana", PASSWORD)
    for name in ("binh", "chloe"):
        make_user(name, PASSWORD)
    game = _open_game(ana)
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, "ana")
    page.goto(f"{live_url}/games/{game.pk}/")
    seats = page.locator(".seats li")
    expect(seats).to_have_text(["ana", "open seat", "open seat"])
    page.evaluate("window.__notReloaded = true")
    sockets_open(page, "user", "game")

    pages = {"ana": page, "binh": _join(browser, live_url, "binh", game.pk)}
    expect(seats).to_have_text(["ana", "binh", "open seat"])
    expect(page.locator("#board")).to_have_count(0)

    pages["chloe"] = _join(browser, live_url, "chloe", game.pk)
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator(".player-board")).to_have_count(3)
    expect(page.locator(".seats")).to_have_count(0)
    assert page.evaluate("window.__notReloaded") is True
    # the board then follows the game like any game page: the first move shows
    ply = int(page.locator("#board").get_attribute("data-ply") or 0)
    others = [pages["binh"], pages["chloe"]]
    mover = next(
        (p for p in others if "Your move." in _board_status(p, live_url, game.pk)),
        page,  # neither: ana moves on her own (never reloaded) page
    )
    mover.locator("button.group").first.click()
    mover.locator("button.dest.legal").first.click()
    confirm_move(mover)
    page.wait_for_function(
        "ply => Number(document.querySelector('#board').dataset.ply) > ply", arg=ply
    )
    assert page.evaluate("window.__notReloaded") is True
    for each in pages.values():
        each.context.close()


def _board_status(page: Page, live_url: str, game_id: int) -> str:
    page.goto(f"{live_url}/games/{game_id}/")
    return page.locator("#board .status").inner_text()
