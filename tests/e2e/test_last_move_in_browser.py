"""The opponent's last move, as the waiting player's open page shows it when it
arrives by its doorbell: the tiles it moved marked where they went, the factory
or centre marked where they came from, and the log saying it."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Browser, expect

from games import selectors
from games.engine.classic import COLOURS as CLASSIC_COLOURS
from games.engine.common import CENTER
from games.engine.pavilion_board import COLOURS as PAVILION_COLOURS
from tests.e2e.test_live_board import PASSWORD, log_in, start_game
from tests.games.helpers import move_post_data, pavilion_post_data
from tests.games.marks import last_move

from .waits import sockets_open


def _orm(function, *args):
    with ThreadPoolExecutor(1) as pool:  # the ORM outside Playwright's loop
        return pool.submit(function, *args).result()


def _take(game_id: int):
    """The game, its engine and a legal take from a factory by the mover."""
    game = selectors.game_get(game_id=game_id)
    engine = selectors.game_engine(game)
    take = next(
        m
        for m in engine.legal_moves()
        if getattr(m, "source", CENTER) != CENTER and hasattr(m, "colour")
    )
    return game, engine, take


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_the_waiting_player_sees_the_opponents_take_marked(
    browser: Browser, live_url: str, make_user, variant: str
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh, variant)
    users = {seat.number: seat.user for seat in game.seats.all()}
    mover, watcher = users[game.seat_to_move], users[1 - game.seat_to_move]
    contexts = {}
    for user in (mover, watcher):
        page = browser.new_context().new_page()
        page.set_default_timeout(10_000)
        log_in(page, live_url, user.username)
        contexts[user.pk] = page
    page = contexts[watcher.pk]
    page.goto(f"{live_url}/games/{game.pk}/")
    sockets_open(page, "user", "game")

    game, engine, take = _orm(_take, game.pk)
    context = contexts[mover.pk].context
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    response = context.request.post(
        f"{live_url}/games/{game.pk}/move/",
        form=(move_post_data if variant == "classic" else pavilion_post_data)(
            take, game.ply
        ),
        headers={"X-CSRFToken": token, "HX-Request": "true"},
    )
    assert response.status == 200
    page.wait_for_function(
        "ply => Number(document.querySelector('#board').dataset.ply) > ply",
        arg=game.ply,
    )
    after = _orm(lambda: selectors.game_engine(selectors.game_get(game_id=game.pk)))
    entry = after.log[-1]
    assert entry["type"] == "take"
    placed, taken_from = last_move(page.locator("#board").inner_html())
    seat = take.seat
    if variant == "classic":
        expected = {}
        colour = entry["colour"]
        name = CLASSIC_COLOURS[colour]
        if entry["placed"]:
            expected[f"line-{seat}-{entry['line']}"] = Counter({name: entry["placed"]})
        if entry["to_floor"]:
            expected[f"floor-{seat}"] = Counter({name: entry["to_floor"]})
        source = entry["source"]
    else:
        brought = Counter({entry["colour"]: entry["tiles"]})
        brought[PAVILION_COLOURS[after.wild]] += entry["wild"]
        expected = {f"hand-{seat}": +brought}
        source = entry["from"]
    assert placed == expected
    assert taken_from == [f"factory-{source}"]
    # the marked tiles stand out: a ring around each
    marked = page.locator("#board [data-last-move]:not([data-last-move=from])")
    expect(marked.first).to_be_visible()
    assert marked.first.evaluate("e => getComputedStyle(e).boxShadow") != "none"
    expect(page.locator("#board .log li").last).to_contain_text(
        f"{mover.username} took"
    )
    for opened in contexts.values():
        opened.context.close()
