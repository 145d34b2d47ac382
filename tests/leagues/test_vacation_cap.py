"""League games have no vacation beyond 3 days a season (issue #38 item 2,
docs/clock.md "A vacation's cap"): a vacation stops a league game's clock
for at most the days its seat has left, coming back early gives back what
was not spent, and a game outside the league keeps the whole vacation."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.services import vacation_end_now, vacation_start
from games import clock
from games.models import Game, Seat
from leagues import services
from leagues.models import League, Waiver
from leagues.rehearsal import moved_clock


@pytest.fixture
def league_game(db, make_user):
    league = League.objects.create(
        slug="azul-cap", variant="classic", players=2, season_weeks=8
    )
    users = [make_user(f"v{i}") for i in range(3)]
    Waiver.objects.bulk_create([Waiver(user=u) for u in users])
    season = services.season_create(
        league=league, starts_at=clock.now() + timedelta(days=1)
    )
    for user in users:
        services.season_join(season_id=season.pk, user=user)
    with moved_clock(season.starts_at):
        services.season_start(season_id=season.pk)
    return Game.objects.filter(league_game__group__season=season).first()


def _mover(game):
    game.refresh_from_db()
    return Seat.objects.select_related("user").get(game=game, number=game.seat_to_move)


def test_a_long_vacation_stops_a_league_clock_three_days_only(league_game):
    seat = _mover(league_game)
    assert seat.vacation_left_seconds == 3 * 86400
    before = league_game.turn_deadline
    vacation_start(user=seat.user, days=5)
    league_game.refresh_from_db()
    assert league_game.turn_deadline - before == timedelta(days=3)
    seat.refresh_from_db()
    assert seat.vacation_left_seconds == 0


def test_coming_back_early_gives_back_what_was_not_spent(league_game):
    seat = _mover(league_game)
    before = league_game.turn_deadline
    start = clock.now()
    with moved_clock(start) as moment:
        vacation_start(user=seat.user, days=5)
        moment[0] = start + timedelta(days=1)
        assert vacation_end_now(user=seat.user)
    league_game.refresh_from_db()
    seat.refresh_from_db()
    # one day away: the clock stopped for that day, two of the three are left
    assert abs(league_game.turn_deadline - before - timedelta(days=1)) < timedelta(
        seconds=2
    )
    assert abs(seat.vacation_left_seconds - 2 * 86400) < 2


def test_a_game_outside_the_league_keeps_the_whole_vacation(db, make_user):
    from games import services as game_services

    ana, bob = make_user("ana"), make_user("bob")
    game = game_services.game_start_seated(
        variant="classic", users=[ana, bob], first_seat=0, time_control="daily"
    )
    before = game.turn_deadline
    vacation_start(user=ana, days=5)
    game.refresh_from_db()
    assert game.turn_deadline - before == timedelta(days=5)
