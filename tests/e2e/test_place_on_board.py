"""Classic: after choosing tiles, the player places them by clicking their own
pattern line or floor line — with the mouse, the keyboard, or without JavaScript."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Browser, Page, expect

from games import selectors
from games.engine.classic import COLOURS, FLOOR, Take
from games.engine.common import CENTER
from games.models import Game
from tests.e2e.test_live_board import PASSWORD, confirm_move, log_in, start_game
from tests.games.helpers import classic_zones
from tests.games.marks import zones


def _engine(game_id: int):
    with ThreadPoolExecutor(1) as pool:  # the ORM outside Playwright's loop
        return pool.submit(
            lambda: selectors.game_engine(Game.objects.get(pk=game_id))
        ).result()


def _a_take(engine, *, floor: bool) -> Take:
    """A legal take from a factory onto a pattern line (or the floor)."""
    for move in engine.legal_moves():
        is_take = isinstance(move, Take) and move.source != CENTER
        if is_take and (move.line == FLOOR) == floor:
            return move
    raise AssertionError("no such take")


def _mover_page(browser: Browser, live_url: str, game, users, **context) -> Page:
    mover = users[game.seat_to_move]
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, mover.username)
    page.goto(f"{live_url}/games/{game.pk}/")
    return page


def _played(page: Page, game_id: int, before: int):
    """Wait for the board after the move; the engine's position then."""
    page.wait_for_function(
        "before => Number(document.querySelector('#board').dataset.ply) > before",
        arg=before,
    )
    expect(page.locator("#board .error")).to_have_count(0)
    return _engine(game_id)


def _group(page: Page, take: Take):
    source = str(take.source)
    return page.locator(f'#board button.group[value="{source}:{COLOURS[take.colour]}"]')


@pytest.fixture
def game_and_users(make_user):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    seats = {seat.number: seat.user for seat in game.seats.all()}
    return game, seats


def test_clicking_a_pattern_line_places_the_chosen_tiles_there(
    browser: Browser, live_url: str, game_and_users
):
    game, users = game_and_users
    seat = game.seat_to_move
    engine = _engine(game.pk)
    take = _a_take(engine, floor=False)
    page = _mover_page(browser, live_url, game, users)
    line = page.locator(f'[data-zone="line-{seat}-{take.line}"]')
    # before a group is chosen the line is no target
    expect(line.locator("button.line-target")).to_be_disabled()
    _group(page, take).click()
    expect(line).to_have_class(re.compile(r"\blegal\b"))
    line.click()
    confirm_move(page)
    after = _played(page, game.pk, game.ply)
    # the page shows the engine's position, with the tiles on that line
    assert zones(page.locator("#board").inner_html()) == classic_zones(after)
    placed = after.boards[seat].line_count[take.line]
    assert placed == min(engine.factories[take.source][take.colour], take.line + 1)
    assert after.boards[seat].line_colour[take.line] == take.colour


def test_clicking_the_floor_line_sends_the_tiles_to_the_floor(
    browser: Browser, live_url: str, game_and_users
):
    game, users = game_and_users
    seat = game.seat_to_move
    engine = _engine(game.pk)
    take = _a_take(engine, floor=True)
    page = _mover_page(browser, live_url, game, users)
    _group(page, take).click()
    # the floor line's spaces, as drawn (its button lies over them)
    page.locator(f'.floor-area:has([data-zone="floor-{seat}"])').click()
    confirm_move(page)
    after = _played(page, game.pk, game.ply)
    count = engine.factories[take.source][take.colour]
    assert after.boards[seat].floor == [take.colour] * count
    assert zones(page.locator("#board").inner_html()) == classic_zones(after)


def test_the_keyboard_reaches_the_line_after_the_group(
    browser: Browser, live_url: str, game_and_users
):
    game, users = game_and_users
    seat = game.seat_to_move
    engine = _engine(game.pk)
    take = _a_take(engine, floor=False)
    page = _mover_page(browser, live_url, game, users)
    _group(page, take).focus()
    page.keyboard.press("Enter")
    target = page.locator(f'[data-zone="line-{seat}-{take.line}"] button.line-target')
    expect(target).to_be_enabled()
    target.focus()
    page.keyboard.press("Enter")
    # the preview's Confirm takes the focus: Enter again plays the move
    page.wait_for_function(
        "() => document.activeElement?.closest('#board form.confirm-move') !== null"
    )
    page.keyboard.press("Enter")
    after = _played(page, game.pk, game.ply)
    assert after.boards[seat].line_colour[take.line] == take.colour


def test_without_javascript_the_line_is_a_button_of_the_move_form(
    browser: Browser, live_url: str, game_and_users
):
    game, users = game_and_users
    seat = game.seat_to_move
    engine = _engine(game.pk)
    take = _a_take(engine, floor=False)
    page = _mover_page(browser, live_url, game, users, java_script_enabled=False)
    _group(page, take).click()  # a GET: the page comes back with ?group=
    page.wait_for_url("**group=*")
    page.locator(f'[data-zone="line-{seat}-{take.line}"]').click()
    page.wait_for_url("**line=*")  # the preview, then its Confirm
    confirm_move(page)
    page.wait_for_url(f"**/games/{game.pk}/")
    after = _engine(game.pk)
    assert after.boards[seat].line_colour[take.line] == take.colour
    assert zones(page.locator("#board").inner_html()) == classic_zones(after)
