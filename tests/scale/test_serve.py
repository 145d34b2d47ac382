"""azulsite.serve: several Daphne processes, each adopting a socket on one port."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.db import connection

from azulsite import serve

from .test_two_servers import REDIS_URL, ROOT, _redis_up


def test_several_processes_need_redis():
    sockets = serve.listening_sockets("127.0.0.1", 0, 2)
    try:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        with pytest.raises(SystemExit, match="REDIS_URL"):
            serve.start(sockets, env=env)
    finally:
        for sock in sockets:
            sock.close()


def test_each_process_gets_its_own_socket_on_one_port():
    sockets = serve.listening_sockets("127.0.0.1", 0, 3)
    try:
        assert len({s.fileno() for s in sockets}) == 3
        assert len({s.getsockname() for s in sockets}) == 1
        assert all(
            s.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) for s in sockets
        )
    finally:
        for sock in sockets:
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
    sockets = serve.listening_sockets("127.0.0.1", 0, 2)
    port = sockets[0].getsockname()[1]
    children = serve.start(
        sockets, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    for sock in sockets:
        sock.close()  # the children hold them
    clients: list[http.client.HTTPConnection] = []
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
        # 40 keep-alive connections: the kernel spreads them over both processes
        # (with one shared socket, one process could take nearly all of them).
        for _ in range(40):
            client = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            client.request("GET", "/accounts/login/")
            assert client.getresponse().read()
            clients.append(client)
        held = [_connections_held(child.pid, port) for child in children]
        assert sum(held) == 40
        assert min(held) >= 5, held
    finally:
        for client in clients:
            client.close()
        serve.stop(children)
    assert all(child.returncode is not None for child in children)


def _connections_held(pid: int, port: int) -> int:
    """Established TCP connections on local ``port`` among ``pid``'s files."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    held = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local_port = int(fields[1].rsplit(":", 1)[1], 16)
        if local_port == port and fields[3] == "01" and fields[9] in inodes:
            held += 1
    return held
