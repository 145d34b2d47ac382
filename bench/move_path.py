"""Django's part of a move, repeatably: seeded games played through the test client.

``bench/http.py`` measures the live server, but on a shared 2-CPU machine its
figures move by ±15 % from run to run, more than most single improvements. This
script plays the same seeded two-player classic games every time — each move an
HTMX POST by the mover and an HTMX board GET by the partner, as after a doorbell —
through Django's test client (no Daphne, no sockets; doorbells off) on a fresh
SQLite database, and prints the CPU time per move. With ``--callgrind`` it runs
itself under ``valgrind --tool=callgrind``, counting only the played moves, and
prints instructions per move: the same code gives the same count to ~0.3 %,
whatever else the machine is doing (a run of 2 games takes ~45 s).

    .venv/bin/python bench/move_path.py [--games 10] [--callgrind]

The count includes the test client's own work (a constant share).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
# bench/http.py would shadow the standard library's http package Django imports
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GROUP_RE = re.compile(
    r'name="group" value="[^"]+"[^>]*data-dests="([^"]+)"'
    r' data-field-source="([^"]+)" data-field-colour="([^"]+)"'
)
PLY_RE = re.compile(r'data-ply="(\d+)"')
HTMX = {"HTTP_HX_REQUEST": "true"}


def _setup(db_path: Path) -> None:
    os.environ.update(
        DATABASE_URL=f"sqlite:///{db_path}",
        DEBUG="false",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="azulsite.settings",
        STATICFILES_BACKEND="django.contrib.staticfiles.storage.StaticFilesStorage",
    )
    for name in ("REDIS_URL", "DEADLINE_LOOP_SECONDS"):
        os.environ.pop(name, None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _games(count: int) -> list[tuple[int, list]]:
    """``count`` started games, dealt from a seeded generator, with a logged-in
    client per player."""
    from django.test import Client

    from accounts.models import User
    from games import services

    deals = random.Random(7)
    services.common.system_rng = lambda: deals  # seeded deals: the same games each run
    games = []
    for index in range(count):
        creator, partner = (
            User.objects.create_user(username=f"p{index}-{seat}", password=None)
            for seat in (0, 1)
        )
        game = services.game_create(
            creator=creator,
            variant="classic",
            players=2,
            rated=False,
            invitees=[partner],
        )
        services.game_invitation_respond(game_id=game.pk, user=partner, accept=True)
        clients = [Client(), Client()]
        for client, user in zip(clients, (creator, partner), strict=True):
            client.force_login(user)
            client.get("/accounts/login/")  # the CSRF cookie
        games.append((game.pk, clients))
    return games


def _play(games: list[tuple[int, list]]) -> tuple[int, int]:
    """Every game to its end; returns (moves, requests)."""
    choices = random.Random(1)
    moves = requests = 0
    for pk, clients in games:
        url = f"/games/{pk}/"
        boards = [client.get(url, **HTMX).content.decode() for client in clients]
        requests += 2
        while "Final result" not in boards[0]:
            me = 0 if "Your move." in boards[0] else 1
            dests, source, colour = choices.choice(sorted(GROUP_RE.findall(boards[me])))
            data = {
                "expected_ply": PLY_RE.search(boards[me]).group(1),  # type: ignore[union-attr]
                "kind": "take",
                "source": source,
                "colour": colour,
                "line": choices.choice(sorted(json.loads(html.unescape(dests)))),
            }
            answer = clients[me].post(
                f"{url}move/",
                urlencode(data),
                content_type="application/x-www-form-urlencoded",
                HTTP_X_CSRFTOKEN=clients[me].cookies["csrftoken"].value,
                **HTMX,
            )
            boards[me] = answer.content.decode()
            if 'role="alert"' in boards[me]:
                raise RuntimeError(f"move refused: {boards[me][:300]}")
            boards[1 - me] = clients[1 - me].get(url, **HTMX).content.decode()
            moves += 1
            requests += 2
    return moves, requests


def _callgrind(games: int) -> int:
    """Run this script under callgrind, counting only the moves."""
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "callgrind.out"
        result = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--games",
                str(games),
                "--inside-callgrind",
            ],
            capture_output=True,
            text=True,
        )
    if result.returncode:
        sys.stderr.write(result.stderr[-2000:])
        return result.returncode
    moves = int(re.search(r"^moves (\d+)", result.stdout, re.M).group(1))  # type: ignore[union-attr]
    collected = int(re.search(r"Collected : (\d+)", result.stderr).group(1))  # type: ignore[union-attr]
    print(f"{games} games, {moves} moves (each a POST and the partner's board GET)")
    print(f"instructions   {collected / moves / 1e6:8.2f} million a move")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument(
        "--inside-callgrind", action="store_true", help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.callgrind:
        return _callgrind(args.games)
    with tempfile.TemporaryDirectory() as directory:
        _setup(Path(directory) / "bench.sqlite3")
        from games import notifications

        notifications._send = lambda messages: None  # no channel layer here
        games = _games(args.games)
        toggle = ["callgrind_control", "-i"]
        if args.inside_callgrind:
            subprocess.run([*toggle, "on", str(os.getpid())], capture_output=True)
        started = time.process_time()
        moves, requests = _play(games)
        cpu = time.process_time() - started
        if args.inside_callgrind:
            subprocess.run([*toggle, "off", str(os.getpid())], capture_output=True)
        print(f"moves {moves}, requests {requests}")
        print(f"CPU            {cpu * 1000 / moves:8.3f} ms a move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
