"""The "your move" badge every page carries for a signed-in player."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


def _badge(html: str) -> str:
    match = re.search(r'<a id="turn-badge"[^>]*>(.*?)</a>', html, re.S)
    assert match, "no badge on the page"
    return match.group(1).strip()


def test_badge_counts_the_games_awaiting_the_player_once_a_page(
    players: list[Any], client_for: Any, start_game: Any
) -> None:
    ana, binh, chloe, _dae = players
    games = [
        start_game([ana, binh]),
        start_game([ana, chloe]),
        start_game([binh, chloe]),
    ]
    waiting = sum(
        1 for game in games[:2] if game.seats.all()[game.seat_to_move].user == ana
    )
    with CaptureQueriesContext(connection) as queries:
        page = client_for(ana).get("/rules/classic/")
    assert page.status_code == 200
    assert _badge(page.content.decode()) == (f"Your move: {waiting}" if waiting else "")
    counts = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert len(counts) == 1, counts


def test_home_lists_read_no_game_one_by_one(
    players: list[Any], client_for: Any, start_game: Any
) -> None:
    """The home page's lists draw each game from its list's query, without the
    event cache (a whole game's events, which no list reads), and never fetch a
    game of theirs one by one."""
    ana, binh, chloe, dae = players
    games = [start_game([ana, binh]), start_game([ana, chloe]), start_game([dae, ana])]
    start_game([chloe, dae])
    with CaptureQueriesContext(connection) as queries:
        page = client_for(ana).get("/")
    assert page.status_code == 200
    html = page.content.decode()
    for game in games:
        assert f'href="/games/{game.pk}/"' in html
    sql = [q["sql"] for q in queries.captured_queries]
    assert [q for q in sql if '"games_game"."state"' in q] == []
    assert [q for q in sql if re.search(r'"games_game"\."id" = \d', q)] == []
