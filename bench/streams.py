"""The API's event streams: many open on one Daphne process, and how soon a
``yourTurn`` reaches its program (issue #39 item 3: 1,000 open streams on one
process still deliver within the doorbell latency ``bench/ws.py`` measures).

One Daphne process started the stock way on a fresh SQLite database (the
in-memory channel layer, as the README's run command), ``--games`` two-player
games in progress between ``2 × games`` accounts, each with a token and its
stream open (``GET /api/stream/events``). Then ``--moves`` moves, each POSTed
through the API by the player to move of a game picked at random: the time
from just before the POST to the ``yourTurn`` of the opponent's stream, and
the server's threads with every stream open (an async view holds none).

    .venv/bin/python bench/streams.py                 # 500 games: 1,000 streams
    .venv/bin/python bench/streams.py --games 50 --moves 50
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
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.http import server_env  # noqa: E402
from bench.ws import daphne, django_ready, percentiles, raise_open_files_limit  # noqa: E402


def prepare(games: int) -> tuple[list[int], dict[int, str], dict[int, int]]:
    """``games`` started games; each account's token; each game's ply."""
    from accounts.models import User
    from api import services as api_services
    from games import services
    from games.models import Game

    users = [
        User.objects.create_user(f"st{n}", password=None) for n in range(2 * games)
    ]
    tokens = {
        user.pk: api_services.token_create(
            user=user, name="bench", scopes=["game:read", "game:play"]
        )[1]
        for user in users
    }
    game_ids = []
    for index in range(games):
        game = services.game_start_seated(
            variant="classic",
            users=users[2 * index : 2 * index + 2],
            first_seat=0,
            time_control="daily",
            quiet=False,
        )
        game_ids.append(game.pk)
    plies = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "ply"))
    return game_ids, tokens, plies


async def stream(
    port: int, token: str, heard: dict[tuple[int, int], float], opened: list[int]
) -> None:
    """One program's stream: every ``yourTurn`` heard, by (game, ply)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        (
            "GET /api/stream/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    status = await reader.readline()  # the stream answered: it is open
    assert b" 200 " in status, status
    opened.append(1)
    kind = ""
    while True:
        line = await reader.readline()
        if not line:
            return
        text = line.decode().strip()
        if text.startswith("event: "):
            kind = text[7:]
        elif text.startswith("data: ") and kind == "yourTurn":
            data = json.loads(text[6:])
            heard.setdefault((data["game"], data["ply"]), time.perf_counter())


def post_move(port: int, game_id: int, token: str) -> tuple[float, int]:
    """The player to move's first legal move, through the API (read, then
    posted): when the POST began, and the game's new ply."""
    import urllib.request

    def call(method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            data=json.dumps(body).encode() if body is not None else None,
            headers={
                "Authorization": f"Bearer {token}",
                "Content-Type": "application/json",
            },
            method=method,
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    state = call("GET", f"/api/games/{game_id}")
    began = time.perf_counter()
    answer = call(
        "POST",
        f"/api/games/{game_id}/moves",
        {"ply": state["ply"], "move": state["legal_moves"][0]},
    )
    answered[(game_id, int(answer["ply"]))] = time.perf_counter() - began
    return began, int(answer["ply"])


answered: dict[tuple[int, int], float] = {}
"""Each move's POST, how long its answer took (by game and new ply)."""


def threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


async def run(args: argparse.Namespace, port: int, pid: int) -> None:
    from games import selectors
    from games.models import Game

    game_ids, tokens, _plies = prepare_done
    heard: dict[tuple[int, int], float] = {}
    opened: list[int] = []
    before = threads(pid)
    opening = time.perf_counter()
    tasks = [
        asyncio.create_task(stream(port, token, heard, opened))
        for token in tokens.values()
    ]
    while len(opened) < len(tasks):
        await asyncio.sleep(0.05)
    opening = time.perf_counter() - opening
    await asyncio.sleep(1.0)
    during = threads(pid)
    print(
        f"{len(tasks)} streams open (all answered within {opening:.1f} s of "
        f"asking); Daphne's threads {before} before, {during} with them open"
    )
    rng = random.Random(3)
    latencies: list[float] = []
    missed = 0
    for _ in range(args.moves):
        game_id = rng.choice(game_ids)
        game = await asyncio.to_thread(selectors.game_get, game_id=game_id)
        if game.status != Game.Status.ACTIVE or game.seat_to_move is None:
            continue
        mover = game.seats.all()[game.seat_to_move].user_id
        assert mover is not None
        began, ply = await asyncio.to_thread(post_move, port, game_id, tokens[mover])
        for _wait in range(500):
            if (game_id, ply) in heard:
                break
            await asyncio.sleep(0.01)
        if (game_id, ply) in heard:
            latencies.append(heard[(game_id, ply)] - began)
            if latencies[-1] > 0.3:
                print(
                    f"slow: game {game_id} ply {ply}: heard after "
                    f"{latencies[-1]:.2f} s, the POST answered in "
                    f"{answered.get((game_id, ply), -1):.2f} s"
                )
        else:
            missed += 1
    print(f"yourTurn after a move's POST: {percentiles(latencies)}; missed {missed}")
    slow = [round(x, 2) for x in latencies if x > 0.3]
    print(f"over 300 ms: {len(slow)} {slow}")
    for task in tasks:
        task.cancel()


prepare_done: tuple[list[int], dict[int, str], dict[int, int]]


def main() -> int:
    global prepare_done
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    raise_open_files_limit()
    with tempfile.TemporaryDirectory() as folder:
        env = server_env(Path(folder) / "streams.sqlite3")
        env["API_RATE"] = "100000/m"
        django_ready(env)
        prepare_done = prepare(args.games)
        with daphne(env) as port:
            import subprocess

            pid = int(
                subprocess.run(
                    ["pgrep", "-f", f"daphne.*-p {port}"],
                    capture_output=True,
                    text=True,
                ).stdout.split()[0]
            )
            asyncio.run(run(args, port, pid))
    return 0


if __name__ == "__main__":
    sys.exit(main())
