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
