"""Reminders as the player chose them — 24, 2 and/or 1 hour before a deadline,
each once, never in quiet hours — on the site's clock (``games.clock``)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail

from accounts.services import vacation_start
from games import clock, jobs
from notify.models import Notice
from tests.accounts.settings_form import settings_post

pytestmark = pytest.mark.django_db

HANOI = ZoneInfo("Asia/Ho_Chi_Minh")


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def at(self, moment: datetime) -> None:
        assert moment >= self.now, "the clock only moves on"
        self.now = moment


@pytest.fixture
def fake_clock(monkeypatch):
    fake = Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    monkeypatch.setattr(clock, "now", fake)
    return fake


def _started(start_game, users, days: int):
    game = start_game(users, days_per_move=days)
    jobs.process_deadlines()  # the turn's own "your move"
    mail.outbox.clear()
    game.refresh_from_db()
    mover = game.seats.get(number=game.seat_to_move).user
    return game, mover


def _reminders() -> list[str]:
    return [m.subject for m in mail.outbox if "left for your move" in m.subject]


STEP = timedelta(minutes=10)
"""How often the tests run the job (the server's loop: every minute); every time
the tests expect is a whole number of steps from the start."""


def _run_job(fake_clock, until: datetime) -> list[tuple[datetime, str]]:
    """Run the job every ``STEP`` up to ``until``; when each e-mail went."""
    sent = []
    while fake_clock.now < until:
        fake_clock.at(fake_clock.now + STEP)
        before = len(mail.outbox)
        jobs.process_deadlines()
        sent += [(fake_clock.now, m.subject) for m in mail.outbox[before:]]
    return sent


def test_each_chosen_reminder_comes_once_at_its_time(players, start_game, fake_clock):
    game, mover = _started(start_game, players[:2], days=2)
    mover.remind_1h = True  # all three
    mover.save()
    deadline = game.turn_deadline
    sent = _run_job(fake_clock, deadline - STEP)
    subject = "Less than {} left for your move in Azul game " + str(game.pk)
    assert sent == [
        (deadline - timedelta(hours=24), subject.format("a day")),
        (deadline - timedelta(hours=2), subject.format("2 hours")),
        (deadline - timedelta(hours=1), subject.format("1 hour")),
    ]
    assert all(m.to == [mover.email] for m in mail.outbox)


def test_reminders_turned_off_do_not_come(players, start_game, fake_clock):
    game, mover = _started(start_game, players[:2], days=2)
    mover.remind_24h = False  # only the 2-hour one (the default has no 1-hour)
    mover.save()
    sent = _run_job(fake_clock, game.turn_deadline - STEP)
    assert [when for when, _ in sent] == [game.turn_deadline - timedelta(hours=2)]


def test_a_one_day_game_has_no_reminder_at_the_start_of_the_turn(
    players, start_game, fake_clock
):
    game, mover = _started(start_game, players[:2], days=1)
    fake_clock.at(fake_clock.now + timedelta(seconds=1))
    assert jobs.process_deadlines().reminders == 0
    fake_clock.at(game.turn_deadline - timedelta(hours=2))
    assert jobs.process_deadlines().reminders == 1
    assert _reminders() == [
        f"Less than 2 hours left for your move in Azul game {game.pk}"
    ]


def test_a_reminder_in_quiet_hours_comes_just_before_they_start(
    players, start_game, fake_clock
):
    """Deadline 06:00 in Hanoi: the 2-hour reminder (04:00) falls in quiet hours
    22:00–07:00, so it comes at 21:50 the evening before, and nothing comes at
    night; the 24-hour one (06:00 the day before) is in quiet hours too, and
    comes at 21:50 two evenings before."""
    fake_clock.now = datetime(2026, 3, 2, 6, 0, tzinfo=HANOI).astimezone(UTC)
    game, mover = _started(start_game, players[:2], days=3)
    assert game.turn_deadline.astimezone(HANOI) == datetime(
        2026, 3, 5, 6, 0, tzinfo=HANOI
    )
    mover.time_zone = "Asia/Ho_Chi_Minh"
    mover.quiet_start, mover.quiet_end = time(22, 0), time(7, 0)
    mover.save()
    sent = _run_job(fake_clock, game.turn_deadline - STEP)
    assert [(when.astimezone(HANOI), subject[:22]) for when, subject in sent] == [
        (datetime(2026, 3, 3, 21, 50, tzinfo=HANOI), "Less than a day left f"),
        (datetime(2026, 3, 4, 21, 50, tzinfo=HANOI), "Less than 2 hours left"),
    ]
    for when, _ in sent:
        local = when.astimezone(HANOI).time()
        assert time(7, 0) <= local < time(22, 0)


def test_a_turn_that_begins_in_quiet_hours_is_reminded_when_they_end(
    players, start_game, fake_clock
):
    """A 1-day game from 23:00, quiet hours 22:00–21:30 (a long night): the
    2-hour reminder (21:00) falls in the quiet hours the turn began in, so
    "just before they start" is before the turn: it waits for their end."""
    fake_clock.now = datetime(2026, 3, 2, 23, 0, tzinfo=HANOI).astimezone(UTC)
    game, mover = _started(start_game, players[:2], days=1)
    mover.time_zone = "Asia/Ho_Chi_Minh"
    mover.quiet_start, mover.quiet_end = time(22, 0), time(21, 30)
    mover.save()
    sent = _run_job(fake_clock, game.turn_deadline - STEP)
    assert [when.astimezone(HANOI) for when, _ in sent] == [
        datetime(2026, 3, 3, 21, 30, tzinfo=HANOI)
    ]


def test_when_several_are_due_at_once_only_the_most_urgent_comes(
    players, start_game, fake_clock
):
    game, mover = _started(start_game, players[:2], days=2)
    fake_clock.at(game.turn_deadline - timedelta(minutes=90))  # the job was down
    report = jobs.process_deadlines()
    assert report.reminders == 1
    assert _reminders() == [
        f"Less than 2 hours left for your move in Azul game {game.pk}"
    ]
    assert jobs.process_deadlines().reminders == 0
    assert Notice.objects.filter(kind="reminder").count() == 2  # 24 h and 2 h


def test_reminder_by_push_only_sends_no_email(
    players, start_game, fake_clock, subscribe, push_service
):
    game, mover = _started(start_game, players[:2], days=2)
    mover.notify_reminder = "push"
    mover.save()
    browser = subscribe(mover)
    fake_clock.at(game.turn_deadline - timedelta(hours=2))
    report = jobs.process_deadlines()
    assert (report.reminders, report.pushes) == (1, 1)
    assert _reminders() == []
    payload = browser.decrypt(push_service.received[-1])
    assert payload["title"] == (
        f"Less than 2 hours left for your move in Azul game {game.pk}"
    )
    assert payload["url"] == f"/games/{game.pk}/"


def test_no_reminder_for_a_player_who_wants_none(players, start_game, fake_clock):
    game, mover = _started(start_game, players[:2], days=2)
    mover.notify_reminder = "none"
    mover.save()
    sent = _run_job(fake_clock, game.turn_deadline - timedelta(hours=3))
    assert sent == []


def test_a_vacation_moves_the_reminders_with_the_deadline(
    players, start_game, fake_clock
):
    game, mover = _started(start_game, players[:2], days=2)
    fake_clock.at(game.turn_deadline - timedelta(hours=23))
    assert jobs.process_deadlines().reminders == 1  # the 24-hour one
    vacation_start(user=mover, days=2)
    game.refresh_from_db()
    fake_clock.at(game.turn_deadline - timedelta(hours=24))
    assert jobs.process_deadlines().reminders == 1  # for the new deadline


def test_the_old_single_reminder_counts_as_sent_after_the_migration(
    players, start_game, fake_clock
):
    """Migration notify 0002: a turn reminded before issue #18 (its
    ``reminder_sent_at``, 24 h before) gets no 24-hour reminder again."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("notify.migrations.0002_reminders_already_sent")
    game, mover = _started(start_game, players[:2], days=2)
    fake_clock.at(game.turn_deadline - timedelta(hours=20))
    type(game).objects.filter(pk=game.pk).update(reminder_sent_at=fake_clock.now)
    migration.reminders_already_sent(apps, None)
    assert jobs.process_deadlines().reminders == 0
    fake_clock.at(game.turn_deadline - timedelta(hours=2))
    assert jobs.process_deadlines().reminders == 1


def test_quiet_hours_need_both_ends(players, client_for):
    ana = players[0]
    page = client_for(ana).post(
        "/accounts/settings/",
        settings_post(
            ana,
            notify_turn="push",
            notify_reminder="email",
            notify_finished="none",
            remind_24h=False,
            quiet_start="22:00",
        ),
    )
    assert page.status_code == 200
    assert "both a start and an end" in page.content.decode()
    ana.refresh_from_db()
    assert ana.notify_turn == "both" and ana.quiet_start is None


def test_the_settings_page_saves_reminders_and_quiet_hours(players, client_for):
    ana = players[0]
    response = client_for(ana).post(
        "/accounts/settings/",
        settings_post(
            ana,
            notify_turn="push",
            notify_reminder="email",
            notify_finished="none",
            remind_24h=False,
            remind_2h=False,
            remind_1h=True,
            quiet_start="22:30",
            quiet_end="07:00",
        ),
    )
    assert response.status_code == 302
    ana.refresh_from_db()
    assert (ana.notify_turn, ana.notify_reminder, ana.notify_finished) == (
        "push",
        "email",
        "none",
    )
    assert ana.reminder_hours == [1]
    assert (ana.quiet_start, ana.quiet_end) == (time(22, 30), time(7, 0))
