"""Two players in two browsers: the second sees the first's move appear without
reloading, and their "your move" badge changes live (the toasts:
test_toasts.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from games import selectors, services
from games.models import Game
from tests.conftest import days_per_move_game
from tests.games.helpers import classic_zones
from tests.games.marks import zones

from .waits import sockets_open

PASSWORD = "azul-tiles-in-a-row-7"


def log_in(page, live_url: str, username: str) -> None:
    page.goto(f"{live_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # signed in: the menu has "Log out" (folded away on a phone, issue #25 item 16)
    log_out = page.get_by_role("button", name="Log out", include_hidden=True)
    expect(log_out).to_have_count(1)


def confirm_move(page) -> None:
    """Confirm the move the board previews (User.confirm_moves, on by default)."""
    form = page.locator("#board form.confirm-move")
    form.get_by_role("button", name="Confirm").click()


def start_game(
    creator, partner, variant: str = "classic", *, days_per_move: int | None = None
):
    """A started two-player game (classic unless ``variant`` says), made in a
    thread: Playwright's event loop runs in this one, and the services ring the
    channel layer with async_to_sync after commit. With ``days_per_move``, one
    of the games created before the bank clock."""

    def start():
        game = services.game_create(
            creator=creator,
            variant=variant,
            players=2,
            rated=False,
            invitees=[partner],
        )
        if days_per_move is not None:
            days_per_move_game(game, days_per_move)
        services.game_invitation_respond(game_id=game.pk, user=partner, accept=True)
        game.refresh_from_db()
        return game

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(start).result()


def test_second_player_sees_the_move_and_badge_without_reloading(
    browser: Browser, live_url: str, make_user
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    first, second = (ana, binh) if game.seat_to_move == 0 else (binh, ana)

    pages = {}
    for user in (first, second):
        page = browser.new_context().new_page()
        page.set_default_timeout(10_000)
        log_in(page, live_url, user.username)
        page.goto(f"{live_url}/games/{game.pk}/")
        pages[user.username] = page
    mover, watcher = pages[first.username], pages[second.username]
    # no game waits for the watcher: the badge is hidden, it never reads 0
    expect(watcher.locator("#turn-badge")).to_be_hidden()
    expect(mover.locator("#turn-badge")).to_have_text("Your move: 1")
    before = int(watcher.locator("#board").get_attribute("data-ply"))
    watcher.evaluate("window.__notReloaded = true")
    sockets_open(watcher, "user", "game")  # before the move

    mover.locator("button.group").first.click()
    mover.locator("button.dest.legal").first.click()
    confirm_move(mover)

    watcher.wait_for_function(
        "before => Number(document.querySelector('#board').dataset.ply) > before",
        arg=before,
    )
    expect(watcher.locator("#board .status")).to_contain_text("Your move.")
    expect(watcher.locator(".log")).to_contain_text(f"{first.username} took")
    # the watcher's board is the position after the move, tile for tile
    engine = selectors.game_engine(Game.objects.get(pk=game.pk))
    assert zones(watcher.locator("#board").inner_html()) == classic_zones(engine)
    expect(watcher.locator("#turn-badge")).to_have_text("Your move: 1")
    expect(mover.locator("#turn-badge")).to_be_hidden()
    # the game on screen says it is their move: no toast repeats it
    expect(watcher.locator(".toast")).to_have_count(0)
    assert watcher.evaluate("window.__notReloaded") is True
    for page in pages.values():
        page.context.close()
