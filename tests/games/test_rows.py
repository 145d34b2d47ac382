"""The hand-written hot read (games/rows.py) returns what the ORM query returns."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Vacation
from games import clock, selectors
from games.models import Game, Seat
from games.rows import game_variant, game_with_seats

pytestmark = pytest.mark.django_db

ORM = Game.objects.prefetch_related(selectors.seats_with_users(vacations=True))


def _fields(obj):
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_matches_the_orm_with_users_vacations_and_an_open_seat(
    players, start_game, make_user
):
    game = start_game(players[:2], variant="pavilion")
    now = clock.now()
    Vacation.objects.create(
        user=players[1], starts_at=now - timedelta(days=1), ends_at=now + timedelta(2)
    )
    Vacation.objects.create(  # a later one that has not started: not current
        user=players[1], starts_at=now + timedelta(days=5), ends_at=now + timedelta(9)
    )
    Vacation.objects.create(  # longer current one wins, as the ORM's latest end
        user=players[1], starts_at=now - timedelta(hours=1), ends_at=now + timedelta(3)
    )
    open_game = Game.objects.create(
        variant="classic", players=3, creator=players[0], state={"x": [1]}
    )
    Seat.objects.create(
        game=open_game, number=0, user=players[0], invite_status="joined"
    )
    Seat.objects.create(game=open_game, number=1)
    Seat.objects.create(
        game=open_game, number=2, user=players[1], invite_status="invited"
    )
    for pk in (game.pk, open_game.pk):
        expected = ORM.get(pk=pk)
        with CaptureQueriesContext(connection) as queries:
            got = game_with_seats(game_id=pk)
            seats = list(got.seats.all())
            users = [seat.user for seat in seats]
            assert [seat.game is got for seat in seats] == [True] * len(seats)
        assert len(queries) == 2
        assert _fields(got) == _fields(expected)
        assert isinstance(got.turn_deadline, type(expected.turn_deadline))
        wanted = list(expected.seats.all())
        assert [_fields(s) for s in seats] == [_fields(s) for s in wanted]
        assert [s.vacation_until for s in seats] == [s.vacation_until for s in wanted]
        assert [u and _fields(u) for u in users] == [
            s.user and _fields(s.user) for s in wanted
        ]
        assert selectors.seat_vacations(game=got) == selectors.seat_vacations(
            game=expected
        )
    assert selectors.seat_vacations(game=game_with_seats(game_id=game.pk)) == {
        1: now + timedelta(3)
    }


def test_locked_read_and_missing_game(players, start_game):
    game = start_game(players[:2])
    with CaptureQueriesContext(connection) as queries:
        game_with_seats(game_id=game.pk, lock=True)
    if connection.features.has_select_for_update:
        assert queries[0]["sql"].endswith("FOR UPDATE")
    with pytest.raises(Game.DoesNotExist):
        game_with_seats(game_id=game.pk + 1000)


def test_game_variant(players, start_game):
    game = start_game(players[:2], variant="pavilion")
    assert game_variant(game_id=game.pk) == "pavilion"
    assert game_variant(game_id=game.pk + 1000) is None
