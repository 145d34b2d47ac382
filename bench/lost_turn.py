"""Lost turn: from a computer worker killed mid-decision to the computer's move.

Issue #33 item 2: a computer's turn lost with a killed worker was found by the
deadline job 60–120 s later (it queued a turn again once it had waited
``COMPUTER_RETRY_SECONDS``, 60, in passes a minute apart). Now the task claims
the turn when it starts and the deadline loop checks every
``COMPUTER_CHECK_SECONDS`` (5) for a turn claimed more than
``COMPUTER_LEASE_SECONDS`` (15) ago whose task is not in the queue.

Real processes on a fresh SQLite database, as ``deploy/supervisord.conf`` runs
them: a game against the strong level is brought to the computer's turn; a
``manage.py db_worker`` whose decision would take ten minutes takes the task
and is killed with SIGKILL a second later; a fresh worker and the deadline
worker (``manage.py process_deadlines --loop 60``) are then started, and the
time from the kill to the computer's move (its ``Move`` row) is measured, over
``--runs`` games (the kill falls at a different moment of the loop's minute
each time). Two settings: **before**, the rule of the code before issue #33
(no check between passes, a turn queued again 60 s after it was last queued or
claimed: ``COMPUTER_CHECK_SECONDS=0 COMPUTER_LEASE_SECONDS=60``), and
**after**, the defaults. Usage:

    .venv/bin/python bench/lost_turn.py [--runs 3] [--only after]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SETTINGS = {
    "before": {"COMPUTER_CHECK_SECONDS": "0", "COMPUTER_LEASE_SECONDS": "60"},
    "after": {},
}


def _env(db_path: Path, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db_path}",
        "DJANGO_SETTINGS_MODULE": "azulsite.settings",
        "DEBUG": "true",
        "DEADLINE_LOOP_SECONDS": "0",
        "LOG_LEVEL": "ERROR",
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("REDIS_URL", "TASKS_BACKEND"):
        env.pop(name, None)
    env.update(extra)
    return env


def _start(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return _start(
        ["db_worker", "--no-reload", "--queue-name", "default", "--interval", "0.1"],
        env,
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _until(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("gave up waiting")
        time.sleep(0.05)


def _computers_turn(user: Any, rng: random.Random) -> tuple[int, int]:
    """A new game of ``user`` against the strong level at its turn (queued)."""
    from games import selectors, services

    game = services.game_create(
        creator=user,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "strong"},
    )
    if game.seat_to_move == 0:
        engine = selectors.game_engine(game)
        move = rng.choice(engine.legal_moves()).to_event()
        move.pop("seat")
        services.game_play_move(
            game_id=game.pk, user=user, move=move, expected_ply=game.ply
        )
    game = selectors.game_get(game_id=game.pk)
    return game.pk, game.ply


def measure(db_path: Path, name: str, runs: int, rng: random.Random) -> list[float]:
    from accounts.models import User

    user = User.objects.create_user(f"{name}-player", password="x" * 12)
    user.play_forced = False
    user.save(update_fields=["play_forced"])
    settings = SETTINGS[name]
    times = []
    # The deadline worker runs all along, its minute passes at their own pace:
    # each kill falls at another moment of its minute.
    env = _env(db_path, COMPUTER_STRONG_SECONDS="0.25", **settings)
    deadlines = _start(["process_deadlines", "--loop", "60"], env)
    try:
        for _ in range(runs):
            times.append(_one(db_path, user, settings, rng, env))
            print(f"  {name}: kill to move {times[-1]:5.1f} s")
    finally:
        _stop(deadlines)
    return times


def _one(
    db_path: Path,
    user: Any,
    settings: dict[str, str],
    rng: random.Random,
    env: dict[str, str],
) -> float:
    """One game's computer turn: its worker killed inside the decision, then
    started again; the seconds from the kill to the computer's move."""
    from django_tasks_db.models import DBTaskResult

    from games.models import Move

    game_id, ply = _computers_turn(user, rng)
    slow = _worker(_env(db_path, COMPUTER_STRONG_SECONDS="600", **settings))
    try:
        _until(
            lambda: (
                [game_id, ply]
                in [
                    row.get("args")
                    for row in DBTaskResult.objects.filter(
                        status="RUNNING"
                    ).values_list("args_kwargs", flat=True)
                ]
            ),
            timeout=60,
        )
        time.sleep(1)  # inside the decision
    finally:
        slow.kill()
        killed = time.monotonic()
        slow.wait()
    # supervisord starts the killed worker again at once.
    worker = _worker(env)
    try:
        _until(
            lambda: Move.objects.filter(game_id=game_id, ply=ply).exists(),
            timeout=300,
        )
        return time.monotonic() - killed
    finally:
        _stop(worker)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=sorted(SETTINGS))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="lost-turn-"))
    db_path = work / "db.sqlite3"
    try:
        env = _env(db_path)
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "DEBUG", "LOG_LEVEL")})
        os.environ["DJANGO_SETTINGS_MODULE"] = "azulsite.settings"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        rng = random.Random(args.seed)
        results = {}
        for name in [args.only] if args.only else list(SETTINGS):
            results[name] = measure(db_path, name, args.runs, rng)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("kill -9 of a worker mid-decision to the computer's move, seconds:")
    for name, times in results.items():
        shown = ", ".join(f"{t:.1f}" for t in times)
        print(
            f"  {name:6} {shown}  (min {min(times):.1f}, max {max(times):.1f})"
            f"  {SETTINGS[name] or 'the defaults'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
