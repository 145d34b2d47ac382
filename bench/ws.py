"""WebSocket benchmark: latency from a move's POST to the doorbell on N sockets.

Starts Daphne on a free port with a fresh SQLite database (or PostgreSQL/Redis
from ``--database-url``/``--redis-url``), creates one two-player game, opens N
sockets on its game page's doorbell (``/ws/games/<id>/``, as N watching browsers
would), then plays ``--moves`` moves by POSTing the board's form one at a time.
For every (move, socket) pair it records the time from just before the POST to
the socket's message; prints p50/p99 of that, and of the POST itself. Usage:

    .venv/bin/python bench/ws.py [--sockets 200] [--moves 40]
"""

from __future__ import annotations

import sys

# Run as a script, this file's directory comes first on sys.path and bench/http.py
# would shadow the standard library's ``http``; drop that entry first.
if sys.path and sys.path[0] == __import__("os").path.dirname(__file__):
    sys.path.pop(0)

import argparse
import asyncio
import json
import multiprocessing
import os
import secrets
import statistics
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.http import free_port, server_env  # noqa: E402

CSRF = secrets.token_hex(16)


def percentiles(values: list[float]) -> str:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return (
        f"p50 {cuts[49] * 1000:6.1f} ms  p99 {cuts[98] * 1000:6.1f} ms  "
        f"max {max(values) * 1000:6.1f} ms  (n={len(values)})"
    )


def prepare(env: dict[str, str]) -> tuple[int, dict[int, str]]:
    """Migrate; create two players and their started game; a session for each."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import services

    tag = secrets.token_hex(3)
    users = [User.objects.create_user(f"ws{tag}{n}", password=None) for n in (1, 2)]
    game = services.game_create(
        creator=users[0],
        variant="classic",
        players=2,
        days_per_move=3,
        rated=False,
        invitees=[users[1]],
    )
    services.game_invitation_respond(game_id=game.pk, user=users[1], accept=True)
    sessions = {}
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions[user.pk] = session.session_key
    return game.pk, sessions


def next_move(game_id: int, sessions: dict[int, str]) -> tuple[str, dict, int] | None:
    """The session of the player to move and a legal move's form data."""
    from games import selectors
    from games.models import Game
    from tests.games.helpers import move_post_data

    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE:
        return None
    user_id = game.seats.get(number=game.seat_to_move).user_id
    move = selectors.game_engine(game).legal_moves()[0]
    return sessions[user_id], move_post_data(move, game.ply), game.ply


def post(port: int, game_id: int, session: str, data: dict) -> int:
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
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
        return int(response.status)


async def listen(port: int, game_id: int, count: int, conn: Connection) -> None:
    """One client process: ``count`` sockets; reports each ply's arrival times.

    A ply is reported (``(ply, [monotonic times])``) once every socket of this
    process has its message. Several such processes share the 200 sockets, as 200
    browsers would be on 200 machines: one Python process parsing every frame
    would measure its own queue, not the server.
    """
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{port}/ws/games/{game_id}/"
    origin = f"http://127.0.0.1:{port}"
    arrivals: dict[int, list[float]] = {}

    async def receive(ws) -> None:
        async for raw in ws:
            now = time.monotonic()
            ply = json.loads(raw)["ply"]
            times = arrivals.setdefault(ply, [])
            times.append(now)
            if len(times) == count:
                conn.send((ply, arrivals.pop(ply)))

    sockets = [
        await connect(url, origin=origin, open_timeout=30, max_queue=None)
        for _ in range(count)
    ]
    tasks = [asyncio.create_task(receive(ws)) for ws in sockets]
    await asyncio.sleep(1.0)  # the hello messages (current ply) arrive and pass
    conn.send("ready")
    while not conn.poll():
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    for ws in sockets:
        await ws.close()


def listener_process(port: int, game_id: int, count: int, conn: Connection) -> None:
    asyncio.run(listen(port, game_id, count, conn))


def run(port: int, game_id: int, sessions: dict[int, str], args) -> None:
    """Open the sockets in ``--clients`` processes, then play and time the moves."""
    from django.db import connections

    connections.close_all()  # no database connection crosses the fork
    context = multiprocessing.get_context("fork")
    shares = [
        args.sockets // args.clients + (1 if i < args.sockets % args.clients else 0)
        for i in range(args.clients)
    ]
    pipes = []
    workers = []
    for share in shares:
        ours, theirs = context.Pipe()
        worker = context.Process(
            target=listener_process, args=(port, game_id, share, theirs), daemon=True
        )
        worker.start()
        pipes.append(ours)
        workers.append(worker)
    for conn in pipes:
        while True:  # the hello messages' reports come first
            if not conn.poll(120):
                raise SystemExit("a client process did not connect its sockets")
            if conn.recv() == "ready":
                break

    latencies: list[float] = []
    post_times: list[float] = []
    for _ in range(args.moves):
        step = next_move(game_id, sessions)
        if step is None:
            break
        session, data, ply = step
        start = time.monotonic()
        status = post(port, game_id, session, data)
        post_times.append(time.monotonic() - start)
        if status != 200:
            raise SystemExit(f"move POST answered {status}")
        for conn, share in zip(pipes, shares, strict=True):
            while True:
                if not conn.poll(10):
                    print(f"warning: {share} sockets missed ply {ply + 1}")
                    break
                got_ply, times = conn.recv()
                if got_ply > ply:
                    latencies.extend(t - start for t in times)
                    break
        time.sleep(args.pause)
    for conn in pipes:
        conn.send("stop")
    for worker in workers:
        worker.join(timeout=10)
    print(
        f"{args.sockets} sockets on one game in {args.clients} client processes, "
        f"{len(post_times)} moves (Daphne, one process, "
        f"{'Redis' if args.redis_url else 'in-memory'} channel layer, "
        f"{'PostgreSQL' if args.database_url else 'SQLite'})"
    )
    print(f"move POST            {percentiles(post_times)}")
    print(f"POST -> socket msg   {percentiles(latencies)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--pause", type=float, default=0.05)
    parser.add_argument(
        "--clients", type=int, default=4, help="client processes sharing the sockets"
    )
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "bench.sqlite3")
        env["DEADLINE_LOOP_SECONDS"] = "0"
        if args.database_url:
            env["DATABASE_URL"] = args.database_url
        if args.redis_url:
            env["REDIS_URL"] = args.redis_url
            env["CHANNEL_LAYER_PREFIX"] = f"bench-{secrets.token_hex(4)}"
        game_id, sessions = prepare(env)
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-v",
                "0",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
            ]
            + ["azulsite.asgi:application"],
            cwd=ROOT,
            env=env,
        )
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/accounts/login/", timeout=1
                    ).read()
                    break
                except OSError:
                    time.sleep(0.1)
            run(port, game_id, sessions, args)
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
