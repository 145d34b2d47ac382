"""Chat benchmark (issue #26): a message's POST to its readers' open pages.

Shaped like correspondence play: one Daphne process (started the stock way)
with ``--games`` two-player games in progress between different people (two
per game, chat on), each person with the game's page open — its two sockets,
the game's (``/ws/games/<id>/``) and the player's (``/ws/user/``), as a
browser holds them: 1,000 open pages (2,000 sockets) by default. Then
``--messages`` chat messages POSTed one after another (``/games/<id>/chat/write/``),
each by a random player of a random game. A message rings its game's people on
their player sockets (``games.notifications.chatted``); each page then fetches
its panel (``static/js/chat.js``), which the benchmark does too, so the time
printed is POST → the message on the reader's screen. Prints p50/p99 of the
doorbell (POST → socket) and of the whole (→ the panel fetched with the
message in it), the doorbells missed, and the chat doorbells heard on a socket
of anyone else (must be 0). Usage:

    .venv/bin/python bench/chat.py                    # 500 games x 2 pages
    .venv/bin/python bench/chat.py --redis-url redis://127.0.0.1:6379/0
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
import random  # noqa: E402
import secrets  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402
from multiprocessing.connection import Connection  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.http import server_env  # noqa: E402
from bench.ws import (  # noqa: E402
    daphne,
    django_ready,
    percentiles,
    raise_open_files_limit,
    session_key,
)

CSRF = secrets.token_hex(16)

Page = tuple[int, int, str]
"""An open game page: (game id, player id, their session key)."""


def prepare(env: dict[str, str], games: int) -> list[Page]:
    """Migrate; ``games`` started games, each between two people of its own
    who chat with everyone; a session for each person."""
    django_ready(env)
    from accounts.models import User
    from games import services

    tag = secrets.token_hex(3)
    pages: list[Page] = []
    for number in range(games):
        pair = [
            User.objects.create_user(
                f"c{tag}{number}{side}", password=None, chat=User.Chat.EVERYONE
            )
            for side in "ab"
        ]
        game = services.game_create(
            creator=pair[0],
            variant="classic",
            players=2,
            rated=False,
            invitees=[pair[1]],
        )
        services.game_invitation_respond(game_id=game.pk, user=pair[1], accept=True)
        pages += [(game.pk, user.pk, session_key(user)) for user in pair]
    return pages


def request(port: int, path: str, session: str, data: dict | None = None) -> str:
    """GET (or POST ``data``) ``path`` as an htmx request with ``session``."""
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    sent = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=body,
        headers={
            "Cookie": f"sessionid={session}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "HX-Request": "true",
        },
        method="POST" if body is not None else "GET",
    )
    with urllib.request.urlopen(sent, timeout=30) as response:
        if response.status != 200:
            raise SystemExit(f"{path} answered {response.status}")
        return response.read().decode()


async def open_pages(port: int, share: list[Page], conn: Connection) -> None:
    """One client process: each page's two sockets. On a chat doorbell the page
    fetches its chat panel, as chat.js does; records ``(game, player, rung,
    drawn, words)`` for each, and sends them all when told to stop."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    from websockets.typing import Origin

    origin = Origin(f"http://127.0.0.1:{port}")
    heard: list[tuple[int, int, float, float, str]] = []
    ready: list[int] = []

    async def page(game_id: int, user_id: int, session: str) -> None:
        # A handshake refused in the opening crowd is tried again, as a
        # browser's page would (static/js/live.js).
        for attempt in range(5):
            try:
                await one_page(game_id, user_id, session)
                return
            except (OSError, ConnectionClosed):
                if game_id in opened.get(user_id, ()):
                    raise  # it worked, then broke: not the opening's crowd
                await asyncio.sleep(0.5 * (attempt + 1))
        await one_page(game_id, user_id, session)

    opened: dict[int, set[int]] = {}

    async def one_page(game_id: int, user_id: int, session: str) -> None:
        headers = {"Cookie": f"sessionid={session}"}
        async with (
            connect(
                f"ws://127.0.0.1:{port}/ws/games/{game_id}/",
                origin=origin,
                open_timeout=60,
                additional_headers=headers,
            ) as board,
            connect(
                f"ws://127.0.0.1:{port}/ws/user/",
                origin=origin,
                open_timeout=60,
                additional_headers=headers,
            ) as player,
        ):
            await board.recv()  # the hello: the current ply
            opened.setdefault(user_id, set()).add(game_id)
            ready.append(game_id)
            async for raw in player:
                rung = time.monotonic()
                message = json.loads(raw)
                if message.get("type") != "chat":
                    continue
                html = await asyncio.to_thread(
                    request, port, f"/games/{message['game']}/chat/", session
                )
                last = html.rsplit('<span class="text">', 1)[-1].split("<", 1)[0]
                heard.append((message["game"], user_id, rung, time.monotonic(), last))

    tasks = []
    for start in range(0, len(share), 50):  # handshakes in batches
        tasks += [asyncio.create_task(page(*p)) for p in share[start : start + 50]]
        while len(ready) < len(tasks):
            await asyncio.sleep(0.01)
            for task in tasks:
                if task.done() and task.exception():
                    raise task.exception()  # type: ignore[misc]
    conn.send("ready")
    while not conn.poll():
        await asyncio.sleep(0.05)
    conn.send(heard)
    for task in tasks:
        task.cancel()


