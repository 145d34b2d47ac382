"""WebSocket benchmark: doorbell latency from a move's POST to every watching page.

Shaped like correspondence play: one Daphne process (started the stock way,
``daphne -b 127.0.0.1 -p PORT azulsite.asgi:application``) with ``--games``
two-player games in progress, ``--watchers`` open game pages (``/ws/games/<id>/``)
on each, then ``--moves`` moves POSTed one after another, each in a game picked at
random. Every watcher of a game must get each of its doorbells. Prints p50/p99 of
the time from just before the POST to each page's message, and the doorbells
that never arrived. The pages live in ``--clients`` processes, as browsers would
be on many machines. Usage:

    .venv/bin/python bench/ws.py                          # 500 games x 2 pages
    .venv/bin/python bench/ws.py --games 1 --watchers 200 # one crowded game
    .venv/bin/python bench/ws.py --redis-url redis://127.0.0.1:6379/0
    .venv/bin/python bench/ws.py --redis-url redis://127.0.0.1:6379/0 --idle 65

``--idle`` keeps every page's socket idle that long before the first move: an
idle page must keep its socket and still get its doorbells.
"""

from __future__ import annotations

import sys

# Run as a script, this file's directory comes first on sys.path and bench/http.py
# would shadow the standard library's ``http``; drop that entry first.
if sys.path and sys.path[0] == __import__("os").path.dirname(__file__):
    sys.path.pop(0)

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import secrets  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402
from multiprocessing.connection import Connection  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.http import free_port, server_env  # noqa: E402

CSRF = secrets.token_hex(16)


def raise_open_files_limit() -> None:
    """Sockets are files: lift the soft limit to the hard one (the server and
    the client processes inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return (
        f"p50 {cuts[49] * 1000:6.1f} ms  p99 {cuts[98] * 1000:6.1f} ms  "
        f"max {max(values) * 1000:6.1f} ms  (n={len(values)})"
    )


def prepare(env: dict[str, str], games: int) -> tuple[list[int], dict[int, str]]:
    """Migrate; two players with ``games`` started games; a session for each."""
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
    game_ids = []
    for _ in range(games):
        game = services.game_create(
            creator=users[0],
            variant="classic",
            players=2,
            days_per_move=3,
            rated=False,
            invitees=[users[1]],
        )
        services.game_invitation_respond(game_id=game.pk, user=users[1], accept=True)
        game_ids.append(game.pk)
    sessions = {}
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions[user.pk] = str(session.session_key)
    return game_ids, sessions


def next_move(game_id: int, sessions: dict[int, str]) -> tuple[str, dict, int] | None:
    """The session of the player to move, a legal move's form data, the ply."""
    from games import selectors
    from games.models import Game
    from tests.games.helpers import move_post_data

    game = selectors.game_get(game_id=game_id)
    if game.status != Game.Status.ACTIVE:
        return None
    assert game.seat_to_move is not None
    user_id = game.seats.all()[game.seat_to_move].user_id
    assert user_id is not None
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


async def pages(port: int, game_ids: list[int], conn: Connection) -> None:
    """One client process: a page's socket for each of ``game_ids`` (a game
    appears once per watcher). Records ``(game, ply, arrival)`` for every
    doorbell after the hello, and sends them all when told to stop."""
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    origin = Origin(f"http://127.0.0.1:{port}")
    arrivals: list[tuple[int, int, float]] = []
    closed = 0

    async def page(game_id: int) -> None:
        nonlocal closed
        url = f"ws://127.0.0.1:{port}/ws/games/{game_id}/"
        async with connect(url, origin=origin, open_timeout=60) as ws:
            await ws.recv()  # the hello: the current ply
            ready.append(game_id)
            async for raw in ws:
                arrivals.append((game_id, json.loads(raw)["ply"], time.monotonic()))
        closed += 1

    ready: list[int] = []
    tasks = []
    for start in range(0, len(game_ids), 50):  # handshakes in batches
        tasks += [asyncio.create_task(page(g)) for g in game_ids[start : start + 50]]
        while len(ready) < len(tasks):
            await asyncio.sleep(0.01)
            for task in tasks:
                if task.done() and task.exception():
                    raise task.exception()  # type: ignore[misc]
    conn.send("ready")
    while not conn.poll():
        await asyncio.sleep(0.05)
    conn.send((arrivals, closed))
    for task in tasks:
        task.cancel()


