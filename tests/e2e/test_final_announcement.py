"""The final announcement, in the browser: the player who makes a game's last
move by clicking sees, without a reload, who won with what score, the final
ranks and scores, and the end bonuses itemised; the opponent's open page comes
to the same through its socket (the server's answer: tests/games/test_final_move.py).
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from games import selectors, services
from games.engine.classic import FLOOR
from games.models import Game
from tests.e2e.test_forced_in_browser import (
    NO_CONFIRM,
    TIMEOUT,
    click_move,
    fill_lines_move,
    orm,
    page_of,
    wait_past,
)
from tests.e2e.test_live_board import PASSWORD, start_game
from tests.games.helpers import decide_every_move, move_event

BONUSES = {"Row bonus": "row", "Column bonus": "column", "Colour bonus": "colour"}


@pytest.fixture(autouse=True)
def _patient_expect():
    """Expectations wait up to TIMEOUT: the machine may be busy."""
    previous = getattr(expect, "_timeout", None)
    expect.set_options(timeout=TIMEOUT)
    yield
    expect.set_options(timeout=previous)


def _reach_last_move(users, seed: int):
    """A classic game played through the services until the player to move
    has a decision that ends it: (game, that decision, the engine after it)."""
    rng = random.Random(seed)
    decide_every_move(users)  # the last decision is the player's, never the site's
    # (under days per move: a bank clock plays everyone's only decision)
    game = start_game(*users, days_per_move=3)
    game = selectors.game_get(game_id=game.pk)
    engine = selectors.game_engine(game)
    while game.status == Game.Status.ACTIVE:
        ending = []
        for move in engine.legal_moves():
            probe = engine.copy()
            probe.push(move)
            if probe.is_over():
                ending.append((move.line == FLOOR, move, probe))
        if ending:
            _, move, probe = min(ending, key=lambda item: item[0])
            return game, move, probe
        played = services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(fill_lines_move(engine, rng)),
            expected_ply=game.ply,
        )
        game, engine = played.game, played.engine
    raise AssertionError("the game ended without its last move left to play")


@pytest.fixture
def last_move(browser: Browser, live_url: str, make_user):
    """ana and binh one decision from the end of a classic game, each on the
    game's page: the game, that decision, the engine after it, the names by
    seat, the mover's page and the opponent's."""
    ana = make_user("ana", PASSWORD, **NO_CONFIRM)
    binh = make_user("binh", PASSWORD, **NO_CONFIRM)
    game, move, final = orm(_reach_last_move, [ana, binh], 11)
    users = {ana.pk: ana, binh.pk: binh}
    seated = [users[seat.user_id] for seat in game.seats.all()]
    pages = []
    for user in (seated[move.seat], seated[1 - move.seat]):
        page = page_of(browser, live_url, user)
        page.goto(f"{live_url}/games/{game.pk}/")
        expect(page.locator("#board")).to_have_attribute("data-ply", str(game.ply))
        page.evaluate("window.__notReloaded = true")
        pages.append(page)
    yield game, move, final, [user.username for user in seated], *pages
    for page in pages:
        page.context.close()


def _announcement(final, names: list[str]) -> str:
    outcome = final.outcome()
    top = outcome.scores[outcome.winners[0]]
    points = "point" if top == 1 else "points"
    if len(outcome.winners) == 1:
        return f"{names[outcome.winners[0]]} wins with {top} {points}."
    winners = ", ".join(names[seat] for seat in outcome.winners)
    return f"{winners} share the win with {top} {points} each."


def _statistic(page: Page, label: str):
    rows = page.locator("#board table.statistics tbody tr")
    heading = page.locator("th").get_by_text(label, exact=True)
    return rows.filter(has=heading).locator("td")


def _sees_the_end(page: Page, final, names: list[str]) -> None:
    """``page`` shows the final announcement of the game ``final`` ends."""
    outcome = final.outcome()
    expect(page.locator("#board")).to_have_attribute("data-status", "finished")
    expect(page.locator("#board .status")).to_contain_text("The game is over.")
    winners = page.locator("#board p.winners[data-winners]")
    expect(winners).to_have_text(_announcement(final, names))
    expect(winners).to_have_attribute(
        "data-winners", " ".join(str(seat) for seat in outcome.winners)
    )
    # the results table: a row per seat, its rank and score the engine's
    rows = page.locator("#board table.results:not(.statistics) tbody tr")
    expect(rows).to_have_count(len(names))
    for seat in range(len(names)):
        row = rows.and_(page.locator(f'[data-seat="{seat}"]'))
        expect(row).to_have_attribute("data-rank", str(outcome.ranks[seat]))
        expect(row).to_have_attribute("data-score", str(outcome.scores[seat]))
        expect(row).to_contain_text(names[seat])
    # the end bonuses, each as the engine's score log has it
    expect(page.locator("#board table.statistics thead th")).to_have_text(
        ["Statistic", *names]
    )
    for label, kind in BONUSES.items():
        points = [
            sum(c.points for c in final.score_log if c.seat == s and c.kind == kind)
            for s in range(len(names))
        ]
        expect(_statistic(page, label)).to_have_text([str(p) for p in points])
    expect(_statistic(page, "Score")).to_have_text([str(s) for s in outcome.scores])
    # its review, on its way (issue #34): a link beside Replay to the Review
    # tab, and each player's accuracy to come
    expect(page.get_by_role("link", name="Review", exact=True)).to_have_attribute(
        "href", re.compile(r"^/games/\d+/replay/\?tab=review$")
    )
    accuracy = page.locator("#board table.final-results td.accuracy")
    expect(accuracy).to_have_count(len(names))
    expect(accuracy.first).to_contain_text("…")
    assert page.evaluate("window.__notReloaded") is True


def test_the_last_move_announces_the_winner_and_the_bonuses_to_both(last_move):
    game, move, final, names, mover, opponent = last_move
    outcome = final.outcome()
    assert outcome is not None
    # whoever completed a row earned its bonus: something to itemise
    assert any(c.kind == "row" and c.points > 0 for c in final.score_log)
    expect(mover.locator("#board p.winners")).to_have_count(0)

    click_move(mover, move)
    wait_past(mover, game.ply)
    _sees_the_end(mover, final, names)
    # the opponent's page follows through its socket, no reload
    _sees_the_end(opponent, final, names)

    # what the pages show is what the site stored
    stored = orm(lambda: selectors.game_get(game_id=game.pk))
    assert stored.status == Game.Status.FINISHED
    assert {s.number: (s.rank, s.score) for s in stored.seats.all()} == {
        seat: (outcome.ranks[seat], outcome.scores[seat]) for seat in range(len(names))
    }
    assert orm(selectors.game_engine, stored).score_log == final.score_log
