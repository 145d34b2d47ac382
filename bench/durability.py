"""Durability: no acknowledged move lost to ``kill -9``; a repeated move applied once.

Two runs against a live Daphne process (started the stock way, DEBUG off, a
temporary SQLite database unless ``--database-url`` names another), each
printing its figures:

``kill``
    ``--games`` two-player games, one thread a game playing both seats with
    HTMX move POSTs (the legal move read from the database), while the server
    is killed with ``SIGKILL`` every ``--interval`` seconds and started again on
    the same port, ``--kills`` times. A move counts as acknowledged when its
    answer was the new board (200, no refusal). Afterwards every acknowledged
    move must be in the game's history at the ply it was played at, by the
    player who played it.
``duplicates``
    ``--rounds`` times, ``--copies`` identical POSTs of the same legal move (the
    same session, the same ``expected_ply``: a double-click, a retry, a replayed
    request), sent at the same instant on separate connections. Exactly one may
    be applied: the history must grow by exactly one decision a round, and every
    other copy must be answered with a refusal, not a server error.

Usage:

    .venv/bin/python bench/durability.py kill [--games 8] [--kills 7] [--interval 3]
    .venv/bin/python bench/durability.py duplicates [--copies 100] [--rounds 10]
    .venv/bin/python bench/durability.py kill --database-url postgres://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import sys

# Run as a script, this file's directory comes first on sys.path and bench/http.py
# would shadow the standard library's ``http``; drop that entry first.
if sys.path and sys.path[0] == __import__("os").path.dirname(__file__):
    sys.path.pop(0)

import argparse  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import urllib.error  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.http import free_port, server_env  # noqa: E402
from bench.ws import CSRF, next_move, prepare  # noqa: E402


def start_server(port: int, env: dict[str, str], log: Path) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1"]
        + ["-p", str(port), "azulsite.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("a"),
    )
    for _ in range(300):
        try:
            urllib.request.urlopen(
                f"http://127.0.0.1:{port}/accounts/login/", timeout=1
            ).read()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start; see {log}")


def post_move(port: int, game_id: int, session: str, data: dict) -> tuple[int, str]:
    """An HTMX move POST on its own connection: (status, answer text); status 0
    when the connection failed (the server was down or killed mid-request)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/games/{game_id}/move/",
        data=urllib.parse.urlencode(data).encode(),
        headers={
            "Cookie": f"sessionid={session}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "HX-Request": "true",
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status), response.read().decode()
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode(errors="replace")
    except OSError:
        return 0, ""


def applied(status: int, answer: str) -> bool:
    """The answer is the new board: the move was played."""
    return status == 200 and 'role="alert"' not in answer


def session_user(sessions: dict[int, str], session: str) -> int:
    return next(user for user, key in sessions.items() if key == session)


def run_kill(
    port: int, env: dict[str, str], log: Path, args: argparse.Namespace
) -> int:
    game_ids, sessions = prepare(env, args.games)  # sets Django up
    from django.db import connection

    from games.models import Move

    acknowledged: list[tuple[int, int, int]] = []  # (game, ply, user)
    failed = Counter[str]()
    lock = threading.Lock()
    stop = threading.Event()

    def play(game_id: int) -> None:
        while not stop.is_set():
            try:
                step = next_move(game_id, sessions)
            except Exception:  # the database is being recovered: read again
                time.sleep(0.05)
                continue
            finally:
                connection.close()
            if step is None:
                return  # the game finished
            session, data, ply = step
            status, answer = post_move(port, game_id, session, data)
            with lock:
                if applied(status, answer):
                    acknowledged.append((game_id, ply, session_user(sessions, session)))
                else:
                    failed["no answer" if status == 0 else f"answered {status}"] += 1
            if status == 0:
                time.sleep(0.2)  # the server is restarting

    server = start_server(port, env, log)
    threads = [threading.Thread(target=play, args=(g,)) for g in game_ids]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    try:
        for _ in range(args.kills):
            time.sleep(args.interval)
            server.send_signal(signal.SIGKILL)
            server.wait()
            server = start_server(port, env, log)
        time.sleep(args.interval)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        server.terminate()
        server.wait(timeout=10)
    seconds = time.monotonic() - started
    history = set(
        Move.objects.filter(game_id__in=game_ids, user__isnull=False).values_list(
            "game_id", "ply", "user_id"
        )
    )
    lost = [move for move in acknowledged if move not in history]
    print(
        f"{len(game_ids)} games, {args.kills} kill -9s in {seconds:.0f} s "
        f"({'PostgreSQL' if args.database_url else 'SQLite'})"
    )
    print(f"moves acknowledged {len(acknowledged)}, lost {len(lost)}")
    print(
        "moves not acknowledged (killed mid-request or refused as stale after a "
        f"restart): {sum(failed.values())} {dict(failed)}"
    )
    return 1 if lost else 0


def send_copy(
    barrier: threading.Barrier,
    results: list[tuple[int, str]],
    port: int,
    game_id: int,
    session: str,
    data: dict,
) -> None:
    """One copy: wait for the others, then post."""
    barrier.wait()
    results.append(post_move(port, game_id, session, data))


def run_duplicates(
    port: int, env: dict[str, str], log: Path, args: argparse.Namespace
) -> int:
    [game_id], sessions = prepare(env, 1)  # sets Django up
    from django.db import connection

    from games.models import Move

    server = start_server(port, env, log)
    answers = Counter[str]()
    exactly_once = 0
    try:
        for _ in range(args.rounds):
            step = next_move(game_id, sessions)
            if step is None:
                break
            session, data, _ply = step
            before = Move.objects.filter(game_id=game_id, user__isnull=False).count()
            connection.close()
            barrier = threading.Barrier(args.copies)
            results: list[tuple[int, str]] = []
            copy = (barrier, results, port, game_id, session, data)
            threads = [
                threading.Thread(target=send_copy, args=copy)
                for _ in range(args.copies)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            played = sum(applied(status, answer) for status, answer in results)
            for status, answer in results:
                if applied(status, answer):
                    answers["applied"] += 1
                elif status == 200:
                    answers["refused (200, alert)"] += 1
                else:
                    answers[f"status {status}"] += 1
            after = Move.objects.filter(game_id=game_id, user__isnull=False).count()
            exactly_once += after - before == 1 and played == 1
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(
        f"{args.rounds} rounds of {args.copies} identical parallel move POSTs "
        f"({'PostgreSQL' if args.database_url else 'SQLite'})"
    )
    print(f"rounds with the move applied exactly once: {exactly_once} of {args.rounds}")
    print(f"answers: {dict(answers)}")
    return 0 if exactly_once == args.rounds else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", choices=["kill", "duplicates"])
    parser.add_argument("--games", type=int, default=8, help="kill: games in play")
    parser.add_argument("--kills", type=int, default=7)
    parser.add_argument("--interval", type=float, default=3.0, help="s between kills")
    parser.add_argument("--copies", type=int, default=100, help="duplicates: copies")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "bench.sqlite3")
        env["DEADLINE_LOOP_SECONDS"] = "0"
        if args.database_url:
            env["DATABASE_URL"] = args.database_url
        log = Path(tmp) / "daphne.log"
        port = free_port()
        run = run_kill if args.run == "kill" else run_duplicates
        status = run(port, env, log, args)
        errors = [line for line in log.read_text().splitlines() if "Traceback" in line]
        print(f"server tracebacks logged: {len(errors)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
