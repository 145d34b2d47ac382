"""Deadlines with a controllable clock: timeouts, forfeits, reminders, vacation,
turn e-mails, digests, and idempotence of the deadline job."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection, connections

from accounts.services import (
    VacationError,
    vacation_current,
    vacation_days_used,
    vacation_end,
    vacation_start,
)
from games import clock, jobs, selectors, services
from games.models import Game, Move, Seat
from tests.accounts.settings_form import settings_post

from .conftest import Clock
from .helpers import move_event, move_post_data

pytestmark = pytest.mark.django_db


def to_move(game: Game):
    game.refresh_from_db()
    return game.seats.get(number=game.seat_to_move).user


def play(game: Game) -> None:
    game.refresh_from_db()
    move = selectors.game_engine(game).legal_moves()[0]
    services.game_play_move(
        game_id=game.pk,
        user=to_move(game),
        move=move_event(move),
        expected_ply=game.ply,
    )


def test_deadline_is_days_per_move_from_the_start_of_the_turn(
    players, start_game, fake_clock
):
    game = start_game(players[:2], days_per_move=2)
    assert game.turn_deadline == fake_clock.now + timedelta(days=2)
    fake_clock.advance(hours=5)
    play(game)
    game.refresh_from_db()
    assert game.turn_deadline == fake_clock.now + timedelta(days=2)


def test_two_player_timeout_loses_the_game(players, start_game, fake_clock):
    game = start_game(players[:2], days_per_move=1)
    late = to_move(game)
    fake_clock.advance(hours=23)
    assert jobs.process_deadlines().timeouts == 0
    fake_clock.advance(hours=2)
    assert jobs.process_deadlines().timeouts == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.TIMEOUT
    seats = {s.user_id: s for s in game.seats.all()}
    assert seats[late.pk].forfeited_at == fake_clock.now
    assert seats[late.pk].rank == 2
    assert [s.rank for s in seats.values() if s.user_id != late.pk] == [1]
    # the page says so, in the log and the result
    page = _client(late).get(f"/games/{game.pk}/").content.decode()
    assert f"{late.username} did not move in time and lost the game." in page
    assert "forfeited on time" in page


def _client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_three_player_timeout_forfeits_and_the_site_plays_their_turns(
    players, start_game, fake_clock
):
    game = start_game(players[:3], days_per_move=1)
    late = to_move(game)
    fake_clock.advance(days=1, seconds=1)
    assert jobs.process_deadlines().timeouts == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    late_seat = game.seats.get(user=late)
    assert late_seat.forfeited_at is not None
    # their move was played automatically and someone else is to move now
    auto = Move.objects.filter(game=game, auto=True)
    assert auto.count() == 1 and auto.get().user_id == late.pk
    assert game.seat_to_move != late_seat.number
    assert game.turn_deadline == fake_clock.now + timedelta(days=1)
    # the others play on; each time the forfeited seat comes up, it is played
    for _ in range(300):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.seat_to_move != late_seat.number
        play(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.NORMAL
    ranks = {s.user_id: s.rank for s in game.seats.all()}
    assert ranks[late.pk] == 3  # ranked last whatever the score
    assert sorted(ranks.values()) in ([1, 2, 3], [1, 1, 3])
    assert selectors.game_engine_from_moves(game).is_over()  # the record replays
    log = _client(late).get(f"/games/{game.pk}/").content.decode()
    assert "did not move in time and forfeited" in log


def test_last_player_standing_wins_when_the_second_forfeits(
    players, start_game, fake_clock
):
    game = start_game(players[:3], days_per_move=1)
    first = to_move(game)
    fake_clock.advance(days=2)
    jobs.process_deadlines()
    second = to_move(game)
    assert second != first
    fake_clock.advance(days=2)
    jobs.process_deadlines()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.TIMEOUT
    ranks = {s.user_id: s.rank for s in game.seats.all()}
    winner = next(uid for uid in ranks if uid not in (first.pk, second.pk))
    # the one who left later ranks above the one who left first
    assert (ranks[winner], ranks[second.pk], ranks[first.pk]) == (1, 2, 3)


def _standings(game: Game) -> dict[int, Seat]:
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seat_to_move is None and game.turn_deadline is None
    seats = {s.user_id: s for s in game.seats.all()}
    assert all(s.score is not None for s in seats.values())
    return seats


def test_a_resignation_then_a_timeout_end_the_game_on_time(
    players, start_game, fake_clock
):
    """Resigning and running out of time leave a game the same way: the last
    to leave names the end, and ranks above the one who left before."""
    game = start_game(players[:3], days_per_move=1)
    resigner = to_move(game)
    services.game_resign(game_id=game.pk, user=resigner)
    fake_clock.advance(hours=1)
    late = to_move(game)
    assert late != resigner
    fake_clock.advance(days=1)
    assert jobs.process_deadlines().timeouts == 1
    seats = _standings(game)
    assert game.end_reason == Game.EndReason.TIMEOUT
    winner = next(uid for uid in seats if uid not in (resigner.pk, late.pk))
    assert seats[resigner.pk].resigned and seats[resigner.pk].forfeited_at is None
    assert seats[late.pk].forfeited_at == fake_clock.now
    assert not seats[late.pk].resigned
    ranks = (seats[winner].rank, seats[late.pk].rank, seats[resigner.pk].rank)
    assert ranks == (1, 2, 3)


def test_a_timeout_then_a_resignation_end_the_game_by_resignation(
    players, start_game, fake_clock
):
    game = start_game(players[:3], days_per_move=1)
    late = to_move(game)
    fake_clock.advance(days=1, seconds=1)
    assert jobs.process_deadlines().timeouts == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    fake_clock.advance(hours=1)
    resigner = next(
        s.user
        for s in game.seats.all()
        if s.user_id != late.pk and s.number != game.seat_to_move
    )
    services.game_resign(game_id=game.pk, user=resigner)
    seats = _standings(game)
    assert game.end_reason == Game.EndReason.RESIGNED
    winner = next(uid for uid in seats if uid not in (resigner.pk, late.pk))
    assert seats[resigner.pk].resigned and seats[resigner.pk].forfeited_at is None
    assert seats[late.pk].forfeited_at is not None and not seats[late.pk].resigned
    ranks = (seats[winner].rank, seats[resigner.pk].rank, seats[late.pk].rank)
    assert ranks == (1, 2, 3)


def test_running_the_job_twice_applies_a_timeout_once(players, start_game, fake_clock):
    game = start_game(players[:3], days_per_move=1)
    fake_clock.advance(days=1, seconds=1)
    call_command("process_deadlines")
    moves = Move.objects.filter(game=game).count()
    report = jobs.process_deadlines()
    assert report.timeouts == 0
    assert Move.objects.filter(game=game).count() == moves
    assert Seat.objects.filter(game=game, forfeited_at__isnull=False).count() == 1


def test_a_stale_timeout_claim_changes_nothing(players, start_game, fake_clock):
    """The job read (game, ply) before a move landed: its claim must not match."""
    game = start_game(players[:2], days_per_move=1)
    stale_ply = game.ply
    fake_clock.advance(hours=20)
    play(game)  # the player moved in time
    fake_clock.advance(days=1, seconds=1)
    assert not services.game_timeout(game_id=game.pk, expected_ply=stale_ply)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_two_processes_at_once_apply_a_timeout_once(players, start_game, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers; row locks are PostgreSQL's guard")
    fake = Clock()
    monkeypatch.setattr(clock, "now", fake)
    games = [start_game(players[:3], days_per_move=1) for _ in range(3)]
    fake.advance(days=1, seconds=1)
    workers = 4
    barrier = threading.Barrier(workers)
    reports = []

    def run() -> None:
        try:
            barrier.wait()
            reports.append(jobs.process_deadlines())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.timeouts for r in reports) == 3
    for game in games:
        assert Seat.objects.filter(game=game, forfeited_at__isnull=False).count() == 1
        assert Move.objects.filter(game=game, auto=True).count() >= 1
        plies = list(Move.objects.filter(game=game).values_list("ply", flat=True))
        assert plies == list(range(len(plies)))
    turn_mails = [m for m in mail.outbox if "Your move in Azul game" in m.subject]
    assert len(turn_mails) == len({m.subject for m in turn_mails})


def test_turn_email_goes_once_to_who_is_to_move(players, start_game, fake_clock):
    game = start_game(players[:2])
    mover = to_move(game)
    assert jobs.process_deadlines().turn_emails == 1
    assert jobs.process_deadlines().turn_emails == 0
    [message] = mail.outbox
    assert message.to == [mover.email]
    assert f"/games/{game.pk}/" in message.body
    assert f"Your move in Azul game {game.pk}" == message.subject


def test_no_turn_email_for_digest_or_never(players, start_game, fake_clock):
    ana, binh = players[:2]
    for user, preference in ((ana, "digest"), (binh, "never")):
        user.email_notifications = preference
        user.save()
    start_game([ana, binh])
    report = jobs.process_deadlines()
    assert report.turn_emails == 0
    # ana gets a digest (if it is her move), once a day
    digests = [m for m in mail.outbox if m.to == [ana.email]]
    assert report.digests == len(digests) <= 1
    assert all(m.to != [binh.email] for m in mail.outbox)


def test_daily_digest_lists_awaiting_games_once_a_day(players, start_game, fake_clock):
    ana, binh, chloe, _ = players
    ana.email_notifications = "digest"
    ana.save()
    games = [start_game([ana, other]) for other in (binh, chloe)]
    for game in games:
        while to_move(game) != ana:
            play(game)
    mail.outbox.clear()
    assert jobs.process_deadlines().digests == 1
    [digest] = [m for m in mail.outbox if m.to == [ana.email]]
    for game in games:
        assert f"/games/{game.pk}/" in digest.body
    fake_clock.advance(hours=23)
    assert jobs.process_deadlines().digests == 0
    fake_clock.advance(hours=2)
    assert jobs.process_deadlines().digests == 1


def test_reminder_when_less_than_a_day_remains(players, start_game, fake_clock):
    game = start_game(players[:2], days_per_move=3)
    mover = to_move(game)
    jobs.process_deadlines()
    mail.outbox.clear()
    fake_clock.advance(days=1)
    assert jobs.process_deadlines().reminders == 0
    fake_clock.advance(days=1, hours=1)
    assert jobs.process_deadlines().reminders == 1
    assert jobs.process_deadlines().reminders == 0
    [reminder] = mail.outbox
    assert reminder.to == [mover.email]
    assert "Less than a day left" in reminder.subject


def test_reminder_is_rendered_in_the_recipients_language(
    players, start_game, fake_clock, monkeypatch
):
    from django.utils import translation

    languages = []
    real = translation.override

    def spy(language, *args, **kwargs):
        languages.append(language)
        return real(language, *args, **kwargs)

    monkeypatch.setattr("games.emails.translation.override", spy)
    game = start_game(players[:2], days_per_move=1)
    mover = to_move(game)
    mover.language = "vi"  # the i18n issue adds this field; emails already use it
    monkeypatch.setattr(
        "notify.jobs._user_to_move", lambda g: mover if g.pk == game.pk else None
    )
    jobs.process_deadlines()
    assert languages == ["vi"]


def test_vacation_stops_the_clock_and_opponents_see_it(players, start_game, fake_clock):
    game = start_game(players[:2], days_per_move=2)
    mover = to_move(game)
    deadline = game.turn_deadline
    vacation_start(user=mover, days=5)
    game.refresh_from_db()
    assert game.turn_deadline == deadline + timedelta(days=5)
    fake_clock.advance(days=4)
    assert jobs.process_deadlines().timeouts == 0
    other = next(s.user for s in game.seats.all() if s.user_id != mover.pk)
    page = _client(other).get(f"/games/{game.pk}/").content.decode()
    assert f"{mover.username} is on vacation until" in page
    board = _client(other).get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    assert f"{mover.username} is on vacation until" in board.content.decode()
    # coming back after 4 of 5 days: the clock stood still those 4 days only
    vacation_end(user=mover)
    game.refresh_from_db()
    assert game.turn_deadline == deadline + timedelta(days=4)
    assert vacation_days_used(user=mover) == 4


def test_a_turn_that_starts_during_vacation_starts_at_its_end(
    players, start_game, fake_clock
):
    game = start_game(players[:2], days_per_move=1)
    waiting = next(s.user for s in game.seats.all() if s.user_id != to_move(game).pk)
    vacation = vacation_start(user=waiting, days=3)
    fake_clock.advance(hours=1)
    play(game)
    game.refresh_from_db()
    assert to_move(game) == waiting
    assert game.turn_deadline == vacation.ends_at + timedelta(days=1)


def test_vacation_is_limited_to_fourteen_days_a_year(players, fake_clock):
    ana = players[0]
    vacation_start(user=ana, days=10)
    with pytest.raises(VacationError) as info:
        vacation_start(user=ana, days=1)
    assert info.value.code == "on_vacation"
    fake_clock.advance(days=10, seconds=1)
    with pytest.raises(VacationError) as info:
        vacation_start(user=ana, days=5)
    assert info.value.code == "too_long"
    vacation_start(user=ana, days=4)
    assert vacation_days_used(user=ana) == 14


def test_settings_page_saves_preference_and_starts_vacation(players, client_for):
    ana = players[0]
    client = client_for(ana)
    response = client.post(
        "/accounts/settings/",
        settings_post(ana, email_notifications="digest"),
    )
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.email_notifications == "digest"
    client.post("/accounts/settings/", {"action": "vacation_start", "days": "3"})
    assert vacation_current(user=ana) is not None
    # a forged number changes nothing and says why
    page = client.post(
        "/accounts/settings/", {"action": "vacation_start", "days": "99"}
    )
    assert page.status_code == 200
    assert ana.vacations.count() == 1
    client.post("/accounts/settings/", {"action": "vacation_end"})
    assert vacation_current(user=ana) is None


def test_deadline_is_shown_in_my_games_and_on_the_game_page(
    players, start_game, client_for
):
    game = start_game(players[:2])
    client = client_for(players[0])
    assert "left, until" in client.get("/").content.decode()
    assert "Deadline:" in client.get(f"/games/{game.pk}/").content.decode()


def test_email_links_use_the_address_the_site_is_served_on(
    players, start_game, fake_clock, client_for, settings
):
    """Without SITE_URL the links follow the requests' address (here a move
    posted to port 8123), not a fixed port; with it, SITE_URL wins."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["azul.test"]
    game = start_game(players[:2])
    mover = to_move(game)
    engine = selectors.game_engine(game)
    response = client_for(mover).post(
        f"/games/{game.pk}/move/",
        move_post_data(engine.legal_moves()[0], game.ply),
        HTTP_HOST="azul.test:8123",
    )
    assert response.status_code == 302
    assert jobs.process_deadlines().turn_emails == 1
    [message] = mail.outbox
    assert f"http://azul.test:8123/games/{game.pk}/" in message.body
    # A forged Host is refused before it can be recorded.
    forged = client_for(mover).post(
        f"/games/{game.pk}/move/", {}, HTTP_HOST="evil.example"
    )
    assert forged.status_code == 400
    settings.SITE_URL = "https://azul.example.org/"
    game.refresh_from_db()
    services.game_resign(game_id=game.pk, user=to_move(game))
    other = start_game(players[2:4])
    jobs.process_deadlines()
    [later] = [m for m in mail.outbox if f"game {other.pk}" in m.subject]
    assert f"https://azul.example.org/games/{other.pk}/" in later.body
