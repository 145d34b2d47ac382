"""The review of a game that just ended (issue #27, docs/review.md): a queued
row, and the review queue's task after the commit (``tasks.review_game``,
queued by ``games.tasks`` when ``review_wanted`` is announced); then the
writes of its life in the queue, which the task and the deadline job make
(a heartbeat, queued again, failed, made).
The queue serves played games first and each account in turn
(``games.history.review_queue``); an account may ask for the reviews of
``REVIEW_IMPORTS_PER_DAY`` imported records a day (issue #33)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.dispatch import Signal
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import clock
from games.models import Game, GameReview
from games.selectors import game_continued
from games.services.common import GameActionError, announce

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


# ------------------------------------------------------- its life in the queue
#
# Each write below but the last is guarded by what its caller read (compare
# and set: the status, the heartbeat, the time it was queued), so of two
# processes that read the same review one writes; each says whether it did.


def _running(*, game_id: int, heartbeat_at: datetime | None) -> QuerySet[GameReview]:
    """The review of ``game_id`` while it is being made and its last heartbeat
    is still ``heartbeat_at``."""
    return GameReview.objects.filter(
        game_id=game_id, status=GameReview.Status.RUNNING, heartbeat_at=heartbeat_at
    )


def game_review_heartbeat(
    *, game_id: int, beat_at: datetime, now: datetime, done: int, total: int
) -> bool:
    """The worker making the review of ``game_id`` is alive at ``now``, with
    ``done`` of ``total`` events weighed; False when its last heartbeat is no
    longer ``beat_at`` (the deadline job queued it again: stop)."""
    return bool(
        _running(game_id=game_id, heartbeat_at=beat_at).update(
            done=done, total=total, heartbeat_at=now
        )
    )


def game_review_release(*, game_id: int, beat_at: datetime) -> bool:
    """The server that makes the review of ``game_id`` stops: the review goes
    back to the queue at its place, to be made from the start; whether it
    was still this worker's (its last heartbeat ``beat_at``)."""
    return bool(
        _running(game_id=game_id, heartbeat_at=beat_at).update(
            status=GameReview.Status.QUEUED, heartbeat_at=None, done=0, total=0
        )
    )


def game_review_fail(*, game_id: int, beat_at: datetime) -> bool:
    """The review of ``game_id`` could not be made; whether it was still this
    worker's (its last heartbeat ``beat_at``)."""
    return bool(
        _running(game_id=game_id, heartbeat_at=beat_at).update(
            status=GameReview.Status.FAILED
        )
    )


def game_review_store(
    *, game_id: int, data: dict[str, Any], events: int, now: datetime
) -> None:
    """The review of ``game_id`` is made (``data``, what ``Review.to_json``
    writes, over ``events`` events): stored whole, even if the deadline job
    queued it again meanwhile (a worker that took it up then stops at its first
    heartbeat)."""
    GameReview.objects.filter(game_id=game_id).exclude(
        status=GameReview.Status.DONE
    ).update(
        status=GameReview.Status.DONE,
        data=data,
        done=events,
        total=events,
        heartbeat_at=None,
        finished_at=now,
    )


def game_review_withdraw(*, game_id: int) -> None:
    """The review of ``game_id`` being made is dropped: the record continues a
    game still played, and is asked for again once that game has ended
    (docs/review.md)."""
    GameReview.objects.filter(
        game_id=game_id, status=GameReview.Status.RUNNING
    ).delete()


def game_review_requeue_silent(
    *,
    game_id: int,
    heartbeat_at: datetime | None,
    queued_at: datetime,
    now: datetime,
) -> bool:
    """The worker making the review of ``game_id`` fell silent (killed
    mid-way): the review, if its heartbeat and claim are still
    ``heartbeat_at`` and ``queued_at``, waits in the queue again from ``now``,
    its progress cleared; whether this caller queued it."""
    return bool(
        _running(game_id=game_id, heartbeat_at=heartbeat_at)
        .filter(queued_at=queued_at)
        .update(
            status=GameReview.Status.QUEUED,
            queued_at=now,
            heartbeat_at=None,
            done=0,
            total=0,
        )
    )


def game_review_requeue_late(
    *, game_id: int, queued_at: datetime, now: datetime
) -> bool:
    """The review of ``game_id``, queued at ``queued_at`` and still waiting,
    had its task lost: it counts as queued ``now``; whether this caller
    did it (and queues its task)."""
    return bool(
        GameReview.objects.filter(
            game_id=game_id, status=GameReview.Status.QUEUED, queued_at=queued_at
        ).update(queued_at=now)
    )
