"""Flood: a normal player's computer replies while another account floods the computer.

Issue #23: one account started 254 games a minute against the strong level, the
queue reached 492 and other players waited 40–205 s for a computer's reply. This
starts one Daphne process the README's way (``TASK_WORKER_IN_SERVER=true``: the
task worker inside the server, a thread per queue; DEBUG off, a fresh SQLite
database, in-memory channel layer), or with ``--db-workers N`` the production
shape's ``manage.py db_worker`` processes for the computer's queue instead, and
plays two accounts over HTTP:

- the **normal player** starts a game against the strong level ("Play the
  computer now") and plays it move after move: as soon as it is their turn they
  post a random legal move (read from the database, as a board's script would
  offer it), and when a game ends they start another;
- the **flooder**, after ``--quiet-seconds`` of the normal player alone, starts
  games against the strong level as fast as the incident did (``--flood-rate``
  a second, 254 a minute by default), past the site's limits, and plays its own
  move in every one of them the moment it is its turn, so it always has as many
  computer turns waiting as the site lets it.

The computer's reply time is read from the database afterwards: for each of the
normal player's decisions followed by the computer's, the time between the two
``Move`` rows (their commits), which the poll interval of this script does not
blur. Prints the replies' p50/p95/max on the quiet site and during the flood,
their ratio, the flooder's creations (made and refused), the computer's moves
for each account and the deepest the computer's queue got. ``--root`` runs the
server from another checkout (e.g. the commit before the limits) for a before
and after. Usage:

    .venv/bin/python bench/flood.py [--quiet-seconds 60] [--flood-seconds 90]
        [--strong-seconds 0.25] [--flood-rate 4.23] [--db-workers 0] [--root DIR]
"""

from __future__ import annotations

import sys

# Run as a script, this file's directory comes first on sys.path and bench/http.py
# would shadow the standard library's ``http``; drop that entry first.
if sys.path and sys.path[0] == __import__("os").path.dirname(__file__):
    sys.path.pop(0)

import argparse  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.http import Client, free_port, server_env  # noqa: E402

POLL = 0.02  # seconds between a client's looks at its games (a cheap query)


@dataclass
class Counts:
    lock: threading.Lock = field(default_factory=threading.Lock)
    created: int = 0
    refused: int = 0
    errors: int = 0
    queue_depth: list[tuple[float, int]] = field(default_factory=list)

    def add(self, name: str) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + 1)


