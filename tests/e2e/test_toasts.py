"""The "your move" toasts: one per game, replaced rather than stacked, closable,
gone after a few seconds, and never for the game on screen; and the home page's
lists, which follow the badge."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from games import selectors
from games.models import Game
from tests.e2e.test_live_board import PASSWORD, log_in, start_game
from tests.games.helpers import move_post_data

from .waits import settled, sockets_open


def _play_one(contexts: dict[int, BrowserContext], live_url: str, game_id: int, rng):
    """One legal move by whoever is to move, posted from their browser context
    (the server rings the sockets); the seat that moved."""

    def read():
        game = selectors.game_get(game_id=game_id)
        engine = selectors.game_engine(game)
        return game.seat_to_move, game.ply, rng.choice(engine.legal_moves())

    with ThreadPoolExecutor(1) as pool:  # the ORM outside Playwright's loop
        seat, ply, move = pool.submit(read).result()
    context = contexts[seat]
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    response = context.request.post(
        f"{live_url}/games/{game_id}/move/",
        form=move_post_data(move, ply),
        headers={"X-CSRFToken": token, "HX-Request": "true"},
    )
    assert response.status == 200
    return seat


@pytest.fixture
def table(browser: Browser, live_url: str, make_user):
    """ana and binh in a started game, each signed in in a browser: the game,
    ana, ana's page, and each seat's browser context."""
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    seat_of = {seat.user_id: seat.number for seat in game.seats.all()}
    pages = {}
    for user in (ana, binh):
        page = browser.new_context().new_page()
        page.set_default_timeout(10_000)
        log_in(page, live_url, user.username)
        pages[seat_of[user.pk]] = page
    yield game, ana, pages[seat_of[ana.pk]], {s: p.context for s, p in pages.items()}
    for page in pages.values():
        page.context.close()


def _to_move(game_id: int) -> int | None:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(
            lambda: Game.objects.values_list("seat_to_move", flat=True).get(pk=game_id)
        ).result()


def test_one_toast_per_game_after_ten_moves_closable_and_gone_later(
    live_url: str, table
):
    game, ana, page, contexts = table
    seat_of = {seat.user_id: seat.number for seat in game.seats.all()}
    page.goto(f"{live_url}/")  # ana looks at her home page, not the game
    sockets_open(page, "user")
    toasts = page.locator(f'#toasts .toast[data-game="{game.pk}"]')
    rng = random.Random(4)
    rang = 0
    awaiting = page.locator('section[aria-labelledby="h-awaiting"] a')
    waiting = page.locator('section[aria-labelledby="h-waiting"] a')
    link = f"/games/{game.pk}/"
    for _ in range(10):
        before = _to_move(game.pk)
        _play_one(contexts, live_url, game.pk, rng)
        mine = _to_move(game.pk) == seat_of[ana.pk]
        # the home page's lists follow: the game under "Your move" or not
        expect(awaiting.and_(page.locator(f'[href="{link}"]'))).to_have_count(int(mine))
        expect(waiting.and_(page.locator(f'[href="{link}"]'))).to_have_count(1 - mine)
        if mine and before != seat_of[ana.pk]:
            rang += 1
            expect(toasts).to_contain_text(f"Your move in game {game.pk}")
        # never more than one for the game, however many moves rang
        assert toasts.count() <= 1
    assert rang >= 3
    if toasts.count():
        shown = toasts.first.element_handle()
        toasts.first.get_by_role("button", name="Close").click()
        shown.wait_for_element_state("hidden")  # that toast is gone
        assert toasts.count() <= 1  # a later ring may bring a new one
    # a new one goes by itself after a few seconds (counted as it comes: on a
    # busy machine the moves below may take longer than a toast lives)
    page.evaluate(
        """() => { window.__toastsAdded = 0;
          new MutationObserver(changes => changes.forEach(change =>
            window.__toastsAdded += change.addedNodes.length))
          .observe(document.getElementById("toasts"), { childList: true }); }"""
    )
    while _to_move(game.pk) == seat_of[ana.pk]:
        _play_one(contexts, live_url, game.pk, rng)
    while _to_move(game.pk) != seat_of[ana.pk]:
        _play_one(contexts, live_url, game.pk, rng)
    page.wait_for_function("() => window.__toastsAdded > 0", timeout=20_000)
    expect(toasts).to_have_count(0, timeout=12_000)


def test_no_toast_for_the_game_on_screen(live_url: str, table):
    game, ana, page, contexts = table
    seat_of = {seat.user_id: seat.number for seat in game.seats.all()}
    page.goto(f"{live_url}/games/{game.pk}/")
    sockets_open(page, "user", "game")
    rng = random.Random(6)
    while _to_move(game.pk) == seat_of[ana.pk]:
        _play_one(contexts, live_url, game.pk, rng)
    ply = int(page.locator("#board").get_attribute("data-ply") or 0)
    _play_one(contexts, live_url, game.pk, rng)  # binh's move: ana's turn
    page.wait_for_function(
        "ply => Number(document.querySelector('#board').dataset.ply) > ply",
        arg=ply,
        timeout=20_000,
    )
    expect(page.locator("#turn-badge")).to_have_text("Your move: 1", timeout=10_000)
    settled(page)  # the badge's refetch, which would bring a toast, is done
    expect(page.locator("#toasts .toast")).to_have_count(0)
