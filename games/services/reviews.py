"""The review of a game that just ended (issue #27, docs/review.md): a queued
row, and the review queue's task after the commit (``tasks.review_game``)."""

from __future__ import annotations

import functools
import logging

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User

from .. import clock, tasks
from ..models import Game, GameReview
from ..selectors import game_continued
from .common import GameActionError

logger = logging.getLogger(__name__)


def _enqueue(game_id: int) -> None:
    try:
        tasks.review_game.enqueue(game_id)
    except Exception:
        logger.exception("could not queue the review of game %s", game_id)


def game_review_queue(*, game: Game, asked_by: User | None = None) -> None:
    """Queue the review of finished ``game``, once: a game played here when it
    ends; an imported record when its uploader asks (``asked_by``)."""
    if game.status != Game.Status.FINISHED:
        raise GameActionError(_("Only a finished game is reviewed."), "not_finished")
    if game.imported and (asked_by is None or asked_by.pk != game.creator_id):
        raise GameActionError(
            _("Only the player who imported this record can ask for its review."),
            "not_uploader",
        )
    continued = game_continued(game=game)
    if continued is not None:  # docs/review.md, "No engine help in a game in progress"
        raise GameActionError(
            _(
                "This record continues game %(number)s, which is still being "
                "played: it is reviewed once that game has ended."
            )
            % {"number": continued.pk},
            "continues_a_game_in_progress",
        )
    _review, created = GameReview.objects.get_or_create(
        game=game,
        defaults={
            "seconds": settings.REVIEW_SECONDS,
            "created_at": clock.now(),
            "queued_at": clock.now(),
        },
    )
    if created:
        transaction.on_commit(functools.partial(_enqueue, game.pk))
