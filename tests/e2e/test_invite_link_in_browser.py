"""A link invitation taken by a new account (issue #26 item 2): ana creates a
two-player game "by link" and copies the link from her game page; someone
without an account opens it in a fresh browser, signs up on the way and lands
seated on the game page, and ana's open page shows the game started."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from games.models import Game

from .test_live_board import PASSWORD, log_in
from .waits import sockets_open


def _seats_of(game_id: int) -> list[tuple[str, str]]:
    def read() -> list[tuple[str, str]]:
        game = Game.objects.get(pk=game_id)
        return [
            (seat.user.username if seat.user else "", seat.invite_status)
            for seat in game.seats.select_related("user").order_by("number")
        ]

    with ThreadPoolExecutor(1) as pool:  # the ORM outside Playwright's loop
        return pool.submit(read).result()


def test_a_new_account_takes_the_seat_through_the_link(
    browser: Browser, live_url: str, make_user
):
    make_user("ana", PASSWORD)
    ana_context = browser.new_context()
    ana_context.grant_permissions(["clipboard-read", "clipboard-write"])
    ana = ana_context.new_page()
    ana.set_default_timeout(10_000)
    log_in(ana, live_url, "ana")
    ana.goto(f"{live_url}/games/new/")
    ana.get_by_label("Invite by link").check()
    ana.get_by_role("button", name="Create game").click()
    expect(ana.locator(".seats li")).to_have_text(["ana", "open seat"])

    # the link, copied with the page's Copy button
    field = ana.get_by_label("Invitation link", exact=False)
    shown = field.input_value()
    assert shown.startswith(f"{live_url}/join/")
    ana.get_by_role("button", name="Copy").click()
    expect(ana.get_by_role("status").filter(has_text="Copied")).to_be_visible()
    copied = ana.evaluate("navigator.clipboard.readText()")
    assert copied == shown
    game_url = ana.url
    game_id = int(game_url.rstrip("/").rsplit("/", 1)[1])
    ana.evaluate("window.__notReloaded = true")
    sockets_open(ana, "user", "game")  # the waiting page's sockets

    # someone without an account opens it
    guest = browser.new_context().new_page()
    guest.set_default_timeout(10_000)
    guest.goto(copied)
    expect(guest.locator("h1")).to_have_text("ana invites you to play")
    expect(guest.locator(".seats li")).to_have_text(["ana", "open seat"])
    # the game's clock in words: the default bank, Daily (issue #37)
    expect(guest.locator(".seats .meta")).to_contain_text(
        "2 players, 3 days, +1 day a turn, at most 7 days, unrated"
    )
    guest.get_by_role("button", name="Sign up and take the seat").click()
    expect(guest.locator("h1")).to_have_text("Sign up")
    guest.get_by_label("Username").fill("eun")
    guest.locator("#id_password1").fill(PASSWORD)
    guest.get_by_label("Password confirmation").fill(PASSWORD)
    guest.get_by_role("button", name="Create my account").click()

    # seated, on the game page: the game has started
    expect(guest).to_have_url(game_url)
    expect(guest.locator(".messages")).to_contain_text("You took the seat.")
    expect(guest.locator("#board")).to_have_attribute("data-status", "active")
    expect(guest.locator("p.players a")).to_have_text(["ana", "eun"])
    assert _seats_of(game_id) == [("ana", "joined"), ("eun", "joined")]

    # ana's page, left open, shows it without being reloaded; the link is gone
    expect(ana.locator("#board")).to_have_attribute("data-status", "active")
    expect(ana.locator("p.players a")).to_have_text(["ana", "eun"])
    expect(ana.locator("#invite-link-url")).to_have_count(0)
    assert ana.evaluate("window.__notReloaded") is True

    # the link no longer works for anyone else
    late = browser.new_context().new_page()
    late.set_default_timeout(10_000)
    answer = late.goto(copied)
    assert answer is not None and answer.status == 410
    expect(late.locator("h1")).to_have_text("This invitation link no longer works")
    for page in (ana, guest, late):
        page.context.close()
