"""What one request costs in this stack, and the move rate that allows.

``bench/http.py`` reports the server's CPU a request while 50 players play; this
script splits that figure into its layers by timing the same few GET requests
twice, on a fresh SQLite database with one two-player classic game:

- through one Daphne process started the stock way (DEBUG off, the in-memory
  channel layer), by ``--clients`` keep-alive connections for ``--seconds`` each,
  reading the server process's CPU (user + system) from /proc;
- in this process through Django's test client (the WSGI-style handler: the
  same middleware, view and templates, no server, no ASGI), by CPU time.

The requests: a static file (Daphne, the outer middleware and WhiteNoise), the
log-in page (a small template page with a form), and the waiting player's board
(the HTMX partial a doorbell fetches: the game read, the engine and the board).
The difference between the two columns is what the server and the ASGI glue add
to every request. A move costs at least two requests (the mover's POST, the
partner's board), so a process that spends ``c`` ms a request cannot pass
``1000 / (2 c)`` moves a second; the last line prints that ceiling for the log-in
page's cost (a move's requests cost more).

    .venv/bin/python bench/floor.py [--seconds 8] [--clients 4]
"""

from __future__ import annotations

import sys

# Run as a script, this file's directory comes first on sys.path and its
# ``http.py`` would shadow the standard library's ``http``; drop that entry.
if sys.path and sys.path[0] == __import__("os").path.dirname(__file__):
    sys.path.pop(0)

import argparse  # noqa: E402
import http.client  # noqa: E402
import importlib.util  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from types import ModuleType  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _http_bench() -> ModuleType:
    """bench/http.py's server start-up helpers (it cannot be imported by name)."""
    spec = importlib.util.spec_from_file_location("bench_http", ROOT / "bench/http.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _through_daphne(
    port: int,
    server: subprocess.Popen[bytes],
    path: str,
    cookie: str,
    args: argparse.Namespace,
    cpu: Callable[[list[subprocess.Popen[bytes]]], float],
) -> tuple[float, float]:
    """Requests a second and server CPU milliseconds a request for ``path``."""
    headers = {"Cookie": cookie, "HX-Request": "true", "Host": f"127.0.0.1:{port}"}
    done = [0] * args.clients
    stop = threading.Event()

    def client(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while not stop.is_set():
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            assert response.status == 200, (path, response.status)
            done[index] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # warm-up: templates compiled, connections open
    cpu0, count0, start = cpu([server]), sum(done), time.perf_counter()
    time.sleep(args.seconds)
    cpu1, count1, end = cpu([server]), sum(done), time.perf_counter()
    stop.set()
    for thread in threads:
        thread.join()
    requests = count1 - count0
    return requests / (end - start), 1000 * (cpu1 - cpu0) / requests


def _in_process(client: Any, path: str, seconds: float) -> float:
    """CPU milliseconds a request for ``path`` through Django's test client."""
    for _ in range(20):
        assert client.get(path, headers={"HX-Request": "true"}).status_code == 200
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        client.get(path, headers={"HX-Request": "true"})
        count += 1
    return 1000 * (time.process_time() - start) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()

    bench = _http_bench()
    workdir = Path(tempfile.mkdtemp(prefix="azul-floor-"))
    env = bench.server_env(workdir / "floor.sqlite3")
    seats = bench.prepare(2, workdir / "floor.sqlite3", env)
    waiting = seats[1]  # the partner: the creator moves first
    game_id = waiting["seat_game"]["game"]
    cookie = f"sessionid={waiting['session']}"
    paths = {
        "static file": "/static/favicon.svg",
        "log-in page": "/accounts/login/",
        "board (waiting player)": f"/games/{game_id}/",
    }

    port = bench.free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["-v", "0", "azulsite.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(workdir / "daphne.log").open("w"),
    )
    try:
        for _ in range(100):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/accounts/login/")
                conn.getresponse().read()
                break
            except OSError:
                time.sleep(0.1)
        served = {
            label: _through_daphne(port, server, path, cookie, args, bench.server_cpu)
            for label, path in paths.items()
        }
    finally:
        server.terminate()
        server.wait(10)

    from django.conf import settings
    from django.test import Client

    settings.ALLOWED_HOSTS = ["testserver"]
    client = Client()
    client.cookies["sessionid"] = waiting["session"]
    direct = {
        label: _in_process(client, path, args.seconds) for label, path in paths.items()
    }

    print(
        f"one Daphne process, {args.clients} keep-alive clients, {args.seconds:g} s "
        "a request kind; in-process: Django's test client"
    )
    print(
        f"{'request':<24} {'req/s':>7} {'Daphne ms CPU':>14} {'in-process':>11} "
        f"{'added by server':>16}"
    )
    for label in paths:
        rate, served_ms = served[label]
        print(
            f"{label:<24} {rate:7.0f} {served_ms:14.2f} {direct[label]:11.2f} "
            f"{served_ms - direct[label]:16.2f}"
        )
    login_ms = served["log-in page"][1]
    print(
        f"moves/s ceiling if a move's two requests cost no more than the log-in "
        f"page: {1000 / (2 * login_ms):.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