def client_process(port: int, share: list[Page], conn: Connection) -> None:
    asyncio.run(open_pages(port, share, conn))


def run(port: int, pages: list[Page], args: argparse.Namespace) -> None:
    from django.db import connections

    connections.close_all()  # no database connection crosses the fork
    context = multiprocessing.get_context("fork")
    pipes, workers = [], []
    shuffled = pages[:]
    random.Random(1).shuffle(shuffled)
    for index in range(args.clients):
        ours, theirs = context.Pipe()
        worker = context.Process(
            target=client_process,
            args=(port, shuffled[index :: args.clients], theirs),
            daemon=True,
        )
        worker.start()
        pipes.append(ours)
        workers.append(worker)
    opening = time.monotonic()
    for conn in pipes:
        if not conn.poll(300) or conn.recv() != "ready":
            raise SystemExit("a client process did not open its pages")
    print(
        f"{len(pages)} pages ({2 * len(pages)} sockets) open in "
        f"{time.monotonic() - opening:.1f} s"
    )

    by_game: dict[int, list[Page]] = {}
    for p in pages:
        by_game.setdefault(p[0], []).append(p)
    rng = random.Random(2)
    sent: dict[str, tuple[int, float]] = {}  # words -> (game, POST start)
    posts: list[float] = []
    for number in range(args.messages):
        game_id = rng.choice(list(by_game))
        _game, _author, session = rng.choice(by_game[game_id])
        words = f"hello {number} {secrets.token_hex(3)}"
        start = time.monotonic()
        request(port, f"/games/{game_id}/chat/write/", session, {"text": words})
        posts.append(time.monotonic() - start)
        sent[words] = (game_id, start)
        time.sleep(args.pause)
    time.sleep(3)  # the last doorbells and fetches
    heard: list[tuple[int, int, float, float, str]] = []
    for conn in pipes:
        conn.send("stop")
        heard += conn.recv()
    for worker in workers:
        worker.join(timeout=10)
    rung, drawn = [], []
    reached: set[tuple[str, int]] = set()
    strangers = 0
    players = {g: {p[1] for p in ps} for g, ps in by_game.items()}
    for game_id, user_id, at, shown, last in heard:
        if user_id not in players[game_id]:
            strangers += 1
        if last in sent and sent[last][0] == game_id:
            reached.add((last, user_id))
            rung.append(at - sent[last][1])
            drawn.append(shown - sent[last][1])
    expected = 2 * len(sent)  # the reader's page and the author's own
    print(
        f"{len(by_game)} games x 2 players' pages, {len(sent)} messages (one Daphne "
        f"process, {'Redis' if args.redis_url else 'in-memory'} channel layer, "
        f"{'PostgreSQL' if args.database_url else 'SQLite'})"
    )
    print(f"message POST          {percentiles(posts)}")
    print(f"POST -> doorbell      {percentiles(rung)}")
    print(f"POST -> panel drawn   {percentiles(drawn)}")
    print(
        f"pages that showed their message {len(reached)} of {expected}; "
        f"chat doorbells on anyone else's socket {strangers}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.05, help="between messages")
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    args = parser.parse_args()
    raise_open_files_limit()
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "bench.sqlite3")
        env["DEADLINE_LOOP_SECONDS"] = "0"
        env["CHAT_MESSAGES_RATE"] = "1000/m"  # many messages from few players
        if args.database_url:
            env["DATABASE_URL"] = args.database_url
        if args.redis_url:
            env["REDIS_URL"] = args.redis_url
            env["CHANNEL_LAYER_PREFIX"] = f"bench-{secrets.token_hex(4)}"
        pages = prepare(env, args.games)
        with daphne(env) as port:
            run(port, pages, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
