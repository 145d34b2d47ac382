"""Review queue: a played game's review while other accounts flood the queue.

Issue #33 item 2: four accounts imported 20 records each and asked for their
reviews within 7 s; an ordinary player's finished game then waited more than
22 minutes for its review (60 s on an empty queue). This plays the same on a
small scale, in-process, on a fresh SQLite database, with one review worker
(``deploy/supervisord.conf`` runs one: ``azul-review``) in a thread running the
database queue's tasks (``tasks.run_ready_tasks``, as the in-server worker):

1. ``--accounts`` accounts (4) import ``--records`` records each (20), then
   ask for all their reviews, one account after another in turn, as fast as
   the service takes them;
2. then an ordinary player's game ends (a game of two people, resigned):
   its review is queued;
3. then one more account asks for one import's review.

Each review costs a stand-in ``--cost`` seconds (0.1: a sleep, then a review
made once beforehand is stored; the engine's real cost, a minute, is what
``bench/review.py`` measures), so the waits are counted in reviews, and
scaled to a minute a review. Three runs:

- **before**: the order of the code before issue #33 — first come, first
  served (the task queue's order; each task reviewed its own game), every
  ask accepted;
- **fair order**: ``games.history.review_queue``'s order (played games first, each
  account in turn), every ask accepted (no quota);
- **fair order + quota**: the site as it is, ``REVIEW_IMPORTS_PER_DAY`` (3)
  asks an account a day, the rest refused.

Prints, for each, the asks accepted and refused, and the wait of the played
game's review and of the late import's (from queued to made), in seconds, in
reviews' time and scaled. Usage:

    .venv/bin/python bench/review_queue.py [--accounts 4] [--records 20]
        [--cost 0.1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MINUTE_REVIEW = 60.0
"""A two-player game's review on the site (``bench/README.md``, review.py):
about a minute of one core; the outside test's empty-queue wait."""


@dataclass
class Wait:
    seconds: float
    """From queued to made."""
    reviews: int
    """The other reviews made meanwhile (the one running when it was queued
    included)."""

    @property
    def scaled(self) -> float:
        """Minutes at a minute a review: those made meanwhile, and its own."""
        return (self.reviews + 1) * MINUTE_REVIEW / 60


@dataclass
class Run:
    name: str
    accepted: int
    refused: int
    played: Wait
    late: Wait


