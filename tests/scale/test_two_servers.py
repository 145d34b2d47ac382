"""Scale-out: two Daphne processes on PostgreSQL + Redis share the channel layer.

A socket on server A must hear about a move POSTed to server B. Runs in the
PostgreSQL pass of ``.ci/run`` (which sets ``AZUL_REQUIRE_REDIS``: there a missing
Redis fails the test instead of skipping it).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.db import connection

from games import selectors

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _redis_up() -> bool:
    parsed = urllib.parse.urlparse(REDIS_URL)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or 6379), 2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_daphne(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["azulsite.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(process.stderr.read().decode() if process.stderr else "")
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("Daphne did not start")


@pytest.fixture
def two_servers(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("the scale-out test runs on PostgreSQL (the CI's second pass)")
    if not _redis_up():
        if os.environ.get("AZUL_REQUIRE_REDIS"):
            pytest.fail(f"Redis is not reachable at {REDIS_URL}")
        pytest.skip(f"Redis is not reachable at {REDIS_URL}")
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        ),
        "REDIS_URL": REDIS_URL,
        "CHANNEL_LAYER_PREFIX": f"azul-test-{uuid.uuid4().hex[:12]}",
        "DEADLINE_LOOP_SECONDS": "0",
        "DEBUG": "true",
    }
    servers = []
    try:
        for _ in range(2):
            servers.append(_start_daphne(env))
        yield [port for _, port in servers]
    finally:
        for process, _ in servers:
            process.terminate()
        for process, _ in servers:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def test_a_move_posted_to_one_server_rings_a_socket_on_the_other(
    two_servers, players, start_game, client_for
):
    from websockets.sync.client import connect

    port_a, port_b = two_servers
    game = start_game(players[:2])
    mover = game.seats.get(number=game.seat_to_move).user
    session = client_for(mover).cookies["sessionid"].value
    move = selectors.game_engine(game).legal_moves()[0]
    from tests.games.helpers import move_post_data

    with connect(
        f"ws://127.0.0.1:{port_a}/ws/games/{game.pk}/",
        origin=f"http://127.0.0.1:{port_a}",
        open_timeout=10,
    ) as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello["ply"] == game.ply
        csrf = "a" * 32
        request = urllib.request.Request(
            f"http://127.0.0.1:{port_b}/games/{game.pk}/move/",
            data=urllib.parse.urlencode(move_post_data(move, game.ply)).encode(),
            headers={
                "Cookie": f"sessionid={session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
            },
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=20) as response:
            assert response.status == 200
        message = json.loads(ws.recv(timeout=10))
    game.refresh_from_db()
    assert game.ply > hello["ply"]
    assert message == {"type": "game", "ply": game.ply, "status": "active"}