def client_process(port: int, game_ids: list[int], conn: Connection) -> None:
    asyncio.run(pages(port, game_ids, conn))


def run(
    port: int, game_ids: list[int], sessions: dict[int, str], args: argparse.Namespace
) -> None:
    """Open the pages in ``--clients`` processes, then play and time the moves."""
    from django.db import connections

    connections.close_all()  # no database connection crosses the fork
    watched = [g for g in game_ids for _ in range(args.watchers)]
    random.Random(1).shuffle(watched)
    context = multiprocessing.get_context("fork")
    pipes, workers = [], []
    for index in range(args.clients):
        ours, theirs = context.Pipe()
        share = watched[index :: args.clients]
        worker = context.Process(
            target=client_process, args=(port, share, theirs), daemon=True
        )
        worker.start()
        pipes.append(ours)
        workers.append(worker)
    opening = time.monotonic()
    for conn in pipes:
        if not conn.poll(300) or conn.recv() != "ready":
            raise SystemExit("a client process did not open its pages")
    print(f"{len(watched)} pages open in {time.monotonic() - opening:.1f} s")
    if args.idle:
        print(f"idle for {args.idle:.0f} s before the first move")
        time.sleep(args.idle)

    rng = random.Random(2)
    rung: list[tuple[int, int, float]] = []  # (game, new ply, POST start)
    post_times: list[float] = []
    for _ in range(args.moves):
        game_id = rng.choice(game_ids)
        step = next_move(game_id, sessions)
        if step is None:
            continue
        session, data, ply = step
        start = time.monotonic()
        status = post(port, game_id, session, data)
        post_times.append(time.monotonic() - start)
        if status != 200:
            raise SystemExit(f"move POST answered {status}")
        from games.models import Game

        new_ply = Game.objects.values_list("ply", flat=True).get(pk=game_id)
        rung.append((game_id, new_ply, start))
        time.sleep(args.pause)
    time.sleep(2)  # the last doorbells arrive
    arrivals: dict[tuple[int, int], list[float]] = {}
    closed = 0
    for conn in pipes:
        conn.send("stop")
        theirs, their_closed = conn.recv()
        closed += their_closed
        for game_id, ply, at in theirs:
            arrivals.setdefault((game_id, ply), []).append(at)
    for worker in workers:
        worker.join(timeout=10)
    latencies: list[float] = []
    missed = 0
    for game_id, ply, start in rung:
        times = arrivals.get((game_id, ply), [])
        latencies.extend(at - start for at in times)
        missed += max(0, args.watchers - len(times))
    print(
        f"{len(game_ids)} games x {args.watchers} watchers = {len(watched)} pages, "
        f"{len(rung)} moves (one Daphne process, "
        f"{'Redis' if args.redis_url else 'in-memory'} channel layer, "
        f"{'PostgreSQL' if args.database_url else 'SQLite'})"
    )
    print(f"move POST            {percentiles(post_times)}")
    print(f"POST -> page         {percentiles(latencies)}")
    print(
        f"doorbells expected {len(rung) * args.watchers}, missed {missed}; "
        f"pages closed by the server {closed}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--watchers", type=int, default=2, help="open pages a game")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.05, help="between moves")
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    parser.add_argument(
        "--idle", type=float, default=0.0, help="seconds the pages idle before moves"
    )
    args = parser.parse_args()
    raise_open_files_limit()
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "bench.sqlite3")
        env["DEADLINE_LOOP_SECONDS"] = "0"
        if args.database_url:
            env["DATABASE_URL"] = args.database_url
        if args.redis_url:
            env["REDIS_URL"] = args.redis_url
            env["CHANNEL_LAYER_PREFIX"] = f"bench-{secrets.token_hex(4)}"
        game_ids, sessions = prepare(env, args.games)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1"]
            + ["-p", str(port), "azulsite.asgi:application"],
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
            run(port, game_ids, sessions, args)
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
