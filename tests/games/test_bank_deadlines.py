"""The deadline job and the bank clock, with time moved (issue #37 items 4 and
6; docs/clock.md, "A bank runs out"): a bank that runs out spends a vacation
day of its player when they have one and the game lets it, else the game is
lost on time (two players) or the player forfeits (more); a move accepted
before the job wins."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from accounts.models import Vacation
from accounts.services import vacation_days_used
from games import jobs, selectors, services
from games.models import Game, Move, Seat

from .helpers import move_event

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
JUNE = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
"""The tests' start: mid-year, so a vacation year is the same whatever day the
suite runs."""


@pytest.fixture
def june(fake_clock):
    fake_clock.now = JUNE
    return fake_clock


def _started(users, **kwargs) -> Game:
    """A game of ``users`` created with ``kwargs`` (its clock), started."""
    game = services.game_create(
        creator=users[0],
        variant=kwargs.pop("variant", "classic"),
        players=len(users),
        rated=False,
        invitees=users[1:],
        **kwargs,
    )
    for user in users[1:]:
        services.game_invitation_respond(game_id=game.pk, user=user, accept=True)
    game.refresh_from_db()
    return game


def _to_move(game: Game):
    game.refresh_from_db()
    return game.seats.get(number=game.seat_to_move).user


def _play(game: Game):
    game.refresh_from_db()
    mover = _to_move(game)
    services.game_play_move(
        game_id=game.pk,
        user=mover,
        move=move_event(selectors.game_engine(game).legal_moves()[0]),
        expected_ply=game.ply,
    )
    game.refresh_from_db()
    return mover


def _no_vacation_left(user) -> None:
    """``user`` took their 14 days this year already (in January)."""
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    Vacation.objects.create(user=user, starts_at=start, ends_at=start + 10 * DAY)
    start = datetime(2026, 3, 9, 9, 0, tzinfo=UTC)
    Vacation.objects.create(user=user, starts_at=start, ends_at=start + 4 * DAY)
    assert vacation_days_used(user=user) == 14


def _page(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


# ------------------------------------------------------------ running out


def test_a_bank_run_out_with_no_vacation_day_left_loses_a_two_player_game(
    players, june
):
    game = _started(players[:2])
    late = _to_move(game)
    _no_vacation_left(late)
    deadline = game.turn_deadline
    assert deadline == JUNE + 3 * DAY
    june.now = deadline - timedelta(minutes=1)
    report = jobs.process_deadlines()
    assert (report.timeouts, report.vacation_days) == (0, 0)
    june.now = deadline + timedelta(seconds=30)  # the job runs every minute
    report = jobs.process_deadlines()
    assert (report.timeouts, report.vacation_days) == (1, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.TIMEOUT
    seats = {s.user_id: s for s in game.seats.all()}
    assert seats[late.pk].forfeited_at == june.now
    assert seats[late.pk].rank == 2
    assert [s.rank for s in seats.values() if s.user_id != late.pk] == [1]
    # no vacation day was taken: there was none
    assert vacation_days_used(user=late) == 14
    assert Vacation.objects.filter(user=late).count() == 2
    # the page says so; a move now is refused and changes nothing
    assert f"{late.username} did not move in time and lost the game." in _page(
        late, game
    )
    with pytest.raises(services.GameActionError) as refused:
        services.game_play_move(
            game_id=game.pk,
            user=late,
            move=move_event(selectors.game_engine(game).legal_moves()[0]),
            expected_ply=game.ply,
        )
    assert refused.value.code == "status"
    assert Move.objects.filter(game=game).count() == game.ply
    # and the job has nothing more to do
    assert jobs.process_deadlines().timeouts == 0


def test_a_game_with_no_vacation_loses_on_time_though_days_are_left(players, june):
    game = _started(players[:2], vacation_spends=False)
    late = _to_move(game)
    june.now = game.turn_deadline + timedelta(seconds=1)
    report = jobs.process_deadlines()
    assert (report.timeouts, report.vacation_days) == (1, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.TIMEOUT
    assert game.seats.get(user=late).forfeited_at == june.now
    # their days stay theirs
    assert not Vacation.objects.filter(user=late).exists()
    assert vacation_days_used(user=late) == 0


def test_a_bank_run_out_at_four_players_forfeits_and_the_game_goes_on(players, june):
    game = _started(players, variant="pavilion")
    late = _to_move(game)
    _no_vacation_left(late)
    june.now = game.turn_deadline + timedelta(seconds=30)
    report = jobs.process_deadlines()
    assert (report.timeouts, report.vacation_days) == (1, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    late_seat = game.seats.get(user=late)
    assert late_seat.forfeited_at == june.now
    # the site played their decision, and someone else is to move, on their
    # first turn: the whole start of Daily from now
    auto = Move.objects.filter(game=game, auto=True)
    assert auto.exists() and {m.user_id for m in auto} == {late.pk}
    assert game.seat_to_move != late_seat.number
    assert game.turn_started_at == june.now
    assert game.turn_deadline == june.now + 3 * DAY
    # the others play on; the forfeited seat keeps no bank and is never waited for
    for _ in range(12):
        _play(game)
        assert game.status == Game.Status.ACTIVE
        assert game.seat_to_move != late_seat.number
    late_seat.refresh_from_db()
    assert late_seat.bank_seconds is None
    assert "did not move in time and forfeited" in _page(players[0], game)


# ----------------------------------------------------- a vacation day spent


def test_a_bank_run_out_spends_one_vacation_day(players, june):
    ana, binh, chloe = players[:3]
    game = _started([ana, binh])
    late = _to_move(game)
    opponent = binh if late == ana else ana
    # three days of theirs gone earlier in the year
    Vacation.objects.create(
        user=late, starts_at=JUNE - 60 * DAY, ends_at=JUNE - 57 * DAY
    )
    assert vacation_days_used(user=late) == 3
    # another game of theirs waits for them; in a third it is not their turn
    june.now = JUNE + HOUR
    other = _started([late, chloe])
    if _to_move(other) != late:
        _play(other)
    assert _to_move(other) == late
    other_deadline = other.turn_deadline
    june.now = JUNE + 2 * HOUR
    theirs = _started([chloe, late])
    if _to_move(theirs) == late:
        _play(theirs)
    assert _to_move(theirs) == chloe
    theirs_deadline = theirs.turn_deadline

    deadline = game.turn_deadline
    june.now = deadline + timedelta(seconds=30)
    report = jobs.process_deadlines()
    assert (report.vacation_days, report.timeouts) == (1, 0)
    # a one-day vacation from now
    vacation = Vacation.objects.get(user=late, starts_at=june.now)
    assert vacation.ends_at == june.now + DAY
    assert vacation_days_used(user=late) == 4
    # 24 hours more here, and on every game of theirs waiting for them
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and _to_move(game) == late
    assert game.turn_deadline == deadline + DAY
    other.refresh_from_db()
    assert other.turn_deadline == other_deadline + DAY
    theirs.refresh_from_db()
    assert theirs.turn_deadline == theirs_deadline
    assert not game.seats.filter(forfeited_at__isnull=False).exists()
    # their opponent sees them on vacation
    assert f"{late.username} is on vacation until" in _page(opponent, game)
    # the job running again spends nothing more
    report = jobs.process_deadlines()
    assert (report.vacation_days, report.timeouts) == (0, 0)
    assert vacation_days_used(user=late) == 4

    # they come back two hours into the day and move: the day ends then (its
    # unused 22 hours come off the deadline again), the move is accepted though
    # the bank had run out, and the bank keeps the increment only
    june.now = deadline + timedelta(seconds=30) + 2 * HOUR
    _play(game)
    vacation.refresh_from_db()
    assert vacation.ends_at == june.now
    assert game.seats.get(user=late).bank_seconds == DAY.total_seconds()
    assert _to_move(game) == opponent
    other.refresh_from_db()
    assert other.turn_deadline == other_deadline + 2 * HOUR


def test_a_bank_run_out_again_spends_another_day_until_none_is_left(players, june):
    game = _started(players[:2])
    late = _to_move(game)
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    Vacation.objects.create(user=late, starts_at=start, ends_at=start + 12 * DAY)
    spent = []
    for _ in range(3):
        game.refresh_from_db()
        june.now = game.turn_deadline + timedelta(seconds=30)
        report = jobs.process_deadlines()
        spent.append((report.vacation_days, report.timeouts))
    # days 13 and 14, then the game is lost on time
    assert spent == [(1, 0), (1, 0), (0, 1)]
    assert vacation_days_used(user=late) == 14
    game.refresh_from_db()
    assert game.end_reason == Game.EndReason.TIMEOUT
    assert game.seats.get(user=late).forfeited_at == june.now


def test_a_game_under_days_per_move_spends_no_vacation_day(players, start_game, june):
    """The games created before the bank lose on time as they always did."""
    game = start_game(players[:2], days_per_move=1)
    late = _to_move(game)
    june.now = game.turn_deadline + timedelta(seconds=1)
    report = jobs.process_deadlines()
    assert (report.timeouts, report.vacation_days) == (1, 0)
    assert not Vacation.objects.filter(user=late).exists()


# ---------------------------------------------------------- the last second


def test_a_move_in_the_last_second_wins_and_the_job_times_out_nothing(players, june):
    game = _started(players[:2], time_control="brisk")
    deadline = game.turn_deadline
    assert deadline == JUNE + DAY
    stale_ply = game.ply  # what a job that read the game just before saw
    june.now = deadline - timedelta(seconds=1)
    mover = _play(game)
    assert game.ply > stale_ply
    june.now = deadline + timedelta(seconds=1)
    # a job that read the game before the move claims nothing
    assert not services.game_bank_ran_out(game_id=game.pk, expected_ply=stale_ply)
    assert not services.game_timeout(game_id=game.pk, expected_ply=stale_ply)
    report = jobs.process_deadlines()
    assert (report.timeouts, report.vacation_days) == (0, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert not Seat.objects.filter(game=game, forfeited_at__isnull=False).exists()
    assert not Vacation.objects.exists()
    # the second left, plus Brisk's 4 hours
    assert game.seats.get(user=mover).bank_seconds == 4 * 3600 + 1
    assert _to_move(game) != mover
    assert game.turn_deadline == deadline - timedelta(seconds=1) + DAY
