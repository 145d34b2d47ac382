"""A vacation reaches the opponents' open pages live (issue #25 item 14): the
note "… is on vacation until …: their clock is stopped." appears when the
player starts it in Settings, and goes when they move, which ends it
(docs/clock.md, "A move ends a vacation"); the player is told so."""

from __future__ import annotations

from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts.models import Vacation
from tests.e2e.test_live_board import PASSWORD, confirm_move, log_in, start_game

from .waits import sockets_open


def test_the_note_comes_with_the_vacation_and_goes_with_the_move(
    browser: Browser, live_url: str, make_user
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    away, other = (ana, binh) if game.seat_to_move == 0 else (binh, ana)
    note = f"{away.username} is on vacation until"

    watcher = browser.new_context().new_page()
    watcher.set_default_timeout(10_000)
    log_in(watcher, live_url, other.username)
    watcher.goto(f"{live_url}/games/{game.pk}/")
    context = browser.new_context()
    board = context.new_page()
    board.set_default_timeout(10_000)
    log_in(board, live_url, away.username)
    board.goto(f"{live_url}/games/{game.pk}/")
    for page in (watcher, board):
        expect(page.locator("#board .vacation")).to_have_count(0)
        page.evaluate("window.__notReloaded = true")
        sockets_open(page, "user", "game")

    settings = context.new_page()
    settings.set_default_timeout(10_000)
    settings.goto(f"{live_url}/accounts/settings/")
    vacation = settings.locator("section[aria-labelledby='h-vacation']")
    vacation.get_by_label("Days of vacation").fill("3")
    vacation.get_by_role("button", name="Start my vacation now").click()
    expect(settings.get_by_text("You are on vacation until")).to_be_visible()

    expect(watcher.locator("#board .vacation")).to_have_count(1)
    expect(watcher.locator("#board .vacation")).to_contain_text(note)
    expect(watcher.locator("#board .vacation")).to_contain_text(
        "their clock is stopped."
    )
    expect(board.locator("#board .vacation")).to_contain_text(note)

    board.locator("button.group").first.click()
    board.locator("button.dest.legal").first.click()
    confirm_move(board)

    expect(board.locator(".toast.notice")).to_have_text(
        "Your vacation has ended: you are playing again. ×"
    )
    expect(board.locator("#board .vacation")).to_have_count(0)
    expect(watcher.locator("#board .vacation")).to_have_count(0)
    expect(watcher.locator("#board .status")).to_contain_text("Your move.")
    assert Vacation.objects.get(user=away).ends_at <= timezone.now()
    for page in (watcher, board):
        assert page.evaluate("window.__notReloaded") is True
    watcher.context.close()
    context.close()
