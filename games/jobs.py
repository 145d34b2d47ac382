"""The deadline job: timeouts, reminders, turn notifications and digests (lichess:
scheduled, not in requests). ``manage.py process_deadlines`` runs it once (cron) or
``--loop`` (a worker process, ``deploy/``); a single Daphne process runs the loop
itself when ``DEADLINE_LOOP_SECONDS`` is set (``start_with_server``).

Every step claims its work before acting — a guarded UPDATE (``… WHERE ply =
expected AND flag is unset``), or for a reminder a ``notify.Notice`` row (an
INSERT on a unique key: turn, deadline, hours) — so a second run, or a second
process running at the same time, finds nothing left to do: a timeout is applied
once, an e-mail or a push sent at most once.

Reminders (issue #18) come as the player chose: 24, 4 and/or 1 hour before the
deadline (``User.reminder_hours``), by push and/or e-mail
(``User.notify_reminder``), each once. One that would fall inside the player's
quiet hours (a daily range in their time zone) comes ``QUIET_MARGIN`` before they
start; one due at or before the turn's clock started (the 24-hour one in a 1-day
game) does not come: "your move" has just said it. When several are due at once
(the job was down, quiet hours moved one up), only the most urgent goes.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.db.models import Q

from accounts.models import REMINDER_HOURS, User
from accounts.timezones import zone_for

from . import clock, emails, in_server, selectors, services, tasks
from .models import Game

logger = logging.getLogger(__name__)

QUIET_MARGIN = timedelta(minutes=10)
"""A reminder that would fall in quiet hours comes this long before they start."""

REMINDER_LOOKAHEAD = timedelta(hours=max(REMINDER_HOURS) + 24)
"""Deadlines closer than this are looked at: the earliest reminder, moved up to
a day earlier by quiet hours."""

NOTICES_KEPT = timedelta(days=30)
"""Reminder claims older than this are deleted (their deadlines are long past)."""


@dataclass
class Report:
    timeouts: int = 0
    reminders: int = 0
    turn_emails: int = 0
    digests: int = 0
    computer_turns: int = 0
    pushes: int = 0
    turn_emails_waiting: int = 0

    def __str__(self) -> str:
        return (
            f"timeouts {self.timeouts}, reminders {self.reminders}, "
            f"turn e-mails {self.turn_emails} "
            f"({self.turn_emails_waiting} waiting), digests {self.digests}, "
            f"pushes {self.pushes}, "
            f"computer turns queued again {self.computer_turns}"
        )


def _user_to_move(game: Game) -> User | None:
    return selectors.game_user_to_move(game=game)


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


def quiet_hours_around(
    user: User, moment: datetime
) -> tuple[datetime, datetime] | None:
    """The start and end of the quiet hours of ``user`` that ``moment`` falls
    in, or None. Quiet hours are a daily range of local times (``quiet_start``
    to ``quiet_end``, past midnight when the end is earlier); no times, or the
    same two, mean none."""
    start, end = user.quiet_start, user.quiet_end
    if start is None or end is None or start == end:
        return None
    zone = zone_for(user.time_zone)
    local = moment.astimezone(zone)
    for days_back in (0, 1):
        day = local.date() - timedelta(days=days_back)
        begins = datetime.combine(day, start, tzinfo=zone)
        last_day = day + timedelta(days=1) if end < start else day
        ends = datetime.combine(last_day, end, tzinfo=zone)
        if begins <= local < ends:
            return begins, ends
    return None


def reminder_time(user: User, game: Game, hours: int) -> datetime | None:
    """When the reminder ``hours`` before the deadline of ``game`` is due for
    ``user``, or None when it does not come this turn."""
    deadline = game.turn_deadline
    if deadline is None:
        return None
    clock_start = deadline - timedelta(days=game.days_per_move)
    moment = deadline - timedelta(hours=hours)
    if moment <= clock_start:
        return None
    quiet = quiet_hours_around(user, moment)
    if quiet is None:
        return moment
    begins, ends = quiet
    if begins - QUIET_MARGIN > clock_start:
        return begins - QUIET_MARGIN
    # The turn began in these very quiet hours: the reminder waits for their end.
    return ends if ends < deadline else None


def _reminder_key(game: Game, hours: int) -> str:
    deadline = int(game.turn_deadline.timestamp()) if game.turn_deadline else 0
    return f"{game.ply}@{deadline}/{hours}h"


def process_reminders(report: Report) -> None:
    from notify.models import Notice
    from notify.services import channels, claim, notify_reminder

    now = clock.now()
    due = Game.objects.filter(
        status=Game.Status.ACTIVE,
        turn_deadline__gt=now,
        turn_deadline__lte=now + REMINDER_LOOKAHEAD,
    )
    games = list(due)
    # Claims already made: not tried again each pass (the INSERT stays the guard).
    made = set(
        Notice.objects.filter(
            kind=Notice.Kind.REMINDER, game__in=[g.pk for g in games]
        ).values_list("game_id", "key")
    )
    for game in games:
        user = _user_to_move(game)
        if user is None or not any(channels(user, "reminder")):
            continue
        hours_due = []
        for hours in user.reminder_hours:
            moment = reminder_time(user, game, hours)
            key = _reminder_key(game, hours)
            if moment is not None and moment <= now and (game.pk, key) not in made:
                hours_due.append(hours)
        claimed = [
            hours
            for hours in hours_due
            if claim(
                user=user,
                game=game,
                kind=Notice.Kind.REMINDER,
                key=_reminder_key(game, hours),
            )
        ]
        if not claimed:
            continue
        sent = notify_reminder(user=user, game=game, hours=min(claimed))
        report.reminders += bool(sent.emails or sent.pushes)
        report.pushes += sent.pushes
    Notice.objects.filter(
        kind=Notice.Kind.REMINDER, sent_at__lt=now - NOTICES_KEPT
    ).delete()


def process_turn_emails(report: Report) -> None:
    """ "Your move", by e-mail and push, for each turn not told yet: the task
    queued when the turn began (``notify.tasks.turn_started``) has usually told
    it already; this catches the turns whose task was lost, and those whose
    e-mail waited (``notify.services.turn_email_waits``: the player had the
    page open or had just moved) once it waits no more. A turn still waiting
    is looked at again next pass. When the task had pushed before the e-mail
    waited (the page was closed), a second push comes with the e-mail, after
    the player stayed away: under the same tag, it replaces the first on the
    device rather than adding one."""
    from notify.services import notify_turn, turn_email_waits
    from notify.tasks import claim_turn

    due = Game.objects.filter(status=Game.Status.ACTIVE, turn_email_sent=False)
    for game in list(due):
        user = _user_to_move(game)
        if user is not None and turn_email_waits(user=user, game=game):
            report.turn_emails_waiting += 1
            continue
        if not claim_turn(game_id=game.pk, ply=game.ply):
            continue
        if user is None:
            continue
        sent = notify_turn(user=user, game=game)
        report.turn_emails += sent.emails
        report.pushes += sent.pushes


def process_digests(report: Report) -> None:
    now = clock.now()
    since = now - timedelta(days=1)
    due_users = User.objects.filter(
        is_active=True,
        computer_level="",
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
    """One pass: timeouts first (they start new turns), computers' turns that
    waited too long (``tasks.process_computer_turns``), then the notifications."""
    report = Report()
    process_timeouts(report)
    report.computer_turns = tasks.process_computer_turns()
    process_reminders(report)
    process_turn_emails(report)
    process_digests(report)
    return report


def run_once() -> Report | None:
    """One pass with fresh database connections; a failure is logged, not raised."""
    close_old_connections()
    try:
        report = process_deadlines()
    except Exception:
        logger.exception("the deadline job failed; trying again next time")
        return None
    finally:
        close_old_connections()
    if any((report.timeouts, report.reminders, report.turn_emails)) or (
        report.computer_turns or report.pushes
    ):
        logger.info("deadlines: %s", report)
    return report


def run_forever(interval: float, stop: threading.Event | None = None) -> None:
    """Run :func:`process_deadlines` every ``interval`` seconds until ``stop``
    (``manage.py process_deadlines --loop``: a process of its own)."""
    stop = stop or threading.Event()
    while not stop.is_set():
        run_once()
        stop.wait(interval)


async def run_forever_in_server(interval: float) -> None:
    """The deadline loop as a task of the server's event loop.

    Each pass runs in a worker thread through ``sync_to_async``, so the doorbells
    it rings (``async_to_sync(group_send)`` in ``notifications.py``) are sent on
    this loop, as asgiref does for a thread started by ``sync_to_async``. That is
    what the in-memory channel layer needs: its queues are plain ``asyncio``
    queues of the server's loop, and a message put on one from another loop (a
    thread of our own, where ``async_to_sync`` starts a new loop) wakes no
    consumer until something else wakes the server's loop.
    """
    while True:
        await sync_to_async(run_once, thread_sensitive=False)()
        await asyncio.sleep(interval)


def start_with_server(interval: float) -> None:
    """Run the deadline loop in this Daphne server's event loop once it starts
    (``DEADLINE_LOOP_SECONDS``, read by ``azulsite/asgi.py``).

    Daphne runs Twisted's asyncio reactor; ``callWhenRunning`` is Twisted's hook
    for work that starts with the server. Under another ASGI server run
    ``manage.py process_deadlines --loop`` instead (with the Redis layer).
    """
    in_server.start_with_daphne(
        lambda: run_forever_in_server(interval),
        otherwise=(
            "DEADLINE_LOOP_SECONDS needs Daphne; the deadline job is not running "
            "(use manage.py process_deadlines --loop)"
        ),
    )
