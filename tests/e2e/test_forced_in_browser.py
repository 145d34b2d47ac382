"""Forced decisions played, in the browser: a player's move that leaves them
exactly one legal decision (a grey-wall line with one legal column) comes back
with that decision played and the log saying so; a player who turned that off
in Settings is asked for the column instead (unit tests: tests/games/test_forced.py).
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games import selectors, services
from games.classic.words import colour_name
from games.engine.classic import COLOURS, FLOOR, Take, WallPlacement, wall_points
from games.engine.common import CENTER
from games.models import Game, Move
from tests.conftest import days_per_move_game
from tests.e2e.test_live_board import PASSWORD, log_in
from tests.games.helpers import classic_zones, move_event
from tests.games.marks import zones

TIMEOUT = 10_000
NOTE = "({name} had no other legal move: the site played it.)"
# Not played for the player: each click sends the move (no confirmation step, a
# preference some checkouts have).
NO_CONFIRM = {"confirm_moves": False} if hasattr(User, "confirm_moves") else {}


def _notes(lines: list[str], note: str) -> int:
    """How many lines of the log carry the forced-decision note."""
    return sum(note in line for line in lines)


@pytest.fixture(autouse=True)
def _patient_expect():
    """Expectations wait up to TIMEOUT: the machine may be busy."""
    previous = getattr(expect, "_timeout", None)
    expect.set_options(timeout=TIMEOUT)
    yield
    expect.set_options(timeout=previous)


def orm(function, *args):
    """Run ``function`` outside Playwright's event loop (the ORM refuses it)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result()


def _start_grey(creator, partner) -> Game:
    """A grey-wall game under days per move (a game created before the bank
    clock), where each player's setting decides whether the site plays their
    forced decisions (under a bank it plays everyone's: tests/games/test_forced.py)."""
    game = services.game_create(
        creator=creator,
        variant="classic-grey",
        players=2,
        rated=False,
        invitees=[partner],
    )
    days_per_move_game(game, 2)
    services.game_invitation_respond(game_id=game.pk, user=partner, accept=True)
    return selectors.game_get(game_id=game.pk)


def _forcing_decisions(engine) -> list[tuple[Any, WallPlacement]]:
    """The decisions of the player to move after which the rules leave that
    same player exactly one legal decision (a wall column): (decision, the
    forced placement), takes onto a pattern line first."""
    seat = engine.to_move()
    found = []
    for move in engine.legal_moves():
        probe = engine.copy()
        probe.push(move)
        if probe.needs_chance() or probe.is_over() or probe.to_move() != seat:
            continue
        legal = probe.legal_moves()
        if probe.phase == "tiling" and len(legal) == 1:
            found.append((move, legal[0]))

    def order(item) -> int:
        move = item[0]
        if isinstance(move, Take):
            return 0 if move.line != FLOOR else 2
        return 1

    return sorted(found, key=order)


def fill_lines_move(engine, rng):
    """A plausible player who fills pattern lines: walls fill, and games end,
    sooner than by random decisions."""
    moves = engine.legal_moves()
    if engine.phase != "offer":
        return rng.choice(moves)
    board = engine.boards[engine.to_move()]

    def score(move: Take) -> int:
        if move.line == FLOOR:
            return -5
        source = engine.center if move.source == CENTER else None
        counts = source if source is not None else engine.factories[move.source]
        count = counts[move.colour]
        need = move.line + 1 - board.line_count[move.line]
        return 3 * (count >= need) - max(0, count - need)

    best = max(score(move) for move in moves)
    return rng.choice([move for move in moves if score(move) == best])


def _reach_forcing_position(users, seed: int) -> tuple[Game, Any, WallPlacement]:
    """A grey-wall game played through the services until the player to move
    has a decision that leaves them one legal decision after it; a new game
    when one ends first. (game, that decision, the forced placement)."""
    rng = random.Random(seed)
    for _ in range(5):
        game = _start_grey(*users)
        engine = selectors.game_engine(game)
        while game.status == Game.Status.ACTIVE:
            found = _forcing_decisions(engine)
            if found:
                return game, *found[0]
            played = services.game_play_move(
                game_id=game.pk,
                user=game.seats.all()[game.seat_to_move].user,
                move=move_event(fill_lines_move(engine, rng)),
                expected_ply=game.ply,
            )
            game, engine = played.game, played.engine
    raise AssertionError("no game reached a forced decision")


@pytest.fixture
def forcing(live_url: str, make_user):
    """ana and binh in a grey-wall game where the player to move has a
    decision after which the rules leave them only one: the game, that
    decision, the forced wall placement and the mover (a User)."""
    ana = make_user("ana", PASSWORD, **NO_CONFIRM)
    binh = make_user("binh", PASSWORD, **NO_CONFIRM)
    game, move, forced = orm(_reach_forcing_position, (ana, binh), 7)
    mover = {ana.pk: ana, binh.pk: binh}[game.seats.all()[forced.seat].user_id]
    return game, move, forced, mover


def page_of(browser: Browser, live_url: str, user) -> Page:
    page = browser.new_context().new_page()
    page.set_default_timeout(TIMEOUT)
    log_in(page, live_url, user.username)
    return page


def click_move(page: Page, move) -> None:
    """Make ``move`` on the board as a player does: a tile group, then the
    pattern line (or floor) it goes to; or a wall column."""
    if isinstance(move, WallPlacement):
        page.locator(f'#board button[name="column"][value="{move.column}"]').click()
        return
    source = "center" if move.source == CENTER else str(move.source)
    group = f"{source}:{COLOURS[move.colour]}"
    page.locator(f'#board button.group[value="{group}"]').click()
    if move.line == FLOOR:
        page.locator(f'.floor-area:has([data-zone="floor-{move.seat}"])').click()
    else:
        page.locator(f'[data-zone="line-{move.seat}-{move.line}"]').click()


