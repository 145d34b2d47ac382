"""What notify does when the game side announces something (``games.signals``).

Connected in ``NotifyConfig.ready()``. Each receiver queues its task
(``notify.tasks``) on the notifications' queue; a queue that is down is logged:
a turn is still told by the deadline job; the other notices are lost.
"""

from __future__ import annotations

import logging
from typing import Any

from games import signals

from . import jobs, tasks

logger = logging.getLogger(__name__)


def _enqueue(task: Any, *args: Any) -> None:
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


def on_deadline_pass(*, report: Any, **_: Any) -> None:
    jobs.process_reminders(report)
    jobs.process_turn_emails(report)


def connect() -> None:
    """Subscribe to the game side's announcements (once: ``dispatch_uid``)."""
    for signal, receiver in (
        (signals.turn_started, on_turn_started),
        (signals.invited, on_invited),
        (signals.game_started, on_game_started),
        (signals.game_finished, on_game_finished),
        (signals.deadline_pass, on_deadline_pass),
    ):
        signal.connect(receiver, dispatch_uid=f"notify.{receiver.__name__}")
