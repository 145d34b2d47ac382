"""When a board action fails, the player is told (static/js/errors.js), and an
ended session leads to the log-in page as a whole page
(accounts.middleware.HtmxLoginRedirectMiddleware); nothing is played."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from games.models import Move

from .test_live_board import PASSWORD, log_in, start_game


def _play_first_group(page) -> None:
    page.locator("button.group").first.click()
    page.locator("button.dest.legal").first.click()


def test_a_failed_move_says_so_and_an_ended_session_goes_to_log_in(
    browser: Browser, live_url: str, make_user
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    mover = ana if game.seat_to_move == 0 else binh
    # The move's own POST is what fails here: one click sends it.
    mover.confirm_moves = False
    mover.save(update_fields=["confirm_moves"])
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, mover.username)
    board_url = f"{live_url}/games/{game.pk}/"
    page.goto(board_url)
    ply = page.locator("#board").get_attribute("data-ply")

    # Without its CSRF cookie the POST is refused (403): a toast says why.
    context.clear_cookies(name="csrftoken")
    _play_first_group(page)
    alert = page.locator("#toasts .toast.error[role=alert]")
    expect(alert).to_contain_text("This page is out of date")
    assert page.locator("#board").get_attribute("data-ply") == ply
    assert Move.objects.filter(game=game).count() == game.ply

    # With the session gone, the move leads to the log-in page, then back.
    page.goto(board_url)  # a fresh page and CSRF cookie
    context.clear_cookies(name="sessionid")
    _play_first_group(page)
    page.wait_for_url(f"{live_url}/accounts/login/?next=*")
    assert Move.objects.filter(game=game).count() == game.ply
    page.get_by_label("Username").fill(mover.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(board_url)
    expect(page.locator("#board .status")).to_contain_text("Your move.")
    context.close()