def wait_past(page: Page, ply: int) -> None:
    page.wait_for_function(
        "ply => Number(document.querySelector('#board').dataset.ply) > ply",
        arg=ply,
        timeout=TIMEOUT,
    )
    expect(page.locator("#board .error")).to_have_count(0)


def _wall_cell(page: Page, seat: int, row: int, column: int):
    wall = page.locator(f'#board [data-zone="wall-{seat}"]')
    return wall.locator("tr").nth(row).locator("td").nth(column)


def _log_lines(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#board .log li").all_inner_texts()]


def _after(game_id: int):
    def read():
        game = selectors.game_get(game_id=game_id)
        return game, selectors.game_engine(game)

    return orm(read)


def test_the_only_legal_column_is_played_for_the_player_and_logged(
    browser: Browser, live_url: str, forcing
):
    game, move, forced, mover = forcing
    seat, line, column = forced.seat, forced.line, forced.column
    probe = orm(selectors.game_engine, game)
    probe.push(move)
    colour = COLOURS[probe.boards[seat].line_colour[line]]
    page = page_of(browser, live_url, mover)
    page.goto(f"{live_url}/games/{game.pk}/")
    expect(page.locator("#board .status")).to_contain_text("Your move.")
    cell = _wall_cell(page, seat, line, column)
    expect(cell.locator("[data-colour]")).to_have_count(0)  # the space is free
    note = NOTE.format(name=mover.username)
    notes_before = _notes(_log_lines(page), note)

    click_move(page, move)
    wait_past(page, game.ply)

    # the forced decision was played: the line's tile is on the wall, there
    after_game, after = _after(game.pk)
    expect(page.locator("#board")).to_have_attribute("data-ply", str(after_game.ply))
    expect(cell.locator(f'[data-colour="{colour}"]')).to_have_count(1)
    assert after.boards[seat].wall[line][column] == COLOURS.index(colour)
    assert zones(page.locator("#board").inner_html()) == classic_zones(after)
    # the page asks for no column for that line
    asked = page.locator("#h-wall", has_text=f"line {line + 1}:")
    expect(asked).to_have_count(0)
    # the record: the decision after the player's is the forced one
    row = orm(lambda: Move.objects.get(game_id=game.pk, ply=game.ply + 1))
    assert row.forced and row.user_id == mover.pk
    assert row.event["wall"] == {"line": line, "column": column}
    # the log: the placement's line, ending with the note
    lines = _log_lines(page)
    placed = (
        f"{mover.username} placed {colour_name(colour)} on the wall, "
        f"row {line + 1} column {column + 1}:"
    )
    at = next(i for i, text in enumerate(lines) if text.startswith(placed))
    assert lines[at].endswith(f" {note}")
    # one note a forced decision: a deal may leave the player a second one
    forced_count = orm(
        lambda: Move.objects.filter(
            game_id=game.pk, ply__gt=game.ply, forced=True, user_id=mover.pk
        ).count()
    )
    assert forced_count >= 1
    assert _notes(lines, note) == notes_before + forced_count
    page.context.close()


def test_a_player_who_turned_it_off_in_settings_chooses_the_column(
    browser: Browser, live_url: str, forcing
):
    game, move, forced, mover = forcing
    seat, line, column = forced.seat, forced.line, forced.column
    page = page_of(browser, live_url, mover)
    # Settings → Play: "Play my forced decisions" off
    page.goto(f"{live_url}{reverse('settings')}")
    play = page.locator('section[aria-labelledby="h-play"]')
    checkbox = play.get_by_label("Play my forced decisions")
    expect(checkbox).to_be_checked()
    checkbox.uncheck()
    page.get_by_role("button", name="Save").click()  # the page's one Save
    expect(page.get_by_text("Your settings were saved.")).to_be_visible()
    expect(checkbox).not_to_be_checked()  # as the page drawn again has it
    assert orm(lambda: User.objects.get(pk=mover.pk).play_forced) is False

    page.goto(f"{live_url}/games/{game.pk}/")
    cell = _wall_cell(page, seat, line, column)
    note = NOTE.format(name=mover.username)
    notes_before = _notes(_log_lines(page), note)
    click_move(page, move)
    wait_past(page, game.ply)

    # nothing played for the player: they are asked, with the one column
    expect(page.locator("#board .status")).to_contain_text("Your move.")
    expect(page.locator("#h-wall")).to_have_text(f"Wall column for line {line + 1}:")
    choices = page.locator('#board form.destinations button[name="column"]')
    expect(choices).to_have_count(1)
    expect(choices).to_have_attribute("value", str(column))
    expect(cell.locator("[data-colour]")).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-ply", str(game.ply + 1))
    after_game, after = _after(game.pk)
    # the one column, with what its tile scores there (the engine's count)
    points = wall_points(after.boards[seat].wall, line, column)
    expect(choices).to_have_text(f"Column {column + 1} +{points}")
    assert after_game.ply == game.ply + 1
    expect(
        page.locator(f'[data-zone="line-{seat}-{line}"] [data-colour]')
    ).to_have_count(line + 1)
    assert zones(page.locator("#board").inner_html()) == classic_zones(after)
    assert _notes(_log_lines(page), note) == notes_before

    # the player's own choice: played as theirs, no note
    choices.click()
    wait_past(page, game.ply + 1)
    colour = COLOURS[after.boards[seat].line_colour[line]]
    expect(cell.locator(f'[data-colour="{colour}"]')).to_have_count(1)
    row = orm(lambda: Move.objects.get(game_id=game.pk, ply=game.ply + 1))
    assert not row.forced and row.user_id == mover.pk
    assert _notes(_log_lines(page), note) == notes_before
    page.context.close()
