"""The review queue's fair order (issue #33 item 2, docs/review.md).

Four accounts imported 20 records each and asked for their reviews in 7 s; an
ordinary player's finished game then waited more than 22 minutes for its
review, behind theirs, as the task queue served first come, first served. Now
the order is the site's own, not the task queue's:

1. every review of a game played here before any review of an imported record
   (``GameReview.kind``);
2. among those, by the review's rank among its own account's waiting reviews
   of that kind (``GameReview.requested_by``: an import's uploader, a played
   game's creator — who can make many games end fast, resigning games against
   the computer): every account's first, then every account's second, and so
   on, so no account's backlog delays another account's review by more than
   one review;
3. among the reviews of one rank, the account served least recently first
   (its last review claimed; never served, first of all): round robin, so an
   account whose review was just claimed waits for everyone else's next;
4. then by when it was asked for (and the game's number, for ties).

The place this order gives a review is the order of the claims to come, as
long as nothing is asked meanwhile: each claim takes the head, and the next
head is the one the order had second.

One task is queued per review (``tasks.review_game``), so there are as many
tasks as reviews waiting; but a task, when it runs, makes the review at the
head of this order (:func:`claim_next`), whichever game it was queued for. A
guarded UPDATE (queued → running) claims it, so two workers never take the
same review, on SQLite as on PostgreSQL; a task that finds nothing left
returns. How many reviews wait ahead of a review in this order is its place
in the queue, shown on its replay's Review tab (:func:`ahead_of`).

The hour's cap (``REVIEW_PER_HOUR``, issue #40 item 4; 0: none): a worker
claims no review while that many were claimed in the last hour, all workers
together (:func:`hour_full`: the reviews claimed since, ``queued_at`` of a
review no longer waiting, on the ``review_due`` index); its task returns and
the review waits in the queue, at its place. Each claim under the cap queues
one more task for the moment it leaves the hour's window (``tasks.review_game``),
which claims the head then: so the reviews over the cap start as the window
allows, in the queue's order (oldest first within it), with no task run in
between. The count and the claim are one transaction, serialised on
PostgreSQL by an advisory lock (on SQLite by its IMMEDIATE transactions), so
workers at once never start more than the cap.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, OuterRef, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber

from games import notifications
from games.models import Game, GameReview

CLAIM_TRIES = 5
"""Heads :func:`claim_next` tries when another worker claims each first."""

WINDOW = timedelta(hours=1)
"""``REVIEW_PER_HOUR`` counts the reviews claimed over this window."""

STARTED = (
    GameReview.Status.RUNNING,
    GameReview.Status.DONE,
    GameReview.Status.FAILED,
)
"""The statuses of a review claimed: its ``queued_at`` is its last claim."""

_HOUR_LOCK = 0x72657669657773
"""The PostgreSQL advisory lock that serialises the hour's count and claim."""


def waiting() -> QuerySet[GameReview]:
    """The reviews waiting for their turn, in the order they are served (above):
    each with ``rank``, its place among its account's waiting reviews of its
    kind (1 for the first), and ``served``, when its account's last review was
    claimed (None: never). Only finished games' (a review is never made of a
    game in progress)."""
    served = (
        GameReview.objects.filter(requested_by=OuterRef("requested_by"))
        .exclude(status=GameReview.Status.QUEUED)
        .order_by("-queued_at")  # a claim sets it: the account's last claim
        .values("queued_at")[:1]
    )
    return (
        GameReview.objects.filter(
            status=GameReview.Status.QUEUED, game__status=Game.Status.FINISHED
        )
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("kind"), F("requested_by")],
                order_by=[F("created_at").asc(), F("game_id").asc()],
            ),
            served=Subquery(served),
        )
        .order_by(
            "kind",
            "rank",
            F("served").asc(nulls_first=True),
            "created_at",
            "game_id",
        )
    )


def order(limit: int | None = None) -> list[int]:
    """The games whose reviews wait, in the order they will be made (the first
    ``limit`` of them)."""
    rows = waiting().values_list("game_id", flat=True)
    return list(rows if limit is None else rows[:limit])


def ahead_of(game_id: int) -> int | None:
    """How many reviews will be made before ``game_id``'s (its place in the
    queue: 0 for the next); None when its review is not waiting."""
    games = order()
    return games.index(game_id) if game_id in games else None


def ring_places() -> None:
    """Ring the doorbell of each review waiting with its place in the queue
    (after the queue moved on: a review claimed, or one queued again), so the
    open Review tabs say it again."""
    notifications.review_places(
        (game_id, GameReview.Status.QUEUED, 0, 0, ahead)
        for ahead, game_id in enumerate(order())
    )


def started_since(since: datetime) -> int:
    """The reviews claimed after ``since`` and not waiting again (each counted
    once, at its last claim; the ``review_due`` index, status then
    ``queued_at``, holds the count)."""
    return GameReview.objects.filter(status__in=STARTED, queued_at__gt=since).count()


def hour_full(now: datetime) -> bool:
    """Whether ``REVIEW_PER_HOUR`` reviews were claimed in the hour before
    ``now``: no review starts until one of them leaves the window."""
    cap = settings.REVIEW_PER_HOUR
    return cap > 0 and started_since(now - WINDOW) >= cap


def hours_to_wait(ahead: int | None, now: datetime) -> int | None:
    """Within how many hours a review with ``ahead`` reviews before it starts,
    when the hour's cap holds it back (1: within the hour); None when nothing
    caps it (no cap, or a place the hour's free claims reach; the workers may
    still be busy). The cap's slots free again an hour after each claim, so
    the first ``REVIEW_PER_HOUR`` of the queue start within the hour, the
    next as many within two, and so on."""
    cap = settings.REVIEW_PER_HOUR
    if ahead is None or cap <= 0:
        return None
    free = cap - started_since(now - WINDOW)
    if ahead < free:
        return None
    return ahead // cap + 1


def _lock_the_hour() -> None:
    """Serialise the hour's count and claim between workers (PostgreSQL: an
    advisory lock held to the transaction's end; SQLite's IMMEDIATE
    transaction already holds its one writer's lock)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_HOUR_LOCK])


def claim_next(now: datetime) -> int | None:
    """Claim the review at the head of the queue (queued → running, its
    heartbeat started); the game whose review this worker is to make, or None
    when no review waits, or the hour's cap is reached (:func:`hour_full`).
    Another worker that claims the same head first wins the guarded UPDATE;
    this one then tries the next head."""
    if settings.REVIEW_PER_HOUR <= 0:
        return _claim_head(now)
    with transaction.atomic():
        _lock_the_hour()
        if hour_full(now):
            return None
        return _claim_head(now)


def _claim_head(now: datetime) -> int | None:
    for _ in range(CLAIM_TRIES):
        heads = order(limit=1)
        if not heads:
            return None
        head = heads[0]
        if GameReview.objects.filter(
            game_id=head, status=GameReview.Status.QUEUED
        ).update(
            status=GameReview.Status.RUNNING,
            queued_at=now,
            heartbeat_at=now,
            done=0,
            total=0,
        ):
            return head
    return None
