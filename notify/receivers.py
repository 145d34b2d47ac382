"""What notify does when the game side announces something (``games.signals``,
``chat.signals``, ``leagues.signals``).

Connected in ``NotifyConfig.ready()``. The game side's news queue a task
(``notify.tasks``) on the notifications' queue; a queue that is down is logged:
a turn is still told by the deadline job; the other notices are lost. The
deadline pass runs ``notify.jobs``. notify only listens: no receiver answers a
question.
"""

from __future__ import annotations

import logging
from typing import Any

from django_tasks.base import Task

from chat import signals as chat_signals
from games import signals
from games.jobs import Report
from leagues import signals as league_signals

from . import jobs, tasks

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


def on_vacation_day_spent(*, user_id: int, game_id: int, **_: Any) -> None:
    _enqueue(tasks.vacation_day_spent, user_id, game_id)


def on_message_posted(*, message_id: int, **_: Any) -> None:
    _enqueue(tasks.message_posted, message_id)


def on_season_started(*, season_id: int, **_: Any) -> None:
    _enqueue(tasks.season_started, season_id)


def on_season_ended(*, season_id: int, **_: Any) -> None:
    _enqueue(tasks.season_ended, season_id)


def on_deadline_pass(*, report: Report, **_: Any) -> None:
    jobs.process_reminders(report)
    jobs.process_turn_emails(report)


def connect() -> None:
    """Subscribe to the game side's, the chat's and the leagues' announcements
    (once: ``dispatch_uid``)."""
    for signal, receiver in (
        (signals.turn_started, on_turn_started),
        (signals.invited, on_invited),
        (signals.game_started, on_game_started),
        (signals.game_finished, on_game_finished),
        (signals.vacation_day_spent, on_vacation_day_spent),
        (signals.deadline_pass, on_deadline_pass),
        (chat_signals.message_posted, on_message_posted),
        (league_signals.season_started, on_season_started),
        (league_signals.season_ended, on_season_ended),
    ):
        signal.connect(receiver, dispatch_uid=f"notify.{receiver.__name__}")
