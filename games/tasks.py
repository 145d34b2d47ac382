"""Background tasks: a computer player's move (issue #16), with django-tasks.

A computer's decision is never computed in a request. When a game reaches a
computer's turn, ``services.turns.append_events`` sets ``Game.computer_turn_since``
and, after commit, announces it (``computer_turn_began``); :func:`connect` has
:func:`computer_move` queued for that game and ply. A worker (the
database backend's ``manage.py db_worker``, or the loop inside Daphne that the
README's run command starts, :func:`start_worker_with_server`) runs it: it reads
the game, asks ``games.engine.bots.choose`` on the engine's state (public
information only: the bag is counts, it has no order) and plays the decision
through ``services.game_play_move`` with ``expected_ply``, like a player's form.
So a task that runs twice, late or for a position that moved on does nothing.

Nothing is lost when a worker dies mid-decision, and the turn is found within
seconds (issue #33: the deadline job found it 60–120 s later). The database
backend never runs a task left RUNNING again; so the task claims the turn when
it starts (``Game.computer_turn_since``, its lease), and every
``COMPUTER_CHECK_SECONDS`` (5) the deadline loop (``games/jobs.py``,
:func:`process_computer_turns`) hands to the queue again a turn queued or
claimed more than ``COMPUTER_LEASE_SECONDS`` (15) ago whose task is not waiting
in the queue: its worker died (a decision takes about a second), or its task
was lost before it was stored. A guarded UPDATE claims the turn, so two job
processes queue it once; a duplicate task is refused (``expected_ply``). From
a kill to the move: what was left of the lease, at most one check's interval,
then a decision (``bench/README.md``, lost_turn.py: 17–20 s, where it was
60–117 s). Where the queue cannot be read (RQ), the minute pass queues a turn
again once it has waited ``COMPUTER_RETRY_SECONDS``.

Queues (issue #23). Computer moves stay on the "default" queue
(:data:`COMPUTER_QUEUE`); the notifications have their own ("notify",
``notify.tasks``), with workers of their own in ``deploy/`` and a thread of
their own in the in-server worker (:func:`run_worker_in_server`, one loop per
queue), so a push service that takes its time never delays a computer's move.

Fair order (issue #23: one account's 492 queued games made everyone else wait
up to 205 s). Each move is queued with a priority that falls with its account's
backlog: minus the number of the game creator's other games already waiting for
a computer (:func:`fair_priority`; the creator brought the computer into the
game, and ``services.game_create`` bounds how many such games one account has).
The database backend's workers take the highest priority first, then the
oldest, so the queue is served one turn per account in turn: a player with one
game waiting goes before the second of anyone's, and waits at most for the
decisions already running plus one per account ahead of them. A turn keeps the
priority it was queued with, so a backlog is served too, never starved; the
deadline job's re-queue uses the same rule. (RQ, ``TASKS_BACKEND=rq``, has no
priorities: there the queue is first come, first served.)
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from time import monotonic
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q
from django_tasks import task
from django_tasks.base import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from games import clock, in_server, notifications
from games.engine import bots
from games.engine import review as engine_review
from games.history import review_queue
from games.models import Game, GameReview
from games.selectors import game_continued, game_engine, game_user_to_move
from games.services import GameActionError, game_play_move
from games.services.reviews import (
    game_review_fail,
    game_review_heartbeat,
    game_review_release,
    game_review_requeue_late,
    game_review_requeue_silent,
    game_review_store,
    game_review_withdraw,
    review_wanted,
)
from games.services.turns import (
    computer_turn_began,
    computer_turn_claim,
    computer_turn_reclaim,
)

logger = logging.getLogger(__name__)

REVIEW_QUEUE = "review"
"""The reviews of finished games (issue #27): minutes of CPU each, on workers of
their own, so a review never delays a computer's move in a live game."""

COMPUTER_QUEUE = "default"
"""The computer players' queue (``settings.TASK_QUEUES``; the notifications have
their own, ``notify.tasks.NOTIFY_QUEUE``). "default", as before the split, so the
workers already deployed keep playing the moves queued before an upgrade."""


def _seed(game_id: int, ply: int) -> int:
    """The bot's seed for one decision: a retried task decides the same."""
    return game_id * 10_007 + ply


@task(queue_name=COMPUTER_QUEUE)
def computer_move(game_id: int, ply: int) -> str:
    """Play the computer's decision in game ``game_id`` if it is still to move at
    ``ply``; what happened, in a word (for the task's result)."""
    # The lease of the turn (process_computer_turns): claimed now, so the
    # deadline loop hands it to the queue again only if this worker dies.
    computer_turn_claim(game_id=game_id, ply=ply, now=clock.now())
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.ply != ply:
        return "stale"
    computer = game_user_to_move(game=game)
    if computer is None or not computer.computer_level:
        return "not a computer's turn"
    level = computer.computer_level
    engine = game_engine(game)
    seconds = (
        settings.COMPUTER_STRONG_SECONDS if level == User.ComputerLevel.STRONG else None
    )
    decision = bots.choose(engine, level, seconds=seconds, seed=_seed(game_id, ply))
    event = {k: v for k, v in decision.to_event().items() if k != "seat"}
    try:
        game_play_move(game_id=game_id, user=computer, move=event, expected_ply=ply)
    except GameActionError as error:
        # Another run of this task played first (the ply check refused it).
        logger.info("computer move in game %s at ply %s: %s", game_id, ply, error)
        return "refused"
    return "played"


def fair_priority(game_id: int) -> int:
    """The priority of a computer's turn in ``game_id``: minus its creator's
    backlog, the other games they created that wait for a computer now (bounded
    to django-tasks' range), so each account's turns are served in turn."""
    creator_id = (
        Game.objects.filter(pk=game_id).values_list("creator_id", flat=True).first()
    )
    if creator_id is None:
        return DEFAULT_TASK_PRIORITY
    backlog = (
        Game.objects.filter(
            creator_id=creator_id,
            status=Game.Status.ACTIVE,
            computer_turn_since__isnull=False,
        )
        .exclude(pk=game_id)
        .count()
    )
    return max(TASK_MIN_PRIORITY, DEFAULT_TASK_PRIORITY - backlog)


def computer_turn_enqueue(*, game_id: int, ply: int) -> None:
    """Queue :func:`computer_move` (after the commit that made it the computer's
    turn) at its account's :func:`fair_priority` where the backend orders by
    priority. A queue that is down is logged: the deadline job queues it again."""
    try:
        move = computer_move
        if move.get_backend().supports_priority:
            move = move.using(priority=fair_priority(game_id))
        move.enqueue(game_id, ply)
    except Exception:
        logger.exception("could not queue the computer's move in game %s", game_id)


def _turns_in_queue() -> set[tuple[int, int]] | None:
    """The computer turns ``(game, ply)`` whose task waits in the database
    queue (not started yet), or None where the queue cannot be read (RQ). The
    waiting tasks are few (the queue's length) and the backend indexes them."""
    backend = computer_move.get_backend()
    if not isinstance(backend, DatabaseBackend):
        return None
    waiting = DBTaskResult.objects.filter(
        status="READY",
        backend_name=backend.alias,
        queue_name=computer_move.queue_name,
        task_path=computer_move.module_path,
    ).values_list("args_kwargs", flat=True)
    turns = set()
    for args_kwargs in waiting:
        args = args_kwargs.get("args", []) if isinstance(args_kwargs, dict) else []
        if len(args) == 2:
            turns.add((int(args[0]), int(args[1])))
    return turns


def process_computer_turns() -> int:
    """Queue again each computer turn that was lost (the deadline job, and its
    check every ``COMPUTER_CHECK_SECONDS``); how many were queued. With the
    database queue: a turn queued or claimed (``computer_move``'s lease) more
    than ``COMPUTER_LEASE_SECONDS`` ago whose task is not waiting in the queue
    (its worker died mid-decision, or the task was never stored); a turn that
    only waits its turn in a long queue is left there. Elsewhere (RQ): a turn
    waiting longer than ``COMPUTER_RETRY_SECONDS``."""
    now = clock.now()
    in_queue = _turns_in_queue()
    wait = (
        settings.COMPUTER_RETRY_SECONDS
        if in_queue is None
        else settings.COMPUTER_LEASE_SECONDS
    )
    due = Game.objects.filter(
        status=Game.Status.ACTIVE,
        computer_turn_since__lte=now - timedelta(seconds=wait),
    ).values_list("pk", "ply", "computer_turn_since")
    queued = 0
    for game_id, ply, since in list(due):
        if in_queue is not None and (game_id, ply) in in_queue:
            continue
        if computer_turn_reclaim(game_id=game_id, ply=ply, since=since, now=now):
            logger.warning(
                "game %s: the computer's move at ply %s was lost; queued again",
                game_id,
                ply,
            )
            computer_turn_enqueue(game_id=game_id, ply=ply)
            queued += 1
    return queued


def on_computer_turn_began(*, game_id: int, ply: int, **_: Any) -> None:
    """A computer is to move (``services.turns``, after commit): queue its move."""
    computer_turn_enqueue(game_id=game_id, ply=ply)


def on_review_wanted(*, game_id: int, **_: Any) -> None:
    """A finished game's review is asked (``services.reviews``, after commit):
    queue it; a queue that is down is logged (the deadline job queues it
    again)."""
    _enqueue_review(game_id)


def connect() -> None:
    """The services announce the work this module queues, and never import it
    (this module plays through them): called from ``GamesConfig.ready()``."""
    computer_turn_began.connect(on_computer_turn_began, dispatch_uid=__name__)
    review_wanted.connect(on_review_wanted, dispatch_uid=__name__)


def _enqueue_review(game_id: int, run_after: datetime | None = None) -> bool:
    try:
        if run_after is None:
            review_game.enqueue(game_id)
        else:
            review_game.using(run_after=run_after).enqueue(game_id)
    except Exception:
        logger.exception("could not queue the review of game %s", game_id)
        return False
    return True


def process_reviews() -> int:
    """Queue again the reviews whose work was lost (part of the deadline job);
    how many. A review being made whose worker fell silent
    (``GameReview.heartbeat_at`` older than ``REVIEW_STALE_SECONDS``: killed
    mid-way; the database backend never runs its task again) goes back to the
    queue, at its place there; a review still waiting ``REVIEW_RETRY_SECONDS``
    after it was queued gets one more task (its own was lost before it was
    stored: one task per waiting review keeps them all served). A guarded
    UPDATE claims each, so two job processes queue it once; a task more than
    the reviews waiting finds nothing and returns (``review_game``)."""
    now = clock.now()
    stale = now - timedelta(seconds=settings.REVIEW_STALE_SECONDS)
    silent = GameReview.objects.filter(status=GameReview.Status.RUNNING).filter(
        Q(heartbeat_at__lte=stale) | Q(heartbeat_at__isnull=True, queued_at__lte=stale)
    )
    queued = 0
    for game_id, beat, since in list(
        silent.values_list("game_id", "heartbeat_at", "queued_at")
    ):
        if game_review_requeue_silent(
            game_id=game_id, heartbeat_at=beat, queued_at=since, now=now
        ):
            logger.warning(
                "game %s: its review's worker fell silent; queued again", game_id
            )
            queued += _enqueue_review(game_id)
    cutoff = now - timedelta(seconds=settings.REVIEW_RETRY_SECONDS)
    late = GameReview.objects.filter(
        status=GameReview.Status.QUEUED, queued_at__lte=cutoff
    ).values_list("game_id", "queued_at")
    for game_id, since in list(late):
        if game_review_requeue_late(game_id=game_id, queued_at=since, now=now):
            logger.warning("game %s: its review is late; queued again", game_id)
            queued += _enqueue_review(game_id)
    if queued:
        review_queue.ring_places()
    return queued


# ------------------------------------------------- a worker inside the server


def task_queues() -> list[str]:
    """The queues the site's tasks go to (``settings.TASKS``: computer moves and
    notifications)."""
    return list(settings.TASKS["default"].get("QUEUES", [COMPUTER_QUEUE]))


def run_ready_tasks(queue_names: Sequence[str] | None = None) -> None:
    """Run every task waiting in the database queues ``queue_names`` (all the
    site's queues when None), then return (one pass of the in-server worker;
    django-tasks-db's own worker loop, in batch mode)."""

    class ServerWorker(Worker):
        """Runs no further task once the server shuts down
        (``in_server.stopping``, checked before each task)."""

        @property
        def running(self) -> bool:
            return self._running and not in_server.stopping.is_set()

        @running.setter
        def running(self, value: bool) -> None:
            self._running = value

    names = list(queue_names) if queue_names is not None else task_queues()
    close_old_connections()
    try:
        ServerWorker(
            queue_names=names,
            interval=0,
            batch=True,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id=f"server-{os.getpid()}-{'-'.join(names)}"[:64],
            excluded_queue_names=[],
        ).run()
    except Exception:
        logger.exception("the in-server task worker failed; trying again")
    finally:
        close_old_connections()


async def run_queue_in_server(queue_name: str, interval: float) -> None:
    """One queue's worker loop in the server's event loop: each pass runs in a
    thread of its own through ``sync_to_async`` (as the deadline loop,
    ``jobs.run_forever_in_server``), so the doorbells a computer's move rings
    reach this server's sockets on the in-memory channel layer."""
    while True:
        await sync_to_async(run_ready_tasks, thread_sensitive=False)([queue_name])
        await asyncio.sleep(interval)


async def run_worker_in_server(interval: float) -> None:
    """The task worker inside the server: one loop per queue (each pass in its
    own thread), so a notification that waits on a slow push service never
    delays a computer's move, nor a long decision a notification."""
    await asyncio.gather(
        *(run_queue_in_server(name, interval) for name in task_queues())
    )


def start_worker_with_server(interval: float = 0.5) -> None:
    """Run the database queues' worker inside this Daphne process once it starts
    (``TASK_WORKER_IN_SERVER``, read by ``azulsite/asgi.py``): the one-command
    set-up of the README. Production runs ``manage.py db_worker`` processes, for
    each queue its own (``deploy/supervisord.conf``)."""
    in_server.start_with_daphne(
        lambda: run_worker_in_server(interval),
        otherwise="TASK_WORKER_IN_SERVER needs Daphne; run manage.py db_worker instead",
    )


@dataclass
class _Heartbeat:
    at: datetime
    """The last heartbeat written (the claim's time at first)."""
    clock: float
    """When it was written, by ``time.monotonic``."""
    rung: int = -1
    """The progress last rung (the engine reports the same one again while it
    weighs the decisions at one position)."""


class _ReviewTakenOver(Exception):
    """This worker's review was queued again (its heartbeats late: the deadline
    job took its worker for dead) and perhaps claimed by another: stop."""


class _ServerStopping(Exception):
    """The server this worker runs in shuts down (``in_server.stopping``): put
    the review back in the queue and stop."""


@task(queue_name=REVIEW_QUEUE)
def review_game(game_id: int) -> str:
    """Make the review at the head of the review queue (``games.history.review_queue``:
    played games first, each account's in turn), queued for ``game_id``'s
    review, whichever game's it makes (docs/review.md). One such task is queued
    per review and each claims its review first, so there are as many tasks as
    reviews and a task run twice reviews once. Never a game in progress: no
    evaluation of one is made, let alone shown. Each progress it writes, and
    the end, ring the review's doorbell (``notifications.review_updated``): its
    open replays fetch the Review tab; the reviews still waiting hear their new
    places. Under ``REVIEW_PER_HOUR`` (the hour's cap) a task that finds the
    hour full returns and the review waits at its place; each claim queues one
    more task for when it leaves the hour's window, which claims the head then
    (``games.history.review_queue``), so nothing polls meanwhile."""
    if not Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists():
        return "not finished"
    now = clock.now()
    head = review_queue.claim_next(now)
    if head is None:
        return "the hour is full" if review_queue.hour_full(now) else "taken"
    if settings.REVIEW_PER_HOUR > 0:
        # This claim's slot frees an hour from now: a task then takes the
        # head, should reviews wait for it.
        _enqueue_review(head, run_after=now + review_queue.WINDOW)
    notifications.review_updated(
        game_id=head, status=GameReview.Status.RUNNING, done=0, total=0
    )
    review_queue.ring_places()
    return _make_review(Game.objects.get(pk=head), claimed_at=now)


def _make_review(game: Game, *, claimed_at: datetime) -> str:
    """Review ``game``, claimed (running) at ``claimed_at``, and store it."""
    if game_continued(game=game) is not None:
        # An import that continues a game still played is asked for again
        # once that game has ended (docs/review.md).
        game_review_withdraw(game_id=game.pk)
        return "continues a game in progress"
    events = list(game.moves.order_by("ply").values_list("event", flat=True))
    seconds = GameReview.objects.values_list("seconds", flat=True).get(game=game)
    # The heartbeat: at least every REVIEW_HEARTBEAT_SECONDS (at the event
    # weighed then), with the progress every ten events. Each write is
    # guarded by the last one (compare and set), so a worker whose review was
    # queued again and claimed by another learns it and stops.
    beat = _Heartbeat(at=claimed_at, clock=monotonic())

    def progress(done: int, total: int) -> None:
        if in_server.stopping.is_set():
            raise _ServerStopping
        ring = 0 < done != beat.rung and (done % 10 == 0 or done == total)
        late = monotonic() - beat.clock >= settings.REVIEW_HEARTBEAT_SECONDS
        if not ring and not late:
            return
        now = clock.now()
        if not game_review_heartbeat(
            game_id=game.pk, beat_at=beat.at, now=now, done=done, total=total
        ):
            raise _ReviewTakenOver
        beat.at, beat.clock = now, monotonic()
        if ring:
            beat.rung = done
            notifications.review_updated(
                game_id=game.pk,
                status=GameReview.Status.RUNNING,
                done=done,
                total=total,
            )

    try:
        made = engine_review.review(
            events,
            variant=game.variant,
            players=game.players,
            first_seat=game.first_seat or 0,
            seconds=seconds,
            seed=game.pk,
            progress=progress,
            to_the_end=game.end_reason == Game.EndReason.NORMAL,
        )
    except _ReviewTakenOver:
        logger.warning("game %s: its review was taken over; stopped", game.pk)
        return "taken over"
    except _ServerStopping:
        # Back in the queue at its place, with a task of its own: the next
        # worker to start makes it from the start (issue #35 item 9).
        if game_review_release(game_id=game.pk, beat_at=beat.at):
            _enqueue_review(game.pk)
            logger.warning(
                "game %s: the server stops; its review queued again", game.pk
            )
        return "server stopping"
    except Exception:
        logger.exception("could not review game %s", game.pk)
        if game_review_fail(game_id=game.pk, beat_at=beat.at):
            notifications.review_updated(
                game_id=game.pk, status=GameReview.Status.FAILED, done=0, total=0
            )
        return "failed"
    # What Review.from_json reads back (games/history/reviews.py), stored whole.
    game_review_store(
        game_id=game.pk, data=made.to_json(), events=len(events), now=clock.now()
    )
    notifications.review_updated(
        game_id=game.pk,
        status=GameReview.Status.DONE,
        done=len(events),
        total=len(events),
    )
    return "reviewed"
