"""The README's run command says when the site is ready and where to open it
(issue #25, item 18): its migrate and Daphne steps, run as written on a fresh
SQLite database and a free port, print "Azul is ready: open http://…/", and
that address answers with the home page."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from azulsite.ready import address_to_open

ROOT = Path(__file__).resolve().parent.parent


def _run_command() -> str:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("<!-- run-command -->", 1)[1]
    return re.search(r"```sh\n(.+?)\n```", block, re.S).group(1)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_address_to_open_follows_daphne_s_listening_line() -> None:
    assert address_to_open("Listening on TCP address 127.0.0.1:8000") == (
        "http://127.0.0.1:8000/"
    )
    assert address_to_open("Listening on TCP address 0.0.0.0:80") == (
        "http://127.0.0.1:80/"
    )
    assert address_to_open("Listening on TCP address ::1:8001") == "http://[::1]:8001/"
    assert address_to_open("Configuring endpoint tcp:port=8000") is None


@pytest.mark.once
def test_the_run_command_prints_the_address_to_open(tmp_path: Path) -> None:
    # The steps after the install, with this checkout's interpreter and a port of
    # our own; the database is a fresh file.
    steps = _run_command().split(" && ", 1)[1]
    port = _free_port()
    assert "-p 8000" in steps
    steps = steps.replace("-p 8000", f"-p {port}").replace(
        ".venv/bin/", f"{Path(sys.executable).parent}/"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "TEST_DB_NAME"}
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    server = subprocess.Popen(
        ["bash", "-c", steps],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert server.stderr is not None
        for line in server.stderr:
            lines.append(line.rstrip("\n"))
            if line.startswith("Azul is ready: open "):
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert ready.wait(timeout=120), "\n".join(lines[-20:])
        announced = next(line for line in lines if line.startswith("Azul is ready"))
        url = f"http://127.0.0.1:{port}/"
        assert announced == f"Azul is ready: open {url} in a browser."
        with urllib.request.urlopen(url, timeout=10) as response:
            page = response.read().decode()
        assert response.status == 200
        assert "<h1>Azul by correspondence</h1>" in page  # the home page, in English
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=20)
