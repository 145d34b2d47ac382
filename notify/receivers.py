"""What notify does when the game side announces something (``games.signals``).

Connected in ``NotifyConfig.ready()``. The game side's news queue a task
(``notify.tasks``) on the notifications' queue; a queue that is down is logged:
a turn is still told by the deadline job; the other notices are lost. The
deadline pass runs ``notify.jobs``; the game pages' sockets are recorded in
``notify.presence``; the invitation limit asks which invitations were told;
who is online and how many watch a game are asked of the open pages.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django_tasks.base import Task

from accounts import signals as account_signals
from accounts.models import User
from chat import signals as chat_signals
from games import signals
from games.jobs import Report

from . import jobs, presence, tasks
from .models import Notice

logger = logging.getLogger(__name__)


def _enqueue(task: Task[..., str], *args: int | None) -> None:
    try:
        task.enqueue(*args)
    except Exception:
        logger.exception("could not queue the %s notification %s", task.name, args)


def on_turn_started(*, game_id: int, ply: int, **_: Any) -> None:
    _enqueue(tasks.turn_started, game_id, ply)


def on_invited(*, game_id: int, user_id: int, **_: Any) -> None:
    _enqueue(tasks.invited, game_id, user_id)


def on_game_started(*, game_id: int, started_by: int | None, **_: Any) -> None:
    _enqueue(tasks.game_started, game_id, started_by)


def on_game_finished(*, game_id: int, **_: Any) -> None:
    _enqueue(tasks.game_finished, game_id)


def on_message_posted(*, message_id: int, **_: Any) -> None:
    _enqueue(tasks.message_posted, message_id)


def on_deadline_pass(*, report: Report, **_: Any) -> None:
    jobs.process_reminders(report)
    jobs.process_turn_emails(report)


def on_invitations_told(
    *, creator: User, since: datetime, **_: Any
) -> list[tuple[int, int, datetime]]:
    """The invitations of ``creator``'s games made after ``since`` that were told."""
    return list(
        Notice.objects.filter(
            kind=Notice.Kind.INVITED,
            game__creator=creator,
            game__created_at__gt=since,
        ).values_list("game_id", "user_id", "game__created_at")
    )


_pages: dict[str, presence.PageWatch] = {}
"""The open game pages of this process's sockets, by channel name."""


async def on_page_opened(
    *, user: User | AnonymousUser | None, game_id: int, channel_name: str, **_: Any
) -> None:
    watch = await presence.page_opened(
        user=user, game_id=game_id, channel_name=channel_name
    )
    if watch is not None:
        _pages[channel_name] = watch


async def on_page_closed(*, channel_name: str, **_: Any) -> None:
    await presence.page_closed(_pages.pop(channel_name, None))


def on_online_asked(*, user_ids: list[int], **_: Any) -> set[int]:
    """Who of ``user_ids`` has a game page open (``accounts.selectors.presence``)."""
    return presence.online_ids(user_ids=user_ids)


def on_watchers_asked(*, game_ids: list[int] | None = None, **_: Any) -> dict[int, int]:
    """The watchers of ``game_ids`` (or of every watched game): ``games.watch``."""
    return presence.watcher_counts(game_ids=game_ids)


def connect() -> None:
    """Subscribe to the game side's announcements (once: ``dispatch_uid``)."""
    for signal, receiver in (
        (signals.turn_started, on_turn_started),
        (signals.invited, on_invited),
        (signals.game_started, on_game_started),
        (signals.game_finished, on_game_finished),
        (signals.deadline_pass, on_deadline_pass),
        (signals.invitations_told, on_invitations_told),
        (signals.page_opened, on_page_opened),
        (signals.page_closed, on_page_closed),
        (signals.watchers_asked, on_watchers_asked),
        (account_signals.online_asked, on_online_asked),
        (chat_signals.message_posted, on_message_posted),
    ):
        signal.connect(receiver, dispatch_uid=f"notify.{receiver.__name__}")
