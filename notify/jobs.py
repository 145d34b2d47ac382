"""The notifications' part of the deadline job (``games.jobs``): reminders, and
"your move" for the turns not told yet. ``notify.receivers`` runs both on each pass
(``games.signals.deadline_pass``), after the timeouts and the computers' turns and
before the digests.

Reminders (issue #18) come as the player chose: 24, 2 and/or 1 hour before the
deadline (``User.reminder_hours``), by push and/or e-mail
(``User.notify_reminder``), each once. One that would fall inside the player's
quiet hours (a daily range in their time zone) comes ``QUIET_MARGIN`` before they
start; one due at or before the turn's clock started (the 24-hour one in a 1-day
game) does not come: "your move" has just said it. When several are due at once
(the job was down, quiet hours moved one up), only the most urgent goes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from accounts.models import REMINDER_HOURS, User
from accounts.timezones import zone_for
from games import clock, selectors
from games.jobs import Report
from games.models import Game

from .models import Notice
from .services import channels, claim, notify_reminder, notify_turn, turn_email_waits
from .tasks import claim_turn

QUIET_MARGIN = timedelta(minutes=10)
"""A reminder that would fall in quiet hours comes this long before they start."""

REMINDER_LOOKAHEAD = timedelta(hours=max(REMINDER_HOURS) + 24)
"""Deadlines closer than this are looked at: the earliest reminder, moved up to
a day earlier by quiet hours."""

NOTICES_KEPT = timedelta(days=30)
"""Reminder claims older than this are deleted (their deadlines are long past)."""


def _user_to_move(game: Game) -> User | None:
    return selectors.game_user_to_move(game=game)


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
    clock_start = game.turn_started_at
    moment = deadline - timedelta(hours=hours)
    if clock_start is not None and moment <= clock_start:
        return None
    quiet = quiet_hours_around(user, moment)
    if quiet is None:
        return moment
    begins, ends = quiet
    if clock_start is None or begins - QUIET_MARGIN > clock_start:
        return begins - QUIET_MARGIN
    # The turn began in these very quiet hours: the reminder waits for their end.
    return ends if ends < deadline else None


def _reminder_key(game: Game, hours: int) -> str:
    deadline = int(game.turn_deadline.timestamp()) if game.turn_deadline else 0
    return f"{game.ply}@{deadline}/{hours}h"


def process_reminders(report: Report) -> None:
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
