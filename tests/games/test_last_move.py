"""What happened since a player last looked: the last take marked on the board,
and "Since your last move" listing every move made since."""

from __future__ import annotations

import random
import re
from collections import Counter
from html import unescape

import pytest
from django.urls import reverse

from games import selectors, services
from games.engine.classic import COLOURS, FLOOR
from games.engine.common import CENTER
from games.engine.pavilion_board import COLOURS as PAVILION_COLOURS

from .helpers import decide_every_move, move_event
from .marks import last_move

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _board(client, game) -> str:
    response = client.get(reverse("games:detail", args=[game.pk]), **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def _items(html: str, section: str) -> list[str]:
    """The list items of the section with class ``section``, as text."""
    match = re.search(rf'<section class="{section}"[^>]*>(.*?)</section>', html, re.S)
    if match is None:
        return []
    items = re.findall(r"<li>(.*?)</li>", match.group(1), re.S)
    return [unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in items]


def _play(game, rng):
    game = selectors.game_get(game_id=game.pk)
    engine = selectors.game_engine(game)
    move = rng.choice(engine.legal_moves())
    mover = game.seats.all()[game.seat_to_move].user
    services.game_play_move(
        game_id=game.pk, user=mover, move=move_event(move), expected_ply=game.ply
    )
    return mover


def test_the_last_take_is_marked_where_its_tiles_went(players, start_game, client_for):
    rng = random.Random(5)
    game = start_game(players[:2])
    watcher = client_for(players[1])
    seen_takes = 0
    for _ in range(30):  # round 1, its wall tiling and the start of round 2
        _play(game, rng)
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        placed, taken_from = last_move(_board(watcher, game))
        entry = engine.log[-1]
        if entry["type"] != "take":  # the round moved on: nothing shows it
            assert (placed, taken_from) == ({}, [])
            continue
        seen_takes += 1
        seat, colour = entry["seat"], COLOURS[entry["colour"]]
        expected = {}
        line = f"line-{seat}-{entry['line']}"
        if entry["placed"]:
            expected[line] = Counter({colour: entry["placed"]})
        if entry["to_floor"]:
            expected[f"floor-{seat}"] = Counter({colour: entry["to_floor"]})
        assert entry["line"] == FLOOR or entry["placed"]
        assert placed == expected
        source = "centre" if entry["source"] == CENTER else f"factory-{entry['source']}"
        assert taken_from == [source]
    assert seen_takes >= 20


def test_since_your_last_move_lists_every_move_made_since(
    players, start_game, client_for
):
    rng = random.Random(8)
    decide_every_move(players)  # under days per move (a bank plays them all)
    game = start_game(players[:3], days_per_move=3)
    clients = {user.pk: client_for(user) for user in players[:3]}
    watched = players[0]
    logged_then: int | None = None  # ana's log length after her latest move
    checks = 0
    for _ in range(45):  # into round 3: deals, wall tilings and round ends
        mover = _play(game, rng)
        game = selectors.game_get(game_id=game.pk)
        page = _board(clients[watched.pk], game)
        log = _items(page, "log")
        since = _items(page, "since")
        if mover == watched:
            # Her take and what it caused (a wall tiling, the round's end) are
            # hers; only a deal can follow it.
            assert all("dealt" in line for line in since)
            assert since == log[len(log) - len(since) :]
            logged_then = len(log) - len(since)
        elif logged_then is not None:
            assert since == log[logged_then:]
            assert since
            checks += 1
    assert checks >= 20
    # a visitor who is not seated has no such list
    assert _items(_board(client_for(players[3]), game), "since") == []


def test_summer_pavilion_marks_the_last_take_and_placement(
    players, start_game, client_for
):
    rng = random.Random(9)
    game = start_game(players[:2], variant="pavilion")
    watcher = client_for(players[1])
    seen = Counter()
    # the taking phase and into the placing, as long as the deals make it
    for _ in range(400):
        if seen["take"] >= 5 and seen["place"] >= 3:
            break
        _play(game, rng)
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        if engine.is_over():
            break
        placed, taken_from = last_move(_board(watcher, game))
        entry = engine.log[-1]
        if entry["type"] == "take":
            seen["take"] += 1
            seat, wild = entry["seat"], engine.wild
            brought = Counter({entry["colour"]: entry["tiles"]})
            brought[PAVILION_COLOURS[wild]] += entry["wild"]
            # the tiles it brought, in the taker's hand; where they came from
            assert placed == {f"hand-{seat}": +brought}
            source = entry["from"]
            assert taken_from == [
                "centre" if source == "center" else f"factory-{source}"
            ]
        elif entry["type"] == "place":
            seen["place"] += 1
            assert placed == {f"board-{entry['seat']}": Counter([entry["colour"]])}
            assert taken_from == []
        else:  # a bonus, a pass, a deal: nothing on the board shows a move
            assert (placed, taken_from) == ({}, [])
    assert seen["take"] >= 5 and seen["place"] >= 3
