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

``--burst N`` is the deploy's shape instead (issue #23): nginx with
``deploy/nginx.conf`` in front of two Daphne processes started with
``deploy/supervisord.conf``'s command line, on Redis (``--redis-url``, required)
and DEBUG off, as ``tests/scale/test_nginx_deploy.py`` runs them. It opens N game
pages' sockets (``wss``, through the proxy; 50 from each loopback address, so
nginx's per-address limit refuses none) at ``--rate`` a second, counts how
each handshake ended (hello heard, closed 4013 "try again later", refused with an
HTTP status, other), plays one move through the proxy, counts the sockets that
heard its doorbell, closes every socket at once and counts the members left in
the game's group in Redis. ``--retry`` makes each page try again as
``static/js/live.js`` does (doubling, jittered waits). ``--max-connections``
sets ``CHANNEL_LAYER_MAX_CONNECTIONS`` (100 was redis-py's default):

    .venv/bin/python bench/ws.py --redis-url redis://127.0.0.1:6379/0 --burst 1000
    .venv/bin/python bench/ws.py --redis-url redis://127.0.0.1:6379/0 --burst 1000 \
        --max-connections 100
"""

from __future__ import annotations

import sys

# Run as a script, this file's directory comes first on sys.path and bench/http.py
# would shadow the standard library's ``http``; drop that entry first.
if sys.path and sys.path[0] == __import__("os").path.dirname(__file__):
    sys.path.pop(0)

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
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
from collections.abc import Callable, Iterator  # noqa: E402
from multiprocessing.connection import Connection  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

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


def django_ready(env: dict[str, str]) -> None:
    """Migrate the server's database and set Django up here, on it."""
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


def session_key(user: Any) -> str:
    """A signed-in session of ``user`` (its cookie's value)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


@contextlib.contextmanager
def daphne(env: dict[str, str]) -> Iterator[int]:
    """One Daphne process started the stock way on ``env``; its port, once it
    answers."""
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
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def prepare(env: dict[str, str], games: int) -> tuple[list[int], dict[int, str]]:
    """Migrate; two players with ``games`` started games; a session for each."""
    django_ready(env)
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
            rated=False,
            invitees=[users[1]],
        )
        services.game_invitation_respond(game_id=game.pk, user=users[1], accept=True)
        game_ids.append(game.pk)
    sessions = {user.pk: session_key(user) for user in users}
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


def reconnect_delay(failures: int) -> float:
    """``static/js/live.js``'s wait before another try, in seconds."""
    ceiling = min(1.0 * 2**failures, 30.0)
    return ceiling / 2 + random.random() * ceiling / 2


async def burst_pages(
    proxy: Any,
    game_id: int,
    args: argparse.Namespace,
    move: Callable[[], int],
    members: Callable[[], int],
) -> dict[str, Any]:
    """Open ``args.burst`` sockets through ``proxy`` at ``args.rate`` a second,
    then ring once (``move()``, in a thread) and close them all at once."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.typing import Origin

    context = proxy.ssl_context()
    url = f"wss://{proxy.name}/ws/games/{game_id}/"
    outcomes: dict[str, int] = {}  # how each try ended
    opened: list[Any] = []
    tries: list[int] = []  # per page that connected: the tries it took
    arrivals: list[tuple[int, int, float]] = []  # (page, ply, when) after hellos
    handshake: list[float] = []

    def count(outcome: str) -> None:
        outcomes[outcome] = outcomes.get(outcome, 0) + 1

    async def page(number: int) -> None:
        failures = 0
        while True:
            start = time.monotonic()
            try:
                ws = await connect(
                    url,
                    host="127.0.0.1",
                    port=proxy.https_port,
                    # 50 pages an address: a crowd of players, each under
                    # deploy/nginx.conf's per-address limit on new sockets.
                    local_addr=(
                        f"127.0.{1 + number // 12500}.{1 + number // 50 % 250}",
                        0,
                    ),
                    ssl=context,
                    server_hostname=proxy.name,
                    origin=Origin(f"https://{proxy.name}"),
                    open_timeout=30,
                    close_timeout=10,
                )
                try:
                    json.loads(await asyncio.wait_for(ws.recv(), 30))  # the hello
                except BaseException:
                    await ws.close()
                    raise
                handshake.append(time.monotonic() - start)
                count("hello heard")
                break
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else 1006
                count(f"closed {code}")
            except InvalidStatus as refused:
                count(f"HTTP {refused.response.status_code}")
            except (OSError, TimeoutError) as error:
                count(type(error).__name__)
            failures += 1
            if not args.retry:
                return
            await asyncio.sleep(reconnect_delay(failures))
        opened.append(ws)
        tries.append(failures + 1)
        try:
            async for raw in ws:
                ply = json.loads(raw).get("ply", -1)
                arrivals.append((number, ply, time.monotonic()))
        except ConnectionClosed:
            pass

    began = time.monotonic()
    tasks = []
    for number in range(args.burst):
        await asyncio.sleep(max(0.0, began + number / args.rate - time.monotonic()))
        tasks.append(asyncio.create_task(page(number)))
    opening = time.monotonic() - began
    # Every page has its hello (its task runs on) or has given up (done).
    while len(opened) + sum(task.done() for task in tasks) < args.burst:
        await asyncio.sleep(0.1)
    settled = time.monotonic() - began
    await asyncio.sleep(1)
    in_group = members()
    posted = time.monotonic()
    new_ply = await asyncio.to_thread(move)

    def heard() -> dict[int, float]:
        return {n: at for n, ply, at in arrivals if ply == new_ply}

    deadline = time.monotonic() + 15
    while len(heard()) < len(opened) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    latencies = [at - posted for at in heard().values()]
    closing = time.monotonic()
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
    closed_in = time.monotonic() - closing
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "opening": opening,
        "settled": settled,
        "outcomes": outcomes,
        "connected": len(opened),
        "tries": tries,
        "handshake": handshake,
        "members": in_group,
        "heard": len(heard()),
        "latencies": latencies,
        "closed_in": closed_in,
    }


def burst(args: argparse.Namespace) -> int:
    """The ``--burst`` mode (module docstring)."""
    from contextlib import ExitStack

    from tests.scale import servers

    if not args.redis_url:
        raise SystemExit("--burst needs --redis-url (two processes share the layer)")
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "bench.sqlite3")
        prefix = f"bench-{secrets.token_hex(4)}"
        env.update(
            DEADLINE_LOOP_SECONDS="0",
            ALLOWED_HOSTS=servers.PUBLIC_NAME,
            REDIS_URL=args.redis_url,
            CHANNEL_LAYER_PREFIX=prefix,
            AZUL_ENV=os.devnull,  # deploy/run reads no settings file here
            SITE_URL="",
            LOG_LEVEL="WARNING",  # the consumers' warnings, counted below
        )
        env.pop("CHANNEL_LAYER_MAX_CONNECTIONS", None)
        if args.max_connections:
            env["CHANNEL_LAYER_MAX_CONNECTIONS"] = str(args.max_connections)
        if args.database_url:
            env["DATABASE_URL"] = args.database_url
        game_ids, sessions = prepare(env, 1)
        game_id = game_ids[0]
        from django.conf import settings
        from django.db import connections

        from games import notifications

        connections.close_all()
        import redis

        client = redis.Redis.from_url(args.redis_url)
        group_key = f"{prefix}:group:{notifications.game_group(game_id)}"

        def members() -> int:
            return int(client.zcard(group_key))

        def move() -> int:
            step = next_move(game_id, sessions)
            assert step is not None
            session, data, ply = step
            browser = servers.Browser(proxy)
            browser.cookies = {
                settings.SESSION_COOKIE_NAME: session,
                settings.CSRF_COOKIE_NAME: CSRF,
            }
            browser.csrf = CSRF
            answer = browser.post(
                f"/games/{game_id}/move/", data, headers={"HX-Request": "true"}
            )
            if answer.status != 200:
                raise SystemExit(f"move POST answered {answer.status}")
            from games.models import Game

            new_ply = Game.objects.values_list("ply", flat=True).get(pk=game_id)
            connections.close_all()
            return int(new_ply)

        with ExitStack() as stack:
            daphnes = [stack.enter_context(servers.daphne(env)) for _ in range(2)]
            proxy = stack.enter_context(servers.deploy_nginx([d.port for d in daphnes]))
            result = asyncio.run(burst_pages(proxy, game_id, args, move, members))
            # The leaves under way finish: wait for an empty group (30 s at most).
            emptied = time.monotonic()
            while (left := members()) and time.monotonic() < emptied + 30:
                time.sleep(0.2)
            emptied = time.monotonic() - emptied
            logs = [d.stderr() for d in daphnes]
        client.close()
    pool = args.max_connections or "default"
    print(
        f"{args.burst} sockets at {args.rate:g}/s through nginx (deploy/) to two "
        f"Daphne processes, Redis layer (CHANNEL_LAYER_MAX_CONNECTIONS {pool}), "
        f"{'PostgreSQL' if args.database_url else 'SQLite'}"
        f"{', pages retry as live.js does' if args.retry else ''}"
    )
    print(
        f"opened in {result['opening']:.1f} s, all settled in {result['settled']:.1f} s"
    )
    tries = result["tries"]
    print(
        "tries ended: "
        + ", ".join(f"{k} {v}" for k, v in sorted(result["outcomes"].items()))
    )
    print(
        f"connected {result['connected']} of {args.burst}"
        f" ({sum(1 for n in tries if n == 1)} on the first try,"
        f" most tries {max(tries, default=0)});"
        f" handshake to hello {percentiles(result['handshake'])}"
    )
    print(
        f"group members in Redis {result['members']}; heard the next doorbell "
        f"{result['heard']} of {result['connected']}; POST -> page "
        f"{percentiles(result['latencies'])}"
    )
    print(
        f"closed all at once in {result['closed_in']:.1f} s; members left in the "
        f"group {left} (after {emptied:.1f} s more)"
    )
    lines = [line for log in logs for line in log.splitlines()]
    words = ("Traceback", "closed 4013", "not removed", "Error")
    print(
        "server log lines: "
        + ", ".join(f"{w!r} {sum(w in line for line in lines)}" for w in words)
    )
    for line in sorted({line for line in lines if "Error" in line})[:5]:
        print(f"  {line[:160]}")
    return 0


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
    parser.add_argument(
        "--burst", type=int, default=0, help="sockets through deploy/'s nginx"
    )
    parser.add_argument("--rate", type=float, default=100, help="new sockets a second")
    parser.add_argument("--retry", action="store_true", help="pages try again")
    parser.add_argument(
        "--max-connections", type=int, default=0, help="the layer's pool (a process)"
    )
    args = parser.parse_args()
    raise_open_files_limit()
    if args.burst:
        return burst(args)
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "bench.sqlite3")
        env["DEADLINE_LOOP_SECONDS"] = "0"
        if args.database_url:
            env["DATABASE_URL"] = args.database_url
        if args.redis_url:
            env["REDIS_URL"] = args.redis_url
            env["CHANNEL_LAYER_PREFIX"] = f"bench-{secrets.token_hex(4)}"
        game_ids, sessions = prepare(env, args.games)
        with daphne(env) as port:
            run(port, game_ids, sessions, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