def prepare(env: dict[str, str]) -> dict[str, tuple[int, str]]:
    """Migrate a fresh database (this checkout's migrations, so ``--root`` may be
    older); the two accounts and a session for each, and the strong level's
    account (made here, so an older server only reads it)."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "azulsite.settings"
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connections

    from accounts.models import User
    from accounts.services import computer_player

    computer_player(level="strong")
    accounts = {}
    for name in ("normal", "flooder"):
        user = User.objects.create_user(username=name, password=None, email="")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        accounts[name] = (user.pk, str(session.session_key))
    connections.close_all()
    return accounts


def start_game(client: Client) -> int | None:
    """ "Play the computer now" against the strong level; the game, or None
    when the site refused (it redirects home with its message)."""
    status, _, headers = client.request(
        "POST",
        "/games/play-computer/",
        {"level": "strong", "variant": "classic"},
    )
    match = re.search(r"/games/(\d+)/", headers.get("Location", ""))
    if status == 302 and match:
        return int(match.group(1))
    return None


def play(client: Client, game_id: int, rng: random.Random) -> bool:
    """Post a random legal move of the player to move (the client's account)."""
    from games import selectors
    from tests.games.helpers import move_post_data

    game = selectors.game_get(game_id=game_id)
    move = rng.choice(selectors.game_engine(game).legal_moves())
    status, answer, _ = client.request(
        "POST", f"/games/{game_id}/move/", move_post_data(move, game.ply), htmx=True
    )
    return status == 200 and 'role="alert"' not in answer


def to_move(user_id: int, game_ids: list[int] | None = None) -> list[int]:
    """The active games of ``user_id`` (creator, seat 0) where they are to move."""
    from django.db import close_old_connections

    from games.models import Game

    close_old_connections()
    games = Game.objects.filter(creator_id=user_id, status="active", seat_to_move=0)
    if game_ids is not None:
        games = games.filter(pk__in=game_ids)
    return list(games.values_list("pk", flat=True))


def normal_player(
    port: int, account: tuple[int, str], counts: Counts, stop: threading.Event
) -> None:
    """One game against the strong level after another, each move played the
    moment it is this player's turn."""
    from games.models import Game

    user_id, session = account
    client, rng = Client(port, session), random.Random(1)
    game_id = start_game(client)
    while not stop.is_set():
        if game_id is None or not Game.objects.filter(pk=game_id, status="active"):
            game_id = start_game(client)
            if game_id is None:
                counts.add("errors")
                time.sleep(1)
            continue
        if to_move(user_id, [game_id]):
            if not play(client, game_id, rng):
                counts.add("errors")
        else:
            time.sleep(POLL)


def flood_creator(
    port: int, session: str, rate: float, counts: Counts, stop: threading.Event
) -> None:
    """New games against the strong level, ``rate`` a second, refused or not."""
    client = Client(port, session)
    next_at = time.perf_counter()
    while not stop.is_set():
        counts.add("created" if start_game(client) is not None else "refused")
        next_at += 1 / rate
        time.sleep(max(0.0, next_at - time.perf_counter()))


def flood_mover(
    port: int, account: tuple[int, str], part: int, stop: threading.Event
) -> None:
    """The flooder's own move in each of its games (half of them: ``part``), as
    soon as it is its turn, so its computer turns wait in the queue."""
    user_id, session = account
    client, rng = Client(port, session), random.Random(part)
    while not stop.is_set():
        mine = [pk for pk in to_move(user_id) if pk % 2 == part]
        for game_id in mine:
            play(client, game_id, rng)
        if not mine:
            time.sleep(POLL)


def watch_queue(counts: Counts, stop: threading.Event) -> None:
    """The computer's queue depth (its ready tasks), once a second."""
    from django.db import close_old_connections
    from django_tasks_db.models import DBTaskResult

    while not stop.wait(1.0):
        close_old_connections()
        ready = DBTaskResult.objects.filter(
            status="READY", task_path="games.tasks.computer_move"
        ).count()
        with counts.lock:
            counts.queue_depth.append((time.time(), ready))


def replies(user_id: int, since: float, until: float) -> list[float]:
    """Seconds from each of ``user_id``'s decisions to the computer's next one,
    in their games, for decisions made in [since, until)."""
    from games.models import Game, Move

    found = []
    for game_id in Game.objects.filter(creator_id=user_id).values_list("pk", flat=True):
        rows = list(
            Move.objects.filter(game_id=game_id, user__isnull=False)
            .order_by("ply")
            .values_list("user_id", "created_at")
        )
        for (mover, at), (answerer, answered_at) in zip(rows, rows[1:], strict=False):
            if mover == user_id != answerer and since <= at.timestamp() < until:
                found.append((answered_at - at).total_seconds())
    return found


def unanswered(user_id: int, until: float) -> list[float]:
    """How long each of ``user_id``'s decisions still without the computer's
    answer had waited at ``until`` (the flood's end)."""
    from games.models import Game, Move

    waits = []
    for game_id in Game.objects.filter(creator_id=user_id, status="active").values_list(
        "pk", flat=True
    ):
        last = (
            Move.objects.filter(game_id=game_id, user__isnull=False)
            .order_by("-ply")
            .values_list("user_id", "created_at")
            .first()
        )
        if last is not None and last[0] == user_id:
            waits.append(until - last[1].timestamp())
    return waits


def computer_moves(user_id: int, since: float, until: float) -> int:
    """The computer's moves in the games ``user_id`` created, in [since, until)."""
    from datetime import UTC, datetime

    from games.models import Move

    return (
        Move.objects.filter(game__creator_id=user_id, user__computer_level="strong")
        .filter(created_at__gte=datetime.fromtimestamp(since, UTC))
        .filter(created_at__lt=datetime.fromtimestamp(until, UTC))
        .count()
    )


def figures(values: list[float]) -> str:
    if len(values) < 2:
        return " ".join(f"{value:.2f} s" for value in values) + f"  (n={len(values)})"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return (
        f"p50 {cuts[49]:6.2f} s  p95 {cuts[94]:6.2f} s  max {max(values):6.2f} s"
        f"  (n={len(values)})"
    )


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[94]


def start_servers(
    args: argparse.Namespace, root: Path, env: dict[str, str], port: int, log: Any
) -> list[subprocess.Popen]:
    """Daphne (with the in-server worker unless ``--db-workers``), and the
    db_worker processes: the computer's queue, and one for the notifications."""
    daphne_env = {
        **env,
        "TASK_WORKER_IN_SERVER": "false" if args.db_workers else "true",
    }
    command = [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1"]
    processes = [
        subprocess.Popen(
            [*command, "-p", str(port), "azulsite.asgi:application"],
            cwd=root,
            env=daphne_env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    ]
    workers = [("default", n) for n in range(args.db_workers)]
    if args.db_workers:
        workers.append(("notify", 0))
    for queue, _ in workers:
        processes.append(
            subprocess.Popen(
                [sys.executable, "manage.py", "db_worker", "--no-reload"]
                + ["--queue-name", queue, "--interval", "0.5"],
                cwd=root,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        )
    return processes


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet-seconds", type=float, default=60.0)
    parser.add_argument("--flood-seconds", type=float, default=90.0)
    parser.add_argument("--strong-seconds", default="0.25")
    parser.add_argument("--flood-rate", type=float, default=254 / 60)
    parser.add_argument("--db-workers", type=int, default=0)
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    root = args.root.resolve()

    workdir = Path(tempfile.mkdtemp(prefix="azul-flood-"))
    env = server_env(workdir / "bench.sqlite3")
    env["COMPUTER_STRONG_SECONDS"] = args.strong_seconds
    accounts = prepare(env)
    port = free_port()
    log_path = workdir / "server.log"
    with log_path.open("w") as log:
        processes = start_servers(args, root, env, port, log)
        try:
            for _ in range(200):
                try:
                    Client(port, None).request("GET", "/accounts/login/")
                    break
                except OSError:
                    time.sleep(0.1)
            counts, stop = Counts(), threading.Event()
            threading.Thread(
                target=watch_queue, args=(counts, stop), daemon=True
            ).start()
            normal = threading.Thread(
                target=normal_player,
                args=(port, accounts["normal"], counts, stop),
                daemon=True,
            )
            started = time.time()
            normal.start()
            print(
                f"quiet: the normal player alone, {args.quiet_seconds:.0f} s; {load()}"
            )
            time.sleep(args.quiet_seconds)
            flood_from = time.time()
            flood = [
                threading.Thread(
                    target=flood_creator,
                    args=(port, accounts["flooder"][1], args.flood_rate, counts, stop),
                    daemon=True,
                ),
                *(
                    threading.Thread(
                        target=flood_mover,
                        args=(port, accounts["flooder"], part, stop),
                        daemon=True,
                    )
                    for part in (0, 1)
                ),
            ]
            for thread in flood:
                thread.start()
            print(f"flood: the flooder too, {args.flood_seconds:.0f} s; {load()}")
            time.sleep(args.flood_seconds)
            ended = time.time()
            print(f"end; {load()}")
            stop.set()
            for thread in [normal, *flood]:
                thread.join(timeout=30)
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()

    normal_id, flooder_id = accounts["normal"][0], accounts["flooder"][0]
    # Replies to decisions made in the first seconds of the flood are left out:
    # they were queued before the flooder's backlog.
    quiet = replies(normal_id, started + 5, flood_from)
    flooded = replies(normal_id, flood_from + 10, ended)
    worker = (
        f"{args.db_workers} db_worker process(es) for the computer"
        if args.db_workers
        else "the in-server worker (TASK_WORKER_IN_SERVER)"
    )
    print(
        f"\nDaphne, SQLite, {worker}, strong level at "
        f"COMPUTER_STRONG_SECONDS={args.strong_seconds}; server {root}"
    )
    print(f"normal player's computer replies, quiet site: {figures(quiet)}")
    print(f"normal player's computer replies, flooded:    {figures(flooded)}")
    waiting = [f"{wait:.1f} s" for wait in unanswered(normal_id, ended)]
    if waiting:
        print(f"  and at the end still waiting for a reply since: {', '.join(waiting)}")
    if len(quiet) > 1 and len(flooded) > 1:
        print(f"flooded p95 / quiet p95 = {p95(flooded) / p95(quiet):.2f}")
    attempts = counts.created + counts.refused
    print(
        f"flooder: {attempts} creations tried at {args.flood_rate:.2f}/s, "
        f"{counts.created} made, {counts.refused} refused"
    )
    print(
        "computer moves during the flood: normal player "
        f"{computer_moves(normal_id, flood_from, ended)}, flooder "
        f"{computer_moves(flooder_id, flood_from, ended)}"
    )
    depth = [n for at, n in counts.queue_depth if at >= flood_from]
    print(f"computer's queue during the flood: max {max(depth, default=0)} ready")
    print(f"errors {counts.errors}; server log {log_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
