"""Background tasks: a computer player's move (issue #16), with django-tasks.

A computer's decision is never computed in a request. When a game reaches a
computer's turn, ``services._append_events`` sets ``Game.computer_turn_since`` and,
after commit, queues :func:`computer_move` for that game and ply. A worker (the
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
"""

from __future__ import annotations

import asyncio
import logging
import os
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django_tasks import task

from games.engine import bots

from . import clock, in_server
from .models import Game

logger = logging.getLogger(__name__)


def _seed(game_id: int, ply: int) -> int:
    """The bot's seed for one decision: a retried task decides the same."""
    return game_id * 10_007 + ply


@task()
def computer_move(game_id: int, ply: int) -> str:
    """Play the computer's decision in game ``game_id`` if it is still to move at
    ``ply``; what happened, in a word (for the task's result)."""
    from . import services
    from .selectors import game_engine

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.ply != ply:
        return "stale"
    seat = (
        game.seats.select_related("user").filter(number=game.seat_to_move).first()
        if game.seat_to_move is not None
        else None
    )
    if seat is None or seat.user is None or not seat.user.computer_level:
        return "not a computer's turn"
    level = seat.user.computer_level
    engine = game_engine(game)
    seconds = settings.COMPUTER_STRONG_SECONDS if level == "strong" else None
    decision = bots.choose(engine, level, seconds=seconds, seed=_seed(game_id, ply))
    event = {k: v for k, v in decision.to_event().items() if k != "seat"}
    try:
        services.game_play_move(
            game_id=game_id, user=seat.user, move=event, expected_ply=ply
        )
    except services.GameActionError as error:
        # Another run of this task played first (the ply check refused it).
        logger.info("computer move in game %s at ply %s: %s", game_id, ply, error)
        return "refused"
    return "played"


def computer_turn_enqueue(*, game_id: int, ply: int) -> None:
    """Queue :func:`computer_move` (after the commit that made it the computer's
    turn). A queue that is down is logged: the deadline job queues it again."""
    try:
        computer_move.enqueue(game_id, ply)
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


# ------------------------------------------------- a worker inside the server


def run_ready_tasks() -> None:
    """Run every task waiting in the database queue, then return (one pass of the
    in-server worker; django-tasks-db's own worker loop, in batch mode)."""
    from django_tasks_db.management.commands.db_worker import Worker

    close_old_connections()
    try:
        Worker(
            queue_names=["default"],
            interval=0,
            batch=True,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id=f"server-{os.getpid()}",
            excluded_queue_names=[],
        ).run()
    except Exception:
        logger.exception("the in-server task worker failed; trying again")
    finally:
        close_old_connections()


async def run_worker_in_server(interval: float) -> None:
    """The task worker as a task of the server's event loop (as the deadline
    loop, ``jobs.run_forever_in_server``): each pass runs in a thread through
    ``sync_to_async``, so the doorbells a computer's move rings reach this
    server's sockets on the in-memory channel layer."""
    while True:
        await sync_to_async(run_ready_tasks, thread_sensitive=False)()
        await asyncio.sleep(interval)


def start_worker_with_server(interval: float = 0.5) -> None:
    """Run the database queue's worker inside this Daphne process once it starts
    (``TASK_WORKER_IN_SERVER``, read by ``azulsite/asgi.py``): the one-command
    set-up of the README. Production runs ``manage.py db_worker`` processes."""
    in_server.start_with_daphne(
        lambda: run_worker_in_server(interval),
        otherwise="TASK_WORKER_IN_SERVER needs Daphne; run manage.py db_worker instead",
    )
