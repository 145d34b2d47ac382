"""The final result table: winner first, places in rank order, a shared place
shown as shared ("1="), on the game page and the replay's last position."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.models import Game

from .marks import standings

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr data-seat="(\d)" data-rank="(\d)"[^>]*><td[^>]*>([^<]+)</td>')


def _rows(html: str) -> list[tuple[int, str]]:
    """The result table's rows, top to bottom: seat and the place it reads."""
    table = html.split('class="results final-results"', 1)[1].split("</table>")[0]
    return [(int(seat), place) for seat, _rank, place in ROW.findall(table)]


@pytest.fixture
def four_player_game() -> Game:
    """A finished four-player game whose first seat did not win, so rank order
    and seat order differ."""
    call_command("fill_games", 8, players=4, seed=5, stdout=StringIO())
    return next(
        game
        for game in Game.objects.filter(end_reason=Game.EndReason.NORMAL, players=4)
        if game.seats.get(number=0).rank != 1
        and len({seat.rank for seat in game.seats.all()}) == 4
    )


def test_the_table_is_in_rank_order_winner_first(four_player_game):
    game = four_player_game
    seats = {seat.number: seat for seat in game.seats.all()}
    # the engine's ranks, as the seats store them, in an order unlike the seats'
    by_rank = sorted(seats, key=lambda n: (seats[n].rank, n))
    assert by_rank != sorted(seats)
    page = Client().get(reverse("games:detail", args=[game.pk])).text
    assert [seat for seat, _ in _rows(page)] == by_rank
    assert [place for _, place in _rows(page)] == [str(seats[n].rank) for n in by_rank]
    assert standings(page) == {n: (s.rank, s.score) for n, s in seats.items()}


def test_a_shared_place_reads_as_shared_on_the_page_and_the_replay(four_player_game):
    game = four_player_game
    seats = sorted(game.seats.all(), key=lambda seat: seat.rank)
    # the second and third share second place (a tie the rules leave standing)
    seats[2].rank = seats[1].rank = 2
    seats[2].score = seats[1].score
    seats[3].rank = 4
    for seat in seats:
        seat.save()
    expected = [
        (seats[0].number, "1"),
        *sorted([(seats[1].number, "2="), (seats[2].number, "2=")]),
        (seats[3].number, "4"),
    ]
    client = Client()
    assert _rows(client.get(reverse("games:detail", args=[game.pk])).text) == expected
    replay = client.get(reverse("games:replay", args=[game.pk]), {"ply": game.ply})
    assert _rows(replay.text) == expected
