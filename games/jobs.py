"""The deadline job: timeouts, reminders and turn e-mails (lichess: scheduled, not in
requests). ``manage.py process_deadlines`` runs it once (cron) or ``--loop``; the
ASGI process runs the loop in a thread when ``DEADLINE_LOOP_SECONDS`` is set.

Every step claims its work with a guarded UPDATE (``… WHERE ply = expected AND
flag is unset``) before acting, so a second run, or a second process running at
the same time, finds nothing left to do: a timeout is applied once, an e-mail sent
at most once.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import timedelta

from django.db import close_old_connections
from django.db.models import Q

from accounts.models import User

from . import clock, emails, selectors, services
from .models import Game, Seat

logger = logging.getLogger(__name__)

REMINDER_BEFORE = timedelta(hours=24)
"""A reminder goes out when less than this remains (half the time in 1-day games)."""


@dataclass
class Report:
    timeouts: int = 0
    reminders: int = 0
    turn_emails: int = 0
    digests: int = 0

    def __str__(self) -> str:
        return (
            f"timeouts {self.timeouts}, reminders {self.reminders}, "
            f"turn e-mails {self.turn_emails}, digests {self.digests}"
        )


def _user_to_move(game: Game) -> User | None:
    seat = (
        Seat.objects.select_related("user")
        .filter(game=game, number=game.seat_to_move)
        .first()
    )
    return seat.user if seat is not None else None


def _wants_email(user: User | None, kind: str) -> bool:
    if user is None or not user.email or not user.is_active:
        return False
    preference = user.email_notifications
    if preference == User.EmailNotifications.NEVER:
        return False
    return kind != "turn" or preference == User.EmailNotifications.EACH_MOVE


def _safely(action: str, send: object) -> bool:
    try:
        send()  # type: ignore[operator]
    except Exception:
        logger.exception("could not send the %s e-mail", action)
        return False
    return True


def process_timeouts(report: Report) -> None:
    now = clock.now()
    due = Game.objects.filter(
        status=Game.Status.ACTIVE, turn_deadline__lte=now
    ).values_list("pk", "ply")
    for game_id, ply in list(due):
        if services.game_timeout(game_id=game_id, expected_ply=ply):
            report.timeouts += 1


def process_reminders(report: Report) -> None:
    now = clock.now()
    due = Game.objects.filter(
        status=Game.Status.ACTIVE,
        reminder_sent_at__isnull=True,
        turn_deadline__gt=now,
    ).filter(
        Q(days_per_move=1, turn_deadline__lte=now + REMINDER_BEFORE / 2)
        | Q(days_per_move__gt=1, turn_deadline__lte=now + REMINDER_BEFORE)
    )
    for game in list(due):
        claimed = Game.objects.filter(
            pk=game.pk,
            ply=game.ply,
            status=Game.Status.ACTIVE,
            reminder_sent_at__isnull=True,
        ).update(reminder_sent_at=now)
        if not claimed:
            continue
        user = _user_to_move(game)
        if _wants_email(user, "reminder") and _safely(
            "reminder", lambda g=game, u=user: emails.send_reminder(user=u, game=g)
        ):
            report.reminders += 1


def process_turn_emails(report: Report) -> None:
    due = Game.objects.filter(status=Game.Status.ACTIVE, turn_email_sent=False)
    for game in list(due):
        claimed = Game.objects.filter(
            pk=game.pk, ply=game.ply, turn_email_sent=False
        ).update(turn_email_sent=True)
        if not claimed:
            continue
        user = _user_to_move(game)
        if _wants_email(user, "turn") and _safely(
            "turn", lambda g=game, u=user: emails.send_turn(user=u, game=g)
        ):
            report.turn_emails += 1


def process_digests(report: Report) -> None:
    now = clock.now()
    since = now - timedelta(days=1)
    due_users = User.objects.filter(
        is_active=True,
        email_notifications=User.EmailNotifications.DAILY_DIGEST,
    ).filter(Q(digest_sent_at__isnull=True) | Q(digest_sent_at__lte=since))
    for user in list(due_users.exclude(email="")):
        games = list(selectors.game_list_awaiting_move(user=user))
        if not games:
            continue
        claimed = (
            User.objects.filter(pk=user.pk)
            .filter(Q(digest_sent_at__isnull=True) | Q(digest_sent_at__lte=since))
            .update(digest_sent_at=now)
        )
        if claimed and _safely(
            "digest", lambda u=user, g=games: emails.send_digest(user=u, games=g)
        ):
            report.digests += 1


def process_deadlines() -> Report:
    """One pass: timeouts first (they start new turns), then the e-mails."""
    report = Report()
    process_timeouts(report)
    process_reminders(report)
    process_turn_emails(report)
    process_digests(report)
    return report


def run_forever(interval: float, stop: threading.Event | None = None) -> None:
    """Run :func:`process_deadlines` every ``interval`` seconds until ``stop``."""
    stop = stop or threading.Event()
    while not stop.is_set():
        close_old_connections()
        try:
            report = process_deadlines()
            if report.timeouts or report.reminders or report.turn_emails:
                logger.info("deadlines: %s", report)
        except Exception:
            logger.exception("the deadline job failed; trying again next time")
        finally:
            close_old_connections()
        stop.wait(interval)


def start_in_background(interval: float) -> threading.Thread:
    """The deadline loop in a daemon thread of this process (the run command)."""
    thread = threading.Thread(
        target=run_forever, args=(interval,), name="deadline-loop", daemon=True
    )
    thread.start()
    return thread
