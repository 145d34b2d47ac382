"""Misclick protection in the browser (classic): a chosen take is drawn where its
tiles would go, with Confirm and Undo; Undo changes nothing, Confirm plays it;
a player who turns confirmation off in Settings plays with one click."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from games.engine.classic import COLOURS, FLOOR
from games.models import Move
from tests.e2e.test_live_board import PASSWORD, confirm_move, log_in, start_game
from tests.e2e.test_place_on_board import _a_take, _engine, _group, _played
from tests.games.helpers import classic_zones
from tests.games.marks import last_move, zones

from .waits import settled


@pytest.fixture
def mover_page(browser: Browser, live_url: str, make_user):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    mover = {0: ana, 1: binh}[game.seat_to_move]
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, mover.username)
    page.goto(f"{live_url}/games/{game.pk}/")
    yield game, mover, page
    page.context.close()


def _board(page: Page) -> str:
    return page.locator("#board").inner_html()


def test_a_take_is_shown_in_place_then_undone_then_confirmed(live_url: str, mover_page):
    game, _mover, page = mover_page
    seat = game.seat_to_move
    engine = _engine(game.pk)
    take = _a_take(engine, floor=False)
    line = f"line-{seat}-{take.line}"
    _group(page, take).click()
    page.locator(f'[data-zone="{line}"]').click()
    # the preview: the tiles on the line (marked as the move), Confirm and Undo
    panel = page.locator("#board form.confirm-move")
    expect(panel.get_by_role("button", name="Confirm")).to_be_visible()
    expected = classic_zones(engine.preview(take))
    assert zones(_board(page)) == expected
    placed, _from = last_move(_board(page))
    assert line in placed and set(placed) <= {line, f"floor-{seat}"}  # + overflow
    assert Move.objects.filter(game=game).count() == game.ply  # nothing sent
    # Undo: the position as it is, the same tiles still chosen
    panel.get_by_role("link", name="Undo").click()
    expect(panel).to_have_count(0)
    assert zones(_board(page)) == classic_zones(engine)
    chosen = _group(page, take)
    expect(chosen).to_have_attribute("aria-pressed", "true")
    # now the floor instead, and Confirm
    page.locator(f'.floor-area:has([data-zone="floor-{seat}"])').click()
    expect(panel).to_contain_text("to the floor")
    on_floor = zones(_board(page))[f"floor-{seat}"][COLOURS[take.colour]]
    assert on_floor == engine.factories[take.source][take.colour]
    confirm_move(page)
    after = _played(page, game.pk, game.ply)
    assert after.history[-1] == replace(take, line=FLOOR)
    assert zones(_board(page)) == classic_zones(after)
    # the address is the game's again, without the picks that led to the move
    assert re.fullmatch(rf"{live_url}/games/{game.pk}/", page.url)


def test_a_double_click_on_confirm_plays_the_move_once(live_url: str, mover_page):
    game, _mover, page = mover_page
    take = _a_take(_engine(game.pk), floor=False)
    _group(page, take).click()
    page.locator(f'[data-zone="line-{game.seat_to_move}-{take.line}"]').click()
    posts: list[Request] = []
    page.on("request", lambda request: posts.append(request))
    page.locator("#board form.confirm-move button").dblclick()
    _played(page, game.pk, game.ply)
    settled(page)  # no request of the page under way
    for request in posts:
        if request.method == "POST":
            assert request.response() is not None  # each POST sent is answered
    assert Move.objects.filter(game=game).count() == game.ply + 1


def test_with_confirmation_turned_off_one_click_plays(live_url: str, mover_page):
    game, mover, page = mover_page
    page.goto(f"{live_url}/accounts/settings/")
    box = page.get_by_label("Confirm each move")
    expect(box).to_be_checked()
    box.uncheck()
    box.locator("xpath=ancestor::form").get_by_role("button").click()
    page.wait_for_load_state()
    mover.refresh_from_db()
    assert mover.confirm_moves is False
    page.goto(f"{live_url}/games/{game.pk}/")
    take = _a_take(_engine(game.pk), floor=False)
    _group(page, take).click()
    page.locator(f'[data-zone="line-{game.seat_to_move}-{take.line}"]').click()
    after = _played(page, game.pk, game.ply)
    assert after.history[-1] == take
    expect(page.locator("#board form.confirm-move")).to_have_count(0)


def test_summer_pavilion_takes_with_one_click_when_confirmation_is_off(
    browser: Browser, live_url: str, make_user
):
    ana = make_user("ana", PASSWORD, confirm_moves=False)
    binh = make_user("binh", PASSWORD, confirm_moves=False)
    game = start_game(ana, binh, variant="pavilion")
    mover = {0: ana, 1: binh}[game.seat_to_move]
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, mover.username)
    page.goto(f"{live_url}/games/{game.pk}/")
    group = page.locator("#board button[name=take]").first
    value = group.get_attribute("value") or ""
    events_before = len(_engine(game.pk).events())
    group.click()
    after = _played(page, game.pk, game.ply)
    source, colour = value.split(":")
    played = after.events()[events_before]
    assert played["seat"] == mover_seat(game, mover)
    assert (str(played["from"]), played["colour"]) == (source, colour)
    expect(page.get_by_role("button", name="Take these tiles")).to_have_count(0)
    page.context.close()


def mover_seat(game, user) -> int:
    return next(s.number for s in game.seats.all() if s.user_id == user.pk)
