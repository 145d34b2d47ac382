"""What the leagues do when the game side announces something
(``games.signals``): a league game's result counted, a player out of time
leaving the season, and the seasons due on the deadline job's pass. Each is
idempotent, and the job catches up one lost (``services.process_seasons``)."""

from __future__ import annotations

import logging
from typing import Any

from games import signals
from games.jobs import Report
from leagues import services

logger = logging.getLogger(__name__)


def on_game_finished(*, game_id: int, **_: Any) -> None:
    services.game_over(game_id=game_id)


def on_seat_left(*, game_id: int, user_id: int | None, reason: str, **_: Any) -> None:
    services.seat_left(game_id=game_id, user_id=user_id, reason=reason)


def on_deadline_pass(*, report: Report, **_: Any) -> None:
    try:
        logger.info("%s", services.process_seasons())
    except Exception:
        logger.exception("the seasons' pass failed")


def connect() -> None:
    for signal, receiver in (
        (signals.game_finished, on_game_finished),
        (signals.seat_left, on_seat_left),
        (signals.deadline_pass, on_deadline_pass),
    ):
        signal.connect(receiver, dispatch_uid=f"leagues.{receiver.__name__}")
