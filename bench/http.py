"""HTTP benchmark: N simulated players making moves concurrently on a live server.

Starts Daphne on a free port with a fresh SQLite database (DEBUG off), creates the
players and their two-player games through the ORM, gives each player its own
logged-in session (a session row, as a login would leave), and runs one thread per
player, doing what a browser does:

- it fetches its board (the HTMX partial) when the page loads and whenever the
  game's doorbell rings — the site rings a WebSocket (games/notifications.py);
  here the partner's thread wakes it in-process after its move returned (a missed
  ring costs a 1 s poll);
- on its turn it picks a tile group and one of that group's legal destinations
  from the board's data attributes, as static/js/board.js does on a click (no
  request), and POSTs the move; the answer is its new board;
- when a game ends, the two players start a new one through the lobby views.

Every request the flow makes is counted. One more thread loads a trivial page
(the login form, on a new connection each time) in the same run. Prints moves/s,
requests/s, the server processes' CPU (cores busy, and milliseconds per request
and per move: the figure that does not depend on how the client threads are
scheduled), the move POST's
round trip p50/p95/p99, the full turn cycle (from the partner's move returning,
through the doorbell refetch, to this player's POST returning) and the trivial
page's percentiles. The server is one Daphne process started the stock way
(``daphne -b 127.0.0.1 -p PORT azulsite.asgi:application``), in-memory channel
layer. Usage:

    .venv/bin/python bench/http.py [--players 50] [--seconds 20] [--warmup 3]
"""

from __future__ import annotations

import sys

# Run as a script, this file's directory comes first on sys.path and its name
# would shadow the standard library's ``http``; drop that entry first.
if sys.path and sys.path[0] == __import__("os").path.dirname(__file__):
    sys.path.pop(0)

import argparse  # noqa: E402
import http.client  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import secrets  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GROUP_RE = re.compile(r'name="group" value="([^"]+)"[^>]*data-dests="([^"]+)"')
PLY_RE = re.compile(r'data-ply="(\d+)"')
CSRF = secrets.token_hex(16)  # 32 characters: a valid masked-less CSRF secret


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(db_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{db_path}",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        STATICFILES_BACKEND="django.contrib.staticfiles.storage.StaticFilesStorage",
        WHITENOISE_USE_FINDERS="true",
        LOG_LEVEL="ERROR",
    )
    env.pop("REDIS_URL", None)
    env.pop("DEADLINE_LOOP_SECONDS", None)
    return env


