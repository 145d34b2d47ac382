"""A player whose bank ran out is told that a vacation day was spent (issue #37
item 4; docs/clock.md, "A bank runs out"): by e-mail and push as their
reminders (``User.notify_reminder``), in their language and time zone, once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import Channel, Vacation
from accounts.templatetags.zones import zoned
from games import clock, jobs
from games.models import Game
from notify import tasks
from notify.services import push_payload

pytestmark = pytest.mark.django_db

JUNE = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
HANOI = "Asia/Ho_Chi_Minh"


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def june(monkeypatch):
    fake = Clock(JUNE)
    monkeypatch.setattr(clock, "now", fake)
    return fake


def _ran_out(june, start_game, players, capture) -> tuple[Game, object, list]:
    """A two-player game whose mover's bank (Daily: 3 days) ran out a minute
    ago; the deadline job's pass. What the pass queued."""
    from django_tasks_db.models import DBTaskResult

    game = start_game(players[:2])
    mover = game.seats.get(number=game.seat_to_move).user
    mail.outbox.clear()
    before = DBTaskResult.objects.count()
    june.now = game.turn_deadline + timedelta(minutes=1)
    with capture(execute=True):
        jobs.process_deadlines()
    queued = [
        (r.task_path, r.args_kwargs["args"])
        for r in DBTaskResult.objects.order_by("enqueued_at")[before:]
    ]
    game.refresh_from_db()
    return game, mover, queued


def test_a_vacation_day_spent_is_told_by_email_in_the_players_zone(
    june, players, start_game, django_capture_on_commit_callbacks
):
    game, mover, queued = _ran_out(
        june, start_game, players, django_capture_on_commit_callbacks
    )
    assert game.status == Game.Status.ACTIVE  # a day was spent, not lost
    assert ("notify.tasks.vacation_day_spent", [mover.pk, game.pk]) in queued
    mover.time_zone = HANOI
    mover.save(update_fields=["time_zone"])
    mail.outbox.clear()

    assert tasks.vacation_day_spent.call(mover.pk, game.pk) == "e-mails 1, pushes 0"
    [message] = mail.outbox
    assert message.to == [mover.email]
    assert message.subject == (
        f"A vacation day was spent for your move in Azul game {game.pk}"
    )
    body = " ".join(message.body.split())
    vacation = Vacation.objects.get(user=mover)
    with timezone.override(ZoneInfo(HANOI)):
        until = zoned(vacation.ends_at)
    assert vacation.ends_at == june.now + timedelta(days=1)
    assert (
        f"Your time for your move in game {game.pk} ran out, so one of your "
        f"vacation days was spent: your clocks in all your games are stopped "
        f"until {until}."
    ) in body
    assert "Asia/Ho Chi Minh" in until
    assert "You have 13 vacation days left this year." in body
    assert f"/games/{game.pk}/" in body

    # its push: the subject as its title, a line of its own
    payload = push_payload(
        mover, game, "vacation", {"until": vacation.ends_at, "days_left": 13}
    )
    assert payload["title"] == message.subject
    assert payload["body"] == (
        f"Your clocks are stopped until {until}. "
        "You have 13 vacation days left this year."
    )

    # told once, however often the task runs
    assert tasks.vacation_day_spent.call(mover.pk, game.pk) == "told already"
    assert len(mail.outbox) == 1


def test_the_notice_follows_the_reminder_setting(
    june, players, start_game, django_capture_on_commit_callbacks
):
    game, mover, _queued = _ran_out(
        june, start_game, players, django_capture_on_commit_callbacks
    )
    mover.notify_reminder = Channel.NONE
    mover.save(update_fields=["notify_reminder"])
    mail.outbox.clear()
    assert tasks.vacation_day_spent.call(mover.pk, game.pk) == "e-mails 0, pushes 0"
    assert mail.outbox == []


def test_a_notice_in_the_players_language(
    june, players, start_game, django_capture_on_commit_callbacks
):
    game, mover, _queued = _ran_out(
        june, start_game, players, django_capture_on_commit_callbacks
    )
    mover.language = "vi"
    mover.save(update_fields=["language"])
    mail.outbox.clear()
    tasks.vacation_day_spent.call(mover.pk, game.pk)
    [message] = mail.outbox
    assert message.subject == (
        f"Đã dùng một ngày nghỉ cho nước đi của bạn trong ván Azul {game.pk}"
    )
    assert "Năm nay bạn còn 13 ngày nghỉ." in message.body
