"""Background tasks: a computer player's move (issue #16), with django-tasks.

A computer's decision is never computed in a request. When a game reaches a
computer's turn, ``services.play._append_events`` sets ``Game.computer_turn_since``
and, after commit, queues :func:`computer_move` for that game and ply. A worker (the
database backend's ``manage.py db_worker``, or the loop inside Daphne that the
README's run command starts, :func:`start_worker_with_server`) runs it: it reads
the game, asks ``games.engine.bots.choose`` on the engine's state (public
information only: the bag is counts, it has no order) and plays the decision
through ``services.game_play_move`` with ``expected_ply``, like a player's form.
So a task that runs twice, late or for a position that moved on does nothing.

Nothing is lost when a worker dies mid-decision: the database backend never runs
a task left RUNNING again, so the deadline job (``games/jobs.py``,
:func:`process_computer_turns`) queues a computer's turn again when it has
waited longer than ``COMPUTER_RETRY_SECONDS`` (a guarded UPDATE claims it, so two
job processes queue it once). That also covers a task lost before it was stored.

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
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django_tasks import task
from django_tasks.base import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY

from games.engine import bots
from games.engine import review as engine_review

from . import clock, in_server, notifications
from .models import Game, GameReview
from .selectors import game_continued, game_engine, game_user_to_move

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
    from . import services  # services.play imports this module

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.ply != ply:
        return "stale"
    computer = game_user_to_move(game=game)
    if computer is None or not computer.computer_level:
        return "not a computer's turn"
    level = computer.computer_level
    engine = game_engine(game)
    seconds = settings.COMPUTER_STRONG_SECONDS if level == "strong" else None
    decision = bots.choose(engine, level, seconds=seconds, seed=_seed(game_id, ply))
    event = {k: v for k, v in decision.to_event().items() if k != "seat"}
    try:
        services.game_play_move(
            game_id=game_id, user=computer, move=event, expected_ply=ply
        )
    except services.GameActionError as error:
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


def process_computer_turns() -> int:
    """Queue again each computer turn waiting longer than ``COMPUTER_RETRY_SECONDS``
    (part of the deadline job); how many were queued."""
    now = clock.now()
    cutoff = now - timedelta(seconds=settings.COMPUTER_RETRY_SECONDS)
    due = Game.objects.filter(
        status=Game.Status.ACTIVE, computer_turn_since__lte=cutoff
    ).values_list("pk", "ply", "computer_turn_since")
    queued = 0
    for game_id, ply, since in list(due):
        claimed = Game.objects.filter(
            pk=game_id, ply=ply, computer_turn_since=since
        ).update(computer_turn_since=now)
        if claimed:
            logger.warning(
                "game %s: the computer's move at ply %s is late; queued again",
                game_id,
                ply,
            )
            computer_turn_enqueue(game_id=game_id, ply=ply)
            queued += 1
    return queued


def process_reviews() -> int:
    """Queue again each review queued or claimed more than
    ``REVIEW_RETRY_SECONDS`` ago and not made (its task lost, or its worker
    stopped mid-way: the database backend never runs such a task again); part
    of the deadline job. A guarded UPDATE claims each, so two job processes
    queue it once; a review queued twice is made once (``review_game``'s claim)."""
    now = clock.now()
    cutoff = now - timedelta(seconds=settings.REVIEW_RETRY_SECONDS)
    due = GameReview.objects.filter(
        status__in=[GameReview.Status.QUEUED, GameReview.Status.RUNNING],
        queued_at__lte=cutoff,
    ).values_list("game_id", "queued_at")
    queued = 0
    for game_id, since in list(due):
        if GameReview.objects.filter(game_id=game_id, queued_at=since).update(
            status=GameReview.Status.QUEUED, queued_at=now
        ):
            logger.warning("game %s: its review is late; queued again", game_id)
            try:
                review_game.enqueue(game_id)
            except Exception:
                logger.exception("could not queue the review of game %s", game_id)
                continue
            queued += 1
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
    from django_tasks_db.management.commands.db_worker import Worker

    names = list(queue_names) if queue_names is not None else task_queues()
    close_old_connections()
    try:
        Worker(
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


@task(queue_name=REVIEW_QUEUE)
def review_game(game_id: int) -> str:
    """Make the review of finished game ``game_id`` (docs/review.md), claimed
    first (its queued row), so a task run twice reviews once. Never a game in
    progress: no evaluation of one is made, let alone shown. Each progress it
    writes, and the end, ring the review's doorbell
    (``notifications.review_updated``): its open replays fetch the Review tab."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return "not finished"
    if game_continued(game=game) is not None:
        # An import that continues a game still played is asked for again
        # once that game has ended (docs/review.md).
        GameReview.objects.filter(game=game, status=GameReview.Status.QUEUED).delete()
        return "continues a game in progress"
    claimed = GameReview.objects.filter(
        game=game, status=GameReview.Status.QUEUED
    ).update(status=GameReview.Status.RUNNING, queued_at=clock.now())
    if not claimed:
        return "taken"
    events = list(game.moves.order_by("ply").values_list("event", flat=True))
    seconds = GameReview.objects.values_list("seconds", flat=True).get(game=game)

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            GameReview.objects.filter(game=game).update(done=done, total=total)
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
    except Exception:
        logger.exception("could not review game %s", game_id)
        GameReview.objects.filter(game=game).update(status=GameReview.Status.FAILED)
        notifications.review_updated(
            game_id=game.pk, status=GameReview.Status.FAILED, done=0, total=0
        )
        return "failed"
    data = made.to_json()
    data["timeline"] = [[round(v, 2) for v in point] for point in made.timeline]
    data["alternatives"] = {
        str(d.event): [[event, round(value, 2)] for event, value in d.alternatives[:3]]
        for d in made.decisions
        if not d.forced
    }
    GameReview.objects.filter(game=game).update(
        status=GameReview.Status.DONE,
        data=data,
        done=len(events),
        total=len(events),
        finished_at=clock.now(),
    )
    notifications.review_updated(
        game_id=game.pk,
        status=GameReview.Status.DONE,
        done=len(events),
        total=len(events),
    )
    return "reviewed"
