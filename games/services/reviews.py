"""The review of a game that just ended (issue #27, docs/review.md): a queued
row, and the review queue's task after the commit (``tasks.review_game``)."""

from __future__ import annotations

import functools
import logging

from django.conf import settings
from django.db import transaction

from .. import clock, tasks
from ..models import Game, GameReview

logger = logging.getLogger(__name__)


def _enqueue(game_id: int) -> None:
    try:
        tasks.review_game.enqueue(game_id)
    except Exception:
        logger.exception("could not queue the review of game %s", game_id)


def game_review_queue(*, game: Game) -> None:
    """Queue the review of ``game``, finished and played here (an imported
    record is reviewed only when its uploader asks); once per game."""
    if game.status != Game.Status.FINISHED or game.imported:
        return
    _, created = GameReview.objects.get_or_create(
        game=game,
        defaults={
            "seconds": settings.REVIEW_SECONDS,
            "created_at": clock.now(),
            "queued_at": clock.now(),
        },
    )
    if created:
        transaction.on_commit(functools.partial(_enqueue, game.pk))
