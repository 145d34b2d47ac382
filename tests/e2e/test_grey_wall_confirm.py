"""The grey wall's column choice in the browser (issue #25 item 7): each column
says what its tile scores there; a player who confirms moves (the default)
chooses a column, sees the tile drawn in that wall space with what it scores,
and confirms or undoes it like a take — with JavaScript (HTMX) and without.
Unit tests: tests/games/test_grey_wall_preview.py."""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Browser, Page, expect

from games import selectors, services
from games.engine.classic import COLOURS, FLOOR, Take, WallPlacement
from games.models import Game, Move
from tests.e2e.test_live_board import PASSWORD, confirm_move, log_in
from tests.games.helpers import classic_zones, move_event
from tests.games.marks import zones

TIMEOUT = 10_000


def orm(function, *args):
    """Run ``function`` outside Playwright's event loop (the ORM refuses it)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result()


def _columns(engine) -> list[int]:
    return [m.column for m in engine.legal_moves() if isinstance(m, WallPlacement)]


def _scored(engine, column: int) -> int:
    """What the placement in ``column`` scores, as the engine plays it."""
    seat, line = engine.pending_wall
    probe = engine.copy()
    size = probe.log_size()
    probe.play(WallPlacement(seat, line, column))
    return probe.log_from(size)[0]["points"]


def _reach_column_choice(ana, binh, seed: int):
    """A grey-wall game played through the services until the player to move
    chooses among several wall columns: (game, engine)."""
    rng = random.Random(seed)
    game = services.game_create(
        creator=ana,
        variant="classic-grey",
        players=2,
        rated=False,
        invitees=[binh],
    )
    services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
    game = selectors.game_get(game_id=game.pk)
    engine = selectors.game_engine(game)
    while not (engine.pending_wall and len(_columns(engine)) > 1):
        assert game.status == Game.Status.ACTIVE
        moves = engine.legal_moves()
        takes = [m for m in moves if isinstance(m, Take) and m.line != FLOOR]
        played = services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(rng.choice(takes or moves)),
            expected_ply=game.ply,
        )
        game, engine = played.game, played.engine
    return game, engine


@pytest.fixture
def choosing(make_user):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game, engine = orm(_reach_column_choice, ana, binh, 5)
    seat = engine.pending_wall[0]
    mover = {ana.pk: ana, binh.pk: binh}[
        orm(lambda: game.seats.get(number=seat).user_id)
    ]
    return game, engine, mover


def _page(browser: Browser, live_url: str, user, *, script: bool = True) -> Page:
    page = browser.new_context(java_script_enabled=script).new_page()
    page.set_default_timeout(TIMEOUT)
    log_in(page, live_url, user.username)
    return page


def _cell(page: Page, seat: int, row: int, column: int):
    wall = page.locator(f'#board [data-zone="wall-{seat}"]')
    return wall.locator("tr").nth(row).locator("td").nth(column)


def _moves(game_id: int) -> int:
    return orm(lambda: Move.objects.filter(game_id=game_id).count())


def test_a_column_is_chosen_then_undone_then_confirmed(
    browser: Browser, live_url: str, choosing
):
    game, engine, mover = choosing
    seat, line = engine.pending_wall
    colour = COLOURS[engine.boards[seat].line_colour[line]]
    columns = _columns(engine)
    page = _page(browser, live_url, mover)
    page.goto(f"{live_url}/games/{game.pk}/")
    expect(page.locator("#h-wall")).to_have_text(f"Wall column for line {line + 1}:")
    # each legal column, by its accessible name, with what it scores
    for column in columns:
        points = _scored(engine, column)
        name = f"Column {column + 1}: {points} point{'s' if points != 1 else ''}"
        button = page.get_by_role("button", name=name, exact=True)
        expect(button).to_have_text(f"Column {column + 1} +{points}")
    expect(page.locator('#board button[name="column"]')).to_have_count(len(columns))

    column = columns[-1]
    points = _scored(engine, column)
    page.locator(f'#board button[name="column"][value="{column}"]').click()
    panel = page.locator("#board form.confirm-move")
    expect(panel.get_by_role("button", name="Confirm")).to_be_visible()
    expect(panel.locator("h2")).to_contain_text(
        f"The {colour} tile of line {line + 1} to column {column + 1}: +{points} "
    )
    # the tile drawn where it would go; nothing moved, nothing sent
    cell = _cell(page, seat, line, column)
    expect(cell).to_have_class("choice")
    expect(cell.locator(f".tile.t-{colour}.printed")).to_have_count(1)
    assert zones(page.locator("#board").inner_html()) == classic_zones(engine)
    assert _moves(game.pk) == game.ply
    expect(page.locator('#board button[name="column"]')).to_have_count(0)
    assert page.url.endswith(f"?column={column}")

    # Undo: the choice as it was
    panel.get_by_role("link", name="Undo").click()
    expect(panel).to_have_count(0)
    expect(page.locator('#board button[name="column"]')).to_have_count(len(columns))
    expect(cell.locator(".tile.printed")).to_have_count(0)

    # choose again, and confirm: played, the tile on the wall
    page.locator(f'#board button[name="column"][value="{column}"]').click()
    confirm_move(page)
    page.wait_for_function(
        "ply => Number(document.querySelector('#board').dataset.ply) > ply",
        arg=game.ply,
    )
    expect(page.locator("#board .error")).to_have_count(0)
    after = orm(lambda: selectors.game_engine(selectors.game_get(game_id=game.pk)))
    assert WallPlacement(seat, line, column) in after.history
    expect(cell.locator(f'[data-colour="{colour}"]')).to_have_count(1)
    assert re.fullmatch(rf"{live_url}/games/{game.pk}/", page.url)
    page.context.close()


def test_without_javascript_the_column_is_previewed_and_confirmed(
    browser: Browser, live_url: str, choosing
):
    game, engine, mover = choosing
    seat, line = engine.pending_wall
    colour = COLOURS[engine.boards[seat].line_colour[line]]
    column = _columns(engine)[0]
    points = _scored(engine, column)
    page = _page(browser, live_url, mover, script=False)
    page.goto(f"{live_url}/games/{game.pk}/")
    page.locator(f'#board button[name="column"][value="{column}"]').click()
    page.wait_for_url(re.compile(rf"\?column={column}$"))
    panel = page.locator("#board form.confirm-move")
    expect(panel.locator("h2")).to_contain_text(f"to column {column + 1}: +{points} ")
    assert _moves(game.pk) == game.ply
    confirm_move(page)
    page.wait_for_url(f"{live_url}/games/{game.pk}/")
    cell = _cell(page, seat, line, column)
    expect(cell.locator(f'[data-colour="{colour}"]')).to_have_count(1)
    assert _moves(game.pk) > game.ply
    page.context.close()
