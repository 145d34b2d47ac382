"""The deadline job: timeouts, reminders, turn notifications and digests (lichess:
scheduled, not in requests). ``manage.py process_deadlines`` runs it once (cron) or
``--loop`` (a worker process, ``deploy/``); a single Daphne process runs the loop
itself when ``DEADLINE_LOOP_SECONDS`` is set (``start_with_server``). Between
the loop's passes, every ``COMPUTER_CHECK_SECONDS``, a cheap check finds the
computer turns lost with a killed worker (``run_computer_check``, issue #33).

Every step claims its work before acting — a guarded UPDATE (``… WHERE ply =
expected AND flag is unset``), or for a reminder a ``notify.Notice`` row (an
INSERT on a unique key: turn, deadline, hours) — so a second run, or a second
process running at the same time, finds nothing left to do: a timeout is applied
once, an e-mail or a push sent at most once.

The notifying side does its due work in the same pass, on
``signals.deadline_pass`` (``notify.jobs``: reminders, and the turns not told yet).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q

from accounts.models import User
from accounts.services import user_digest_claim
from games import clock, emails, in_server, selectors, services, signals, tasks
from games.models import Game

logger = logging.getLogger(__name__)


@dataclass
class Report:
    timeouts: int = 0
    vacation_days: int = 0
    reminders: int = 0
    turn_emails: int = 0
    digests: int = 0
    computer_turns: int = 0
    reviews: int = 0
    pushes: int = 0
    turn_emails_waiting: int = 0

    def __str__(self) -> str:
        return (
            f"timeouts {self.timeouts}, vacation days spent {self.vacation_days}, "
            f"reminders {self.reminders}, "
            f"turn e-mails {self.turn_emails} "
            f"({self.turn_emails_waiting} waiting), digests {self.digests}, "
            f"pushes {self.pushes}, "
            f"computer turns queued again {self.computer_turns}, "
            f"reviews queued again {self.reviews}"
        )


def _safely(action: str, send: Callable[[], object]) -> bool:
    try:
        send()
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
        if services.game_bank_ran_out(game_id=game_id, expected_ply=ply):
            report.vacation_days += 1
        elif services.game_timeout(game_id=game_id, expected_ply=ply):
            report.timeouts += 1


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
        claimed = user_digest_claim(user_id=user.pk, since=since, now=now)
        if claimed and _safely(
            "digest", functools.partial(emails.send_digest, user=user, games=games)
        ):
            report.digests += 1


def process_deadlines() -> Report:
    """One pass: timeouts first (they start new turns), computers' turns lost
    (``tasks.process_computer_turns``, also checked every few seconds between
    passes: :func:`run_forever`), reviews whose work was lost
    (``tasks.process_reviews``), then the notifications
    (``signals.deadline_pass``: reminders and turns not told; then the digests)."""
    report = Report()
    process_timeouts(report)
    report.computer_turns = tasks.process_computer_turns()
    report.reviews = tasks.process_reviews()
    signals.deadline_pass.send(sender=Report, report=report)
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
    if any(
        (report.timeouts, report.vacation_days, report.reminders, report.turn_emails)
    ) or (report.computer_turns or report.pushes or report.reviews):
        logger.info("deadlines: %s", report)
    return report


def run_computer_check() -> int:
    """Between the full passes, every ``COMPUTER_CHECK_SECONDS``: the computer
    turns lost with a killed worker or a lost task, queued again
    (``tasks.process_computer_turns``, one cheap query when none is); a failure
    is logged, not raised."""
    close_old_connections()
    try:
        queued = tasks.process_computer_turns()
    except Exception:
        logger.exception("the computer turns' check failed; trying again")
        return 0
    finally:
        close_old_connections()
    if queued:
        logger.info("deadlines: computer turns queued again %s", queued)
    return queued


def checks_between(interval: float) -> list[float]:
    """The pauses of one loop's round: ``interval`` seconds from a full pass to
    the next, cut every ``COMPUTER_CHECK_SECONDS`` by a computer turns' check
    (issue #33: a turn lost with its worker is found within seconds, not after
    the next minute's pass). One pause when the checks are off (0) or the
    interval is as short."""
    check = settings.COMPUTER_CHECK_SECONDS
    if check <= 0 or check >= interval:
        return [interval]
    pauses = [check] * int(interval // check)
    rest = interval - sum(pauses)
    return pauses + [rest] if rest > 1e-9 else pauses


def run_forever(interval: float, stop: threading.Event | None = None) -> None:
    """Run :func:`process_deadlines` every ``interval`` seconds, and the
    computer turns' check (:func:`run_computer_check`) every
    ``COMPUTER_CHECK_SECONDS`` between, until ``stop`` (``manage.py
    process_deadlines --loop``: a process of its own)."""
    stop = stop or threading.Event()
    while not stop.is_set():
        run_once()
        pauses = checks_between(interval)
        for number, pause in enumerate(pauses, 1):
            if stop.wait(pause):
                return
            if number < len(pauses):
                run_computer_check()


async def run_forever_in_server(interval: float) -> None:
    """The deadline loop as a task of the server's event loop, with the
    computer turns' check between its passes, as :func:`run_forever`.

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
        pauses = checks_between(interval)
        for number, pause in enumerate(pauses, 1):
            await asyncio.sleep(pause)
            if number < len(pauses):
                await sync_to_async(run_computer_check, thread_sensitive=False)()


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
