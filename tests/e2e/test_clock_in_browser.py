"""The bank clock in a browser (issue #37 item 3): every seat's bank on both
players' boards, the viewer's first, the seat to move's counting down
(static/js/banks.js: ``data-left`` falls below ``data-bank-seconds``, the
seconds the server drew) and, after a move, the other seat's; the home page's
"Your move" list ordered by the time left, which it shows."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from games import selectors, services
from games.models import Game
from tests.e2e.test_live_board import PASSWORD, confirm_move, log_in, start_game
from tests.games.helpers import move_event

from .waits import settled, sockets_open

COUNTING_DOWN = """seat => {
  const bank = document.querySelector(`#board .bank[data-seat="${seat}"]`);
  return bank && bank.dataset.left !== undefined &&
    Number(bank.dataset.left) < Number(bank.dataset.bankSeconds);
}"""
"""The bank of ``seat`` on the page's board has counted down from what the
server drew (at least a second)."""


def _open(browser: Browser, live_url: str, user, game: Game) -> Page:
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, user.username)
    page.goto(f"{live_url}/games/{game.pk}/")
    return page


def _bank_seats(page: Page) -> list[str]:
    return [
        bank.get_attribute("data-seat") or ""
        for bank in page.locator("#board .bank").all()
    ]


def test_the_bank_to_move_counts_down_on_both_boards(
    browser: Browser, live_url: str, make_user
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    first, second = (ana, binh) if game.seat_to_move == 0 else (binh, ana)
    moving, waiting = str(game.seat_to_move), str(1 - game.seat_to_move)
    pages = {
        first.username: _open(browser, live_url, first, game),
        second.username: _open(browser, live_url, second, game),
    }
    mover, watcher = pages[first.username], pages[second.username]

    # both banks on both boards, each player's own first
    assert _bank_seats(mover) == [moving, waiting]
    assert _bank_seats(watcher) == [waiting, moving]
    for page in (mover, watcher):
        running = page.locator(f'#board .bank[data-seat="{moving}"]')
        expect(running).to_have_attribute("data-running", "true")
        page.wait_for_function(COUNTING_DOWN, arg=moving)
        expect(running.locator(".bank-count")).to_be_visible()
        expect(running.locator(".bank-count")).to_contain_text("left")
        expect(running.locator(".bank-until")).to_contain_text("until")
        # the waiting seat's bank stands still: 3 days, not yet moved
        still = page.locator(f'#board .bank[data-seat="{waiting}"]')
        expect(still).to_have_attribute("data-bank-seconds", str(3 * 86400))
        expect(still).not_to_have_attribute("data-running", "true")
        expect(still).to_contain_text("3 days left")

    sockets_open(watcher, "user", "game")
    before = int(watcher.locator("#board").get_attribute("data-ply") or 0)
    mover.locator("button.group").first.click()
    mover.locator("button.dest.legal").first.click()
    confirm_move(mover)
    watcher.wait_for_function(
        "before => Number(document.querySelector('#board').dataset.ply) > before",
        arg=before,
    )
    settled(watcher)
    # now the other seat runs, on both boards; the mover's bank is kept
    for page in (mover, watcher):
        expect(page.locator(f'#board .bank[data-seat="{waiting}"]')).to_have_attribute(
            "data-running", "true"
        )
        page.wait_for_function(COUNTING_DOWN, arg=waiting)
        expect(
            page.locator(f'#board .bank[data-seat="{moving}"]')
        ).not_to_have_attribute("data-running", "true")
    for page in pages.values():
        page.context.close()


def test_the_your_move_list_is_ordered_by_time_left(
    browser: Browser, live_url: str, make_user
):
    ana = make_user("ana", PASSWORD)
    others = [make_user(name, PASSWORD) for name in ("binh", "chloe", "dae")]
    days_left = (3, 1, 2)

    def ana_to_move(game: Game) -> Game:
        """Play the partner's first move if it is theirs; then give ana's
        deadline ``days_left`` of the game's index from now."""
        game.refresh_from_db()
        if game.seats.get(number=game.seat_to_move).user != ana:
            services.game_play_move(
                game_id=game.pk,
                user=game.seats.get(number=game.seat_to_move).user,
                move=move_event(selectors.game_engine(game).legal_moves()[0]),
                expected_ply=game.ply,
            )
            game.refresh_from_db()
        return game

    games = []
    for partner, days in zip(others, days_left, strict=True):
        game = start_game(ana, partner)
        with ThreadPoolExecutor(1) as pool:
            game = pool.submit(ana_to_move, game).result()
        Game.objects.filter(pk=game.pk).update(
            turn_deadline=timezone.now() + timedelta(days=days, minutes=30)
        )
        games.append(game)

    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, ana.username)
    page.goto(f"{live_url}/")
    awaiting = page.locator("section[aria-labelledby='h-awaiting'] .game-list > li")
    expect(awaiting).to_have_count(3)
    shown = [
        (
            item.locator("a").first.get_attribute("href"),
            int(item.locator("[data-bank-seconds]").get_attribute("data-bank-seconds")),
            item.locator(".deadline").inner_text(),
        )
        for item in awaiting.all()
    ]
    by_time_left = sorted(zip(days_left, games, strict=True), key=lambda pair: pair[0])
    assert [href for href, _seconds, _text in shown] == [
        f"/games/{game.pk}/" for _days, game in by_time_left
    ]
    seconds = [s for _href, s, _text in shown]
    assert seconds == sorted(seconds)
    assert [text.split(",")[0] for _href, _s, text in shown] == [
        "1 day left",
        "2 days left",
        "3 days left",
    ]
    page.context.close()