def _setup(db_path: Path) -> None:
    os.environ.update(
        DATABASE_URL=f"sqlite:///{db_path}",
        DEBUG="false",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="testserver",
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="azulsite.settings",
    )
    for name in ("REDIS_URL", "DEADLINE_LOOP_SECONDS", "TASKS_BACKEND"):
        os.environ.pop(name, None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _fifo_order() -> None:
    """The order before issue #33: the task queue's, first come first served
    (its tasks had one priority, so by when each was queued), each task
    making its own game's review; the same as the oldest waiting review
    first, which is what this puts in place of the fair order."""
    from django.db.models import Value

    from games.history import review_queue
    from games.models import Game, GameReview

    def waiting() -> Any:
        return (
            GameReview.objects.filter(
                status=GameReview.Status.QUEUED, game__status=Game.Status.FINISHED
            )
            .annotate(rank=Value(1))
            .order_by("created_at", "game_id")
        )

    review_queue.waiting = waiting


def _stand_in_review(cost: float) -> None:
    """Each review sleeps ``cost`` seconds, then returns one review made once
    here (of a random record; what it says does not matter to the queue)."""
    from games import tasks
    from games.engine import record
    from games.engine import review as engine_review

    engine = record.random_game("classic", 2, 3)
    made = engine_review.review(
        engine.events(), variant="classic", players=2, first_seat=0, seconds=0.001
    )

    def review(events: Any, **kwargs: Any) -> Any:
        time.sleep(cost)
        return made

    tasks.engine_review = type(  # type: ignore[attr-defined,assignment]
        "StandIn", (), {"review": staticmethod(review)}
    )


def _worker(stop: threading.Event) -> None:
    """One review worker: the review queue's tasks, as they come."""
    from games import tasks

    while not stop.is_set():
        tasks.run_ready_tasks([tasks.REVIEW_QUEUE])
        stop.wait(0.02)


def _wait_done(game_ids: list[int], timeout: float) -> None:
    from games.models import GameReview

    deadline = time.monotonic() + timeout
    while GameReview.objects.filter(game_id__in=game_ids).exclude(
        status=GameReview.Status.DONE
    ).exists() or GameReview.objects.filter(game_id__in=game_ids).count() < len(
        game_ids
    ):
        if time.monotonic() > deadline:
            raise SystemExit("gave up waiting for the reviews")
        time.sleep(0.02)


def _waited(game_id: int) -> Wait:
    from games.models import GameReview

    review = GameReview.objects.get(game_id=game_id)
    assert review.finished_at is not None
    meanwhile = (
        GameReview.objects.filter(
            finished_at__gt=review.created_at, finished_at__lt=review.finished_at
        )
        .exclude(game_id=game_id)
        .count()
    )
    seconds = (review.finished_at - review.created_at).total_seconds()
    return Wait(seconds, meanwhile)


def run(name: str, args: argparse.Namespace, *, quota: bool, number: int) -> Run:
    from django.conf import settings

    from accounts.models import User
    from games import services
    from games.engine import record

    settings.REVIEW_IMPORTS_PER_DAY = 3 if quota else 10**6
    tag = f"run{number}"
    flooders = [
        User.objects.create_user(f"{tag}-flooder{n}", password="x" * 12)
        for n in range(args.accounts)
    ]
    ana = User.objects.create_user(f"{tag}-ana", password="x" * 12)
    binh = User.objects.create_user(f"{tag}-binh", password="x" * 12)
    late = User.objects.create_user(f"{tag}-late", password="x" * 12)
    # Records of their own in each run (an identical record is imported once).
    seeds = iter(range(args.seed + 100_000 * number, 10**9))

    def imported(user: Any) -> Any:
        engine = record.random_game("classic", 2, next(seeds))
        data = record.dumps(record.export(engine, ["A", "B"]))
        return services.game_import(uploader=user, data=data).game

    records = [[imported(f) for _ in range(args.records)] for f in flooders]
    last = imported(late)

    stop = threading.Event()
    worker = threading.Thread(target=_worker, args=(stop,), daemon=True)
    worker.start()
    accepted = refused = 0
    try:
        for round_ in zip(*records, strict=True):  # the accounts in turn
            for game in round_:
                try:
                    services.game_review_queue(game=game, asked_by=game.creator)
                except services.GameActionError:
                    refused += 1
                else:
                    accepted += 1
        # An ordinary game ends: its review is queued.
        game = services.game_create(
            creator=ana,
            variant="classic",
            players=2,
            rated=False,
            invitees=[binh],
        )
        services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
        services.game_resign(game_id=game.pk, user=binh)
        services.game_review_queue(game=last, asked_by=late)
        _wait_done([game.pk, last.pk], timeout=args.cost * 10 * (accepted + 10))
    finally:
        stop.set()
        worker.join()
    return Run(name, accepted, refused, _waited(game.pk), _waited(last.pk))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=4)
    parser.add_argument("--records", type=int, default=20)
    parser.add_argument("--cost", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="review-queue-"))
    try:
        _setup(work / "db.sqlite3")
        _stand_in_review(args.cost)
        import games.history.review_queue as review_queue

        fair = review_queue.waiting
        runs = []
        _fifo_order()
        runs.append(
            run("before (first come, first served)", args, quota=False, number=0)
        )
        review_queue.waiting = fair
        runs.append(run("fair order", args, quota=False, number=1))
        runs.append(run("fair order + quota", args, quota=True, number=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"{args.accounts} accounts ask for {args.records} imports' reviews each, "
        f"then a played game ends, then one more account asks for one; one "
        f"worker, {args.cost:g} s a review. Waits from queued to made: seconds, "
        "other reviews made meanwhile, and minutes at a minute a review"
    )
    print(
        f"{'run':34} {'asks':>4} {'refused':>7}  {'played game waits':>24}"
        f"  {'late import waits':>24}"
    )
    for r in runs:
        cells = [
            f"{w.seconds:5.2f} s {w.reviews:3} rev {w.scaled:5.0f} min"
            for w in (r.played, r.late)
        ]
        print(f"{r.name:34} {r.accepted:4} {r.refused:7}  {cells[0]}  {cells[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
