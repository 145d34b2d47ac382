"""Seasons follow each other without staff (issue #38 item 6): the deadline
job's pass opens a league's first season, starts it on its first day, ends
it on its last, and opens the next; a player who withdraws leaves as one out
of time does; a league game cannot be cancelled; the rehearsal command
prints the season as JSON."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command

from games import clock
from games import services as game_services
from games.models import Game
from leagues import services
from leagues.models import Entry, League, LeagueGame, Season, Waiver
from leagues.rehearsal import moved_clock


@pytest.fixture
def league(db):
    League.objects.update(active=False)  # the three the site starts with
    return League.objects.create(
        slug="azul-job", variant="classic", players=2, season_weeks=8
    )


def test_the_job_opens_starts_and_ends_seasons(league, make_user):
    users = [make_user(f"p{i}") for i in range(4)]
    Waiver.objects.bulk_create([Waiver(user=u) for u in users])
    with moved_clock(clock.now()) as moment:
        report = services.process_seasons()
        assert report.opened == 1
        season = league.seasons.get()
        assert season.status == Season.Status.REGISTRATION
        assert season.opens_at <= moment[0] < season.starts_at
        assert (season.starts_at - season.opens_at).days == 14
        assert (season.ends_at - season.starts_at).days == 56
        # nothing more to do until the first day
        assert services.process_seasons().opened == 0
        for user in users:
            services.season_join(season_id=season.pk, user=user)
        moment[0] = season.starts_at
        assert services.process_seasons().started == 1
        season.refresh_from_db()
        assert season.status == Season.Status.RUNNING
        assert LeagueGame.objects.filter(group__season=season).count() == 12
        # a week before the last day, the next season's registration opens
        moment[0] = season.ends_at - timedelta(days=7)
        report = services.process_seasons()
        assert (report.opened, report.ended) == (1, 0)
        nxt = league.seasons.get(number=2)
        assert nxt.starts_at - moment[0] == timedelta(days=14)
        moment[0] = season.ends_at
        assert services.process_seasons().ended == 1
        season.refresh_from_db()
        assert season.status == Season.Status.FINISHED
        # every game decided (none was played), the next season registering
        games = LeagueGame.objects.filter(group__season=season)
        assert all(g.decided for g in games)
        following = league.seasons.get(number=2)
        assert following.status == Season.Status.REGISTRATION
        assert following.starts_at == season.ends_at + timedelta(days=7)
        assert following.entries.filter(confirmed=False).count() == 4


def test_fewer_than_three_players_and_the_season_is_not_played(league, make_user):
    ana = make_user("ana")
    Waiver.objects.create(user=ana)
    with moved_clock(clock.now()) as moment:
        services.process_seasons()
        season = league.seasons.get()
        services.season_join(season_id=season.pk, user=ana)
        moment[0] = season.starts_at
        services.process_seasons()
    season.refresh_from_db()
    assert season.status == Season.Status.CANCELLED
    assert not Game.objects.exists()


def _started(league, make_user, count, seats=2):
    league.players = seats
    league.save()
    users = [make_user(f"w{i}") for i in range(count)]
    Waiver.objects.bulk_create([Waiver(user=u) for u in users])
    season = services.season_create(
        league=league, starts_at=clock.now() + timedelta(days=1)
    )
    for user in users:
        services.season_join(season_id=season.pk, user=user)
    with moved_clock(season.starts_at):
        services.season_start(season_id=season.pk)
    return season, users


def test_withdrawing_resigns_the_games_and_cannot_be_undone(league, make_user):
    season, users = _started(league, make_user, 3)
    ana = users[0]
    services.season_withdraw(season_id=season.pk, user=ana)
    entry = Entry.objects.get(season=season, user=ana)
    assert entry.left == Entry.Left.WITHDREW
    theirs = Game.objects.filter(league_game__group__season=season, seats__user=ana)
    # at 2 players, each of their games is lost
    assert {g.status for g in theirs} == {Game.Status.FINISHED}
    assert all(g.seats.get(user=ana).rank == 2 for g in theirs)
    with pytest.raises(services.LeagueError, match="already left"):
        services.season_withdraw(season_id=season.pk, user=ana)
    # the others' game between them goes on
    others = Game.objects.filter(league_game__group__season=season).exclude(
        seats__user=ana
    )
    assert {g.status for g in others} == {Game.Status.ACTIVE}


def test_at_four_players_the_computer_plays_the_seat_of_one_who_left(league, make_user):
    season, users = _started(league, make_user, 4, seats=4)
    services.season_withdraw(season_id=season.pk, user=users[0])
    games = Game.objects.filter(league_game__group__season=season)
    assert games.count() == 4
    for game in games:
        assert game.status == Game.Status.ACTIVE  # three still play
        assert game.seats.get(user=users[0]).resigned


def test_a_league_game_cannot_be_cancelled(league, make_user):
    season, users = _started(league, make_user, 3)
    game = Game.objects.filter(league_game__group__season=season).first()
    with pytest.raises(game_services.GameActionError):
        game_services.game_cancel(game_id=game.pk, user=game.creator)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_the_rehearsal_command_prints_the_season(db):
    out = io.StringIO()
    call_command(
        "season_rehearse",
        "--variant",
        "classic",
        "--seats",
        "2",
        "--entrants",
        "4",
        "--seed",
        "5",
        stdout=out,
    )
    printed = json.loads(out.getvalue())
    assert set(printed) >= {
        "groups",
        "promoted",
        "relegated",
        "timed_out",
        "seconds",
    }
    (group,) = printed["groups"]
    assert group["division"] == 1 and len(group["players"]) == 4
    assert len(group["games"]) == 12
    assert {g["result"] for g in group["games"]} <= {"finished", "decided"}
    assert [row["player"] for row in group["standings"]] == group["players"]
    assert len(printed["timed_out"]) == 1
    assert set(printed["seconds"]) == {"start", "end"}
    assert printed["relegated"] == [group["standings"][-1]["player"]]
    assert printed["promoted"] == []  # division 1 has nowhere to go up


def test_verdicts_with_playouts_go_to_the_review_queue_and_play_stops(
    league, make_user, django_capture_on_commit_callbacks, monkeypatch
):
    """At 3 players a game, an unfinished game's verdict takes the computer's
    playouts: the last day stops play in it (a move is refused in words), the
    season waits (deciding), the review queue's worker makes each verdict and
    the last one finishes the season."""
    from django_tasks_db.models import DBTaskResult

    from games import services as game_services
    from leagues import tasks
    from leagues.rehearsal import _play_one

    monkeypatch.setattr(services, "DECIDE_PLAYOUTS", 2)  # 16 on the site
    season, users = _started(league, make_user, 3, seats=4)
    games = list(Game.objects.filter(league_game__group__season=season))
    assert [g.players for g in games] == [3, 3, 3]
    for game in games:  # a few decisions in each, then the season ends
        for _ in range(3):
            _play_one(game.pk)
    with moved_clock(season.ends_at) as moment:
        with django_capture_on_commit_callbacks(execute=True):
            services.season_end(season_id=season.pk)
        season.refresh_from_db()
        assert season.status == Season.Status.DECIDING
        queued = DBTaskResult.objects.filter(queue_name="review")
        assert queued.count() == 3
        game = Game.objects.get(pk=games[0].pk)
        assert game.play_stopped_at is not None and game.turn_deadline is None
        mover = game.seats.get(number=game.seat_to_move).user
        with pytest.raises(game_services.GameActionError, match="Play has stopped"):
            game_services.game_play_move(
                game_id=game.pk,
                user=mover,
                move={"from": 0, "colour": "red", "to": 0},
                expected_ply=game.ply,
            )
        for game in games:  # what the worker does with each queued task
            moment[0] += timedelta(minutes=1)
            tasks.decide.call(game.pk)
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    for league_game in LeagueGame.objects.filter(group__season=season):
        assert league_game.decided and league_game.game.decided
        # expected points of 3 seats always add up to 1.5
        assert sum(league_game.points.values()) == pytest.approx(1.5)


def test_a_second_departure_in_a_year_bars_the_next_two_seasons(league, make_user):
    ana = make_user("ana")
    Waiver.objects.create(user=ana)
    now = clock.now()
    seasons = [
        Season.objects.create(
            league=league,
            number=number,
            opens_at=now + timedelta(weeks=10 * number - 2),
            starts_at=now + timedelta(weeks=10 * number),
            ends_at=now + timedelta(weeks=10 * number + 8),
            status=Season.Status.FINISHED,
        )
        for number in range(1, 6)
    ]
    Entry.objects.create(
        season=seasons[0],
        user=ana,
        created_at=now,
        left=Entry.Left.TIMEOUT,
        left_at=seasons[0].starts_at + timedelta(days=3),
    )
    # once: the next season only
    assert services.bans(user=ana, league=league, before=seasons[1]) == 1
    assert services.bans(user=ana, league=league, before=seasons[2]) == 0
    Entry.objects.create(
        season=seasons[2],
        user=ana,
        created_at=now,
        left=Entry.Left.WITHDREW,
        left_at=seasons[2].starts_at + timedelta(days=3),
    )
    # twice within a year: the next two
    assert services.bans(user=ana, league=league, before=seasons[3]) == 2
    assert services.bans(user=ana, league=league, before=seasons[4]) == 1
