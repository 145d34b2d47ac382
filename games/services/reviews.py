"""The review of a game that just ended (issue #27, docs/review.md): a queued
row, and the review queue's task after the commit (``tasks.review_game``,
queued by ``games.tasks`` when ``review_wanted`` is announced).
The queue serves played games first and each account in turn
(``games.review_queue``); an account may ask for the reviews of
``REVIEW_IMPORTS_PER_DAY`` imported records a day (issue #33)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User

from .. import clock
from ..models import Game, GameReview
from ..selectors import game_continued
from .common import GameActionError, announce

ASKS_WINDOW = timedelta(days=1)
"""The imports' quota counts one account's asks over this window."""


review_wanted = Signal()
"""A finished game's review is to be made (``game_id``), sent after commit;
``games.tasks`` queues it (connected in ``GamesConfig.ready()``)."""


def _next_ask_in(free_at: datetime, now: datetime) -> str:
    """ "You can ask for the next one in 5 hours.": the wait until ``free_at``,
    rounded up to the minute, or to the hour beyond one."""
    minutes = max(1, -(-int((free_at - now).total_seconds()) // 60))
    if minutes <= 60:
        return ngettext(
            "You can ask for the next one in %(minutes)s minute.",
            "You can ask for the next one in %(minutes)s minutes.",
            minutes,
        ) % {"minutes": minutes}
    hours = -(-minutes // 60)
    return ngettext(
        "You can ask for the next one in %(hours)s hour.",
        "You can ask for the next one in %(hours)s hours.",
        hours,
    ) % {"hours": hours}


def _imports_quota(*, user_id: int, now: datetime) -> None:
    """Refuse an ask beyond ``REVIEW_IMPORTS_PER_DAY`` reviews of imported
    records that the account ``user_id`` asked for in the last 24 hours,
    saying when the next one is possible. Called inside the asking transaction
    with the user's row locked, so two asks at once are counted one after the
    other."""
    User.objects.select_for_update().filter(pk=user_id).first()
    per_day = settings.REVIEW_IMPORTS_PER_DAY
    asks = GameReview.objects.filter(
        requested_by_id=user_id,
        kind=GameReview.Kind.IMPORTED,
        created_at__gt=now - ASKS_WINDOW,
    )
    if asks.count() < per_day:
        return
    oldest = asks.order_by("created_at").values_list("created_at", flat=True)
    free_at = (oldest.first() or now) + ASKS_WINDOW
    raise GameActionError(
        ngettext(
            "You can ask for the review of %(count)s imported record a day.",
            "You can ask for the reviews of %(count)s imported records a day.",
            per_day,
        )
        % {"count": per_day}
        + " "
        + _next_ask_in(free_at, now),
        "review_quota",
    )


def game_review_queue(*, game: Game, asked_by: User | None = None) -> None:
    """Queue the review of finished ``game``, once: a game played here when it
    ends (for its creator's account); an imported record when its uploader
    asks (``asked_by``), within their quota of asks a day."""
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
    if GameReview.objects.filter(game=game).exists():
        return  # asked before: once
    now = clock.now()
    with transaction.atomic():
        if game.imported:
            _imports_quota(user_id=game.creator_id, now=now)
        _review, created = GameReview.objects.get_or_create(
            game=game,
            defaults={
                "seconds": settings.REVIEW_SECONDS,
                "created_at": now,
                "queued_at": now,
                "kind": GameReview.Kind.IMPORTED
                if game.imported
                else GameReview.Kind.PLAYED,
                "requested_by_id": game.creator_id,
            },
        )
        if created:
            announce(review_wanted, game_id=game.pk)
