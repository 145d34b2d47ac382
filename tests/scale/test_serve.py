"""azulsite.serve: several Daphne processes adopting one listening socket."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
import uuid

import pytest
from django.db import connection

from azulsite import serve

from .test_two_servers import REDIS_URL, ROOT, _redis_up


def test_several_processes_need_redis():
    sock = serve.listening_socket("127.0.0.1", 0)
    try:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        with pytest.raises(SystemExit, match="REDIS_URL"):
            serve.start(sock, 2, env=env)
    finally:
        sock.close()


def test_the_daphne_command_adopts_the_inherited_socket():
    sock = serve.listening_socket("127.0.0.1", 0)
    try:
        command = serve.daphne_command(sock, ["-v", "0"])
        assert command[-1] == "azulsite.asgi:application"
        assert command[command.index("--fd") + 1] == str(sock.fileno())
        assert sock.get_inheritable()
    finally:
        sock.close()


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def test_two_processes_on_one_socket_serve_and_stop_cleanly(transactional_db):
    if not _redis_up():
        if os.environ.get("AZUL_REQUIRE_REDIS"):
            pytest.fail(f"Redis is not reachable at {REDIS_URL}")
        pytest.skip(f"Redis is not reachable at {REDIS_URL}")
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "REDIS_URL": REDIS_URL,
        "CHANNEL_LAYER_PREFIX": f"azul-test-{uuid.uuid4().hex[:12]}",
        "DEADLINE_LOOP_SECONDS": "0",
    }
    sock = serve.listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    children = serve.start(
        sock, 2, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    sock.close()  # the children hold it
    try:
        deadline = time.monotonic() + 60
        answers = 0
        while answers < 20 and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/accounts/login/", timeout=5
                ) as response:
                    assert response.status == 200
                    answers += 1
            except OSError:
                time.sleep(0.2)
        assert answers == 20
        assert [child.poll() for child in children] == [None, None]
    finally:
        serve.stop(children)
    assert all(child.returncode is not None for child in children)