def server_cpu(servers: list[subprocess.Popen]) -> float:
    """CPU seconds (user + system) the server processes have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for server in servers:
        try:
            fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1]
        except OSError:
            continue
        utime, stime = fields.split()[11:13]
        total += (int(utime) + int(stime)) / ticks
    return total


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return (
        f"p50 {cuts[49] * 1000:6.1f} ms  p95 {cuts[94] * 1000:6.1f} ms  "
        f"p99 {cuts[98] * 1000:6.1f} ms  (n={len(values)})"
    )


class Client:
    """One keep-alive HTTP connection with a session cookie and a CSRF token."""

    def __init__(self, port: int, session_key: str | None) -> None:
        self.port = port
        self.cookie = f"csrftoken={CSRF}"
        if session_key:
            self.cookie += f"; sessionid={session_key}"
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        htmx: bool = False,
    ) -> tuple[int, str, dict[str, str]]:
        headers = {"Cookie": self.cookie, "Host": f"127.0.0.1:{self.port}"}
        body = None
        if htmx:
            headers["HX-Request"] = "true"
        if data is not None:
            body = urllib.parse.urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = CSRF
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                return response.status, text, dict(response.getheaders())
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=60
                )
                if attempt:
                    raise
        raise AssertionError("unreachable")


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.moves: list[tuple[float, float]] = []  # (end time, seconds) per POST
        self.turns: list[tuple[float, float]] = []  # (end time, seconds) per turn
        self.trivial: list[tuple[float, float]] = []
        self.requests: list[float] = []  # end time of every player request
        self.errors = 0
        self.games_finished = 0

    def request_done(self) -> None:
        with self.lock:
            self.requests.append(time.perf_counter())


def ring(pair: dict[str, object]) -> int:
    """The partner's doorbell: on the site, games/notifications.py rings the
    socket and the browser refetches its board; here the thread is woken.
    Returns the new ring count (the ringer has seen its own ring)."""
    with pair["cond"]:  # type: ignore[attr-defined]
        pair["rung"] += 1  # type: ignore[operator]
        pair["rung_at"] = time.perf_counter()
        pair["cond"].notify_all()  # type: ignore[attr-defined]
        return int(pair["rung"])  # type: ignore[call-overload]


def player(
    port: int,
    session_key: str,
    seat_game: dict[str, int],
    pair: dict[str, object],
    is_creator: bool,
    partner_name: str,
    stats: Stats,
    stop: threading.Event,
    rng: random.Random,
) -> None:
    """One browser: its board, then on its turn one POST; the board's script
    picks a tile group and a destination from the group's data-dests, as a
    click does, without asking the server."""
    client = Client(port, session_key)
    cond: threading.Condition = pair["cond"]  # type: ignore[assignment]
    board: str | None = None  # the board as last drawn for this player
    ring_seen = 0
    turn_started: float | None = None  # when this player's turn began
    while not stop.is_set():
        game_id = seat_game["game"]
        if board is None:
            with cond:
                ring_seen = pair["rung"]  # type: ignore[assignment]
            status, board, _ = client.request("GET", f"/games/{game_id}/", htmx=True)
            stats.request_done()
            if status != 200:
                with stats.lock:
                    stats.errors += 1
                board = None
                time.sleep(0.1)
                continue
        if "Final result" in board:
            with stats.lock:
                stats.games_finished += is_creator
            new_game(client, seat_game, pair, is_creator, partner_name, stop, stats)
            board, turn_started = None, None
            continue
        if "Your move." not in board:
            # Wait for the doorbell, then refetch the board (as the page does).
            # A missed ring costs at most a 1 s poll.
            with cond:
                if pair["rung"] == ring_seen:
                    cond.wait(timeout=1.0)
                if pair["rung"] != ring_seen:
                    turn_started = float(pair["rung_at"])  # type: ignore[arg-type]
            board = None
            continue
        groups = GROUP_RE.findall(board)
        ply = PLY_RE.search(board)
        if not groups or ply is None:
            board = None
            continue
        group, dests = rng.choice(groups)
        source, colour = group.split(":")
        data = {
            "expected_ply": ply.group(1),
            "kind": "take",
            "source": source,
            "colour": colour,
            "line": rng.choice(dests.split()).split(":")[0],
        }
        started = time.perf_counter()
        status, answer, _ = client.request(
            "POST", f"/games/{game_id}/move/", data, htmx=True
        )
        done = time.perf_counter()
        stats.request_done()
        ok = status == 200 and 'role="alert"' not in answer
        with stats.lock:
            if ok:
                stats.moves.append((done, done - started))
                if turn_started is not None:
                    stats.turns.append((done, done - turn_started))
            else:
                stats.errors += 1
        board = answer if ok else None  # HTMX swaps in the answer: no refetch
        turn_started = done  # if the answer says "Your move." again
        ring_seen = ring(pair)


def new_game(
    client: Client,
    seat_game: dict[str, int],
    pair: dict[str, object],
    is_creator: bool,
    partner_name: str,
    stop: threading.Event,
    stats: Stats,
) -> None:
    """The creator opens a new game inviting its partner; the partner accepts
    (which deals round 1 and rings the creator's doorbell)."""
    finished = seat_game["game"]
    if is_creator:
        status, _, headers = client.request(
            "POST",
            "/games/new/",
            {
                "variant": "classic",
                "players": "2",
                "time_control": "daily",
                "invite": partner_name,
            },
        )
        stats.request_done()
        location = headers.get("Location", "")
        match = re.search(r"/games/(\d+)/", location)
        if status != 302 or not match:
            raise RuntimeError(f"could not create a game: {status}")
        seat_game["game"] = int(match.group(1))
        with pair["cond"]:  # type: ignore[attr-defined]
            pair["game"] = seat_game["game"]
        ring(pair)
        return
    with pair["cond"]:  # type: ignore[attr-defined]
        while pair["game"] == finished and not stop.is_set():
            pair["cond"].wait(timeout=0.2)  # type: ignore[attr-defined]
        new_id = int(pair["game"])  # type: ignore[call-overload]
    if new_id == finished:
        return
    client.request("POST", f"/games/{new_id}/accept/", {})
    stats.request_done()
    seat_game["game"] = new_id
    ring(pair)


def trivial(port: int, stats: Stats, stop: threading.Event) -> None:
    """The login page, each time on a new connection (as a visitor's first page
    is)."""
    while not stop.is_set():
        client = Client(port, None)
        started = time.perf_counter()
        status, _, _ = client.request("GET", "/accounts/login/")
        elapsed = time.perf_counter() - started
        client.conn.close()
        with stats.lock:
            if status == 200:
                stats.trivial.append((time.perf_counter(), elapsed))
            else:
                stats.errors += 1
        time.sleep(0.02)


def prepare(players: int, db_path: Path, env: dict[str, str]) -> list[dict]:
    """Migrate a fresh database; create players, games and sessions (ORM)."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "azulsite.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import services

    seats = []
    users = [
        User.objects.create_user(username=f"p{n:03d}", password=None)
        for n in range(players)
    ]
    for index in range(0, players, 2):
        creator, partner = users[index], users[index + 1]
        game = services.game_create(
            creator=creator,
            variant="classic",
            players=2,
            rated=False,
            invitees=[partner],
        )
        services.game_invitation_respond(game_id=game.pk, user=partner, accept=True)
        pair = {"game": game.pk, "cond": threading.Condition(), "rung": 0, "rung_at": 0}
        for user, partner_user, is_creator in (
            (creator, partner, True),
            (partner, creator, False),
        ):
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            seats.append(
                {
                    "session": session.session_key,
                    "seat_game": {"game": game.pk},
                    "pair": pair,
                    "is_creator": is_creator,
                    "partner": partner_user.username,
                }
            )
    from django.db import connections

    connections.close_all()
    return seats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    args = parser.parse_args()
    if args.players < 2 or args.players % 2:
        parser.error("--players must be an even number ≥ 2")

    workdir = Path(tempfile.mkdtemp(prefix="azul-bench-"))
    db_path = workdir / "bench.sqlite3"
    env = server_env(db_path)
    seats = prepare(args.players, db_path, env)
    profile = os.environ.get("BENCH_PROFILE")  # write a cProfile of the server
    log = (workdir / "daphne.log").open("w")
    port = free_port()
    servers = [
        subprocess.Popen(
            [
                sys.executable,
                *(["-m", "cProfile", "-o", profile] if profile else []),
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "-v",
                "0",  # no access log: it would cost the server time per request
                "azulsite.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    ]
    try:
        for _ in range(100):
            try:
                Client(port, None).request("GET", "/accounts/login/")
                break
            except OSError:
                time.sleep(0.1)
        stats = Stats()
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=player,
                args=(
                    port,
                    seat["session"],
                    seat["seat_game"],
                    seat["pair"],
                    seat["is_creator"],
                    seat["partner"],
                    stats,
                    stop,
                    random.Random(index),
                ),
                daemon=True,
            )
            for index, seat in enumerate(seats)
        ]
        threads.append(
            threading.Thread(target=trivial, args=(port, stats, stop), daemon=True)
        )
        for thread in threads:
            thread.start()
        begin = time.perf_counter() + args.warmup
        end = begin + args.seconds
        time.sleep(args.warmup)
        cpu_begin = server_cpu(servers)
        time.sleep(args.seconds)
        cpu_used = server_cpu(servers) - cpu_begin
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
        moves = [s for t, s in stats.moves if begin <= t <= end]
        turns = [s for t, s in stats.turns if begin <= t <= end]
        pages = [s for t, s in stats.trivial if begin <= t <= end]
        requests = [t for t in stats.requests if begin <= t <= end]
        print(
            f"{args.players} players, {args.players // 2} two-player games, "
            f"{args.seconds:.0f} s measured after {args.warmup:.0f} s warm-up "
            "(Daphne, SQLite, one process, in-memory channel layer)"
        )
        print(f"moves/s      {len(moves) / args.seconds:8.1f}")
        print(
            f"requests/s   {len(requests) / args.seconds:8.1f}  "
            f"(board GETs and move POSTs; {len(requests) / max(1, len(moves)):.2f}"
            " a move)"
        )
        print(
            f"server CPU   {cpu_used / args.seconds:8.2f} cores, "
            f"{cpu_used * 1000 / max(1, len(requests)):.2f} ms a request, "
            f"{cpu_used * 1000 / max(1, len(moves)):.2f} ms a move"
        )
        print(f"move POST    {percentiles(moves)}")
        print(f"turn cycle   {percentiles(turns)}")
        print(f"trivial GET  {percentiles(pages)}")
        if len(moves) > 1 and len(pages) > 1:
            move_p95 = statistics.quantiles(moves, n=100, method="inclusive")[94]
            page_p95 = statistics.quantiles(pages, n=100, method="inclusive")[94]
            print(f"move p95 / trivial p95 = {move_p95 / page_p95:.2f}")
        print(f"games finished {stats.games_finished}, errors {stats.errors}")
    finally:
        for server in servers:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        print(f"server log: {workdir / 'daphne.log'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
