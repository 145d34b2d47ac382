"""Summer Pavilion in a browser: a take and a placement, by clicking (phone size).

After each, the board the browser shows (read off its marks) is the engine's.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, Page, expect

from games import notifications, selectors, services
from games.engine.pavilion import Place
from games.models import Game

PASSWORD = "azul-pavilion-tiles-9"


def log_in(page: Page, live_url: str, username: str) -> None:
    page.goto(f"{live_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    # signed in ("Log out" is in the menu, folded on a phone: issue #25 item 16)
    log_out = page.get_by_role("button", name="Log out", include_hidden=True)
    expect(log_out).to_have_count(1)


def board_ply(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-ply") or "0")


def wait_for_ply_after(page: Page, before: int) -> None:
    page.wait_for_function(
        "before => Number(document.querySelector('#board').dataset.ply) > before",
        arg=before,
    )
    expect(page.locator("#board .error")).to_have_count(0)


def play_others_until(game: Game, ana_id: int, rng: random.Random, wanted) -> None:
    """Play every move through the service (ana's too) until ana faces ``wanted``."""
    from tests.games.helpers import pavilion_choose

    for _step in range(500):
        game.refresh_from_db()
        engine = selectors.game_engine(game)
        mover = game.seats.get(number=game.seat_to_move).user
        if mover.pk == ana_id and wanted(engine):
            return
        move = pavilion_choose(engine, rng)
        event = move.to_event()
        event.pop("seat")
        services.game_play_move(
            game_id=game.pk, user=mover, move=event, expected_ply=game.ply
        )
    raise AssertionError("ana never reached the wanted decision")


def shows_the_engine_position(page: Page, game: Game) -> None:
    from tests.games.marks import zones
    from tests.games.test_pavilion_positions import engine_zones

    game.refresh_from_db()
    assert zones(page.content()) == engine_zones(selectors.game_engine(game))


def test_take_and_place_by_clicking(
    browser: Browser, live_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from accounts.models import User

    # moves played here by the service would ring the channel layer through
    # async_to_sync beside Playwright's event loop (docs/stack.md pitfall 3); the page
    # is reloaded instead (the Daphne child, forked earlier, still notifies)
    monkeypatch.setattr(notifications, "_send", lambda messages: None)

    ana = User.objects.create_user("ana", "ana@example.com", PASSWORD)
    binh = User.objects.create_user("binh", "binh@example.com", PASSWORD)
    game = services.game_create(
        creator=ana,
        variant="pavilion",
        players=2,
        rated=False,
        invitees=[binh],
    )
    services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
    rng = random.Random(4)
    play_others_until(game, ana.pk, rng, lambda e: e.phase == "take")

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, "ana")
    page.goto(f"{live_url}/games/{game.pk}/")
    expect(page.locator("#board .status")).to_contain_text("Your move.")

    # take: pick a colour, read what comes along, confirm
    before = board_ply(page)
    page.locator("button[name=take]").first.click()
    confirm = page.get_by_role("button", name="Take these tiles")
    expect(confirm).to_be_visible()
    confirm.click()
    wait_for_ply_after(page, before)
    expect(page.locator(".log")).to_contain_text("ana took")
    shows_the_engine_position(page, game)

    # placing: the rest of phase 1 is played for both, then ana picks a space
    play_others_until(
        game,
        ana.pk,
        rng,
        lambda e: (
            e.phase == "place" and any(isinstance(m, Place) for m in e.legal_moves())
        ),
    )
    page.reload()
    expect(page.locator("#board .status")).to_contain_text("Choose a space")
    before = board_ply(page)
    space = page.locator("button.pv-space.choice").first
    label = space.get_attribute("aria-label") or ""
    assert ", empty" in label and "cost" in label
    space.click()
    expect(page.locator("input[name=payment]:checked")).to_have_count(1)
    page.get_by_role("button", name="Place the tile").click()
    wait_for_ply_after(page, before)
    expect(page.locator(".log")).to_contain_text("ana placed")
    shows_the_engine_position(page, game)
    game.refresh_from_db()
    assert any("star" in m.event for m in game.moves.all())
    page.context.close()
