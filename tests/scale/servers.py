"""Live servers for the scale tests: Daphne and the deadline worker started with
the command lines of ``deploy/supervisord.conf`` (the code's directory and
virtualenv for ``/srv/azul``, a free port), as child processes on the test
database.

A real command line, not a forked test server: it runs ``azulsite/asgi.py`` as a
server does (the deadline loop it starts included), and no asgiref executor or
reactor state crosses a fork (stack.md pitfall 2).
"""

from __future__ import annotations

import configparser
import json
import os
import queue
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUPERVISORD_CONF = ROOT / "deploy" / "supervisord.conf"
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def supervisord_programs() -> dict[str, dict[str, str]]:
    """``deploy/supervisord.conf``'s programs: name → options."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(SUPERVISORD_CONF)
    return {
        section.removeprefix("program:"): dict(parser[section])
        for section in parser.sections()
        if section.startswith("program:")
    }


def deploy_command(program: str, process_num: int = 0) -> list[str]:
    """A program's command line from ``deploy/supervisord.conf``, for this
    checkout: its virtualenv and directory stand for ``/srv/azul``."""
    command = supervisord_programs()[program]["command"]
    command = command.replace("%(process_num)d", str(process_num))
    command = command.replace("/srv/azul/.venv/bin/", f"{Path(sys.executable).parent}/")
    return shlex.split(command.replace("/srv/azul/", f"{ROOT}/"))


def daphne_commands() -> list[list[str]]:
    """The command line of each Daphne process of ``deploy/supervisord.conf``."""
    options = supervisord_programs()["azul-daphne"]
    first = int(options.get("numprocs_start", "0"))
    numbers = range(first, first + int(options.get("numprocs", "1")))
    return [deploy_command("azul-daphne", number) for number in numbers]


def daphne_ports() -> list[int]:
    """The ports ``deploy/supervisord.conf`` gives its Daphne processes."""
    return [int(argv[argv.index("-p") + 1]) for argv in daphne_commands()]


def redis_up() -> bool:
    parsed = urllib.parse.urlparse(REDIS_URL)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or 6379), 2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def require_redis() -> None:
    """Skip without Redis, or fail where it must be there (``AZUL_REQUIRE_REDIS``)."""
    if not redis_up():
        if os.environ.get("AZUL_REQUIRE_REDIS"):
            pytest.fail(f"Redis is not reachable at {REDIS_URL}")
        pytest.skip(f"Redis is not reachable at {REDIS_URL}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url() -> str:
    """The test database, as ``DATABASE_URL`` for a child process (stack.md §4)."""
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "sqlite":
        if connection.is_in_memory_db():
            pytest.fail("live servers need a file database (stack.md §4)")
        return f"sqlite:///{db['NAME']}"
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def server_env(*, redis: bool, **extra: str) -> dict[str, str]:
    """The children's environment: the test database, one channel layer."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DEBUG": "true",
        "DEADLINE_LOOP_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        "AZUL_ENV": os.devnull,  # deploy/run reads no settings file here
    }
    env.pop("REDIS_URL", None)
    if redis:
        env["REDIS_URL"] = REDIS_URL
        env["CHANNEL_LAYER_PREFIX"] = f"azul-test-{uuid.uuid4().hex[:12]}"
    env.update(extra)
    return env


@dataclass
class Child:
    """A child process whose stderr goes to a file the test can read."""

    process: subprocess.Popen[bytes]
    log: Path
    port: int = 0
    _final: str | None = None  # kept when the process has stopped

    def stderr(self) -> str:
        if self._final is not None:
            return self._final
        return self.log.read_text(errors="replace")


@contextmanager
def _child(command: Sequence[str], env: dict[str, str]) -> Iterator[Child]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "stderr.txt"
        with log.open("wb") as stderr:
            process = subprocess.Popen(
                list(command),
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        child = Child(process, log)
        try:
            yield child
        finally:
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            child._final = log.read_text(errors="replace")


@contextmanager
def daphne(
    env: dict[str, str], websocket_timeout: int | None = None
) -> Iterator[Child]:
    """Daphne as ``deploy/supervisord.conf`` runs it, on a free port (and with
    a shorter ``--websocket_timeout`` if given)."""
    port = free_port()
    command = daphne_commands()[0]
    command[command.index("-p") + 1] = str(port)
    if websocket_timeout is not None:
        command[command.index("--websocket_timeout") + 1] = str(websocket_timeout)
    with _child(command, env) as child:
        child.port = port
        deadline = time.monotonic() + 30
        while True:
            if child.process.poll() is not None:
                raise RuntimeError(f"Daphne exited:\n{child.stderr()}")
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("Daphne did not start") from None
                time.sleep(0.1)
        yield child


@contextmanager
def deadline_worker(env: dict[str, str], interval: float) -> Iterator[Child]:
    """The deadline worker of ``deploy/supervisord.conf``, every ``interval`` s."""
    command = deploy_command("azul-deadlines")
    command[command.index("--loop") + 1] = str(interval)
    with _child(command, env) as child:
        time.sleep(1.5)  # Django starts; the first passes find nothing to do
        if child.process.poll() is not None:
            raise RuntimeError(f"the deadline worker exited:\n{child.stderr()}")
        yield child


@contextmanager
def task_worker(env: dict[str, str]) -> Iterator[Child]:
    """A task worker of ``deploy/supervisord.conf`` (``manage.py db_worker``),
    polling the queue every 0.1 s; the test waits for what it does."""
    command = deploy_command("azul-tasks") + ["--interval", "0.1"]
    with _child(command, env) as child:
        yield child


@contextmanager
def rq_worker(env: dict[str, str]) -> Iterator[Child]:
    """An RQ worker for the tasks (``TASKS_BACKEND=rq``, several machines), as
    settings.py says to run it."""
    command = [
        sys.executable,
        str(ROOT / "manage.py"),
        "rqworker",
        "default",
        "--job-class",
        "django_tasks_rq.Job",
    ]
    with _child(command, {**env, "TASKS_BACKEND": "rq"}) as child:
        yield child


def errors_in(log: str) -> list[str]:
    """Lines of a child's stderr that report an error (a consumer's included)."""
    words = ("Traceback", "Error", "Exception", "exception")
    return [line for line in log.splitlines() if any(w in line for w in words)]


@dataclass
class Message:
    data: dict[str, Any]
    connection: int  # 1 for the page's first connection, 2 after a reconnect ...
    first: bool  # the connection's first message (the consumer's hello)
    at: float = field(default_factory=time.monotonic)


class Page:
    """A game page's socket as ``static/js/live.js`` keeps it: it reconnects when
    the server closes it, and every message is kept with the connection it came
    on. Runs in a thread of its own (the test's own code stays sync)."""

    def __init__(self, port: int, path: str, *, reconnect: bool = True) -> None:
        self.url = f"ws://127.0.0.1:{port}{path}"
        self.origin = f"http://127.0.0.1:{port}"  # stack.md pitfall 6
        self.reconnect = reconnect
        self.messages: queue.Queue[Message] = queue.Queue()
        self.connections = 0
        self.closed: list[int | None] = []  # close codes, in order
        self._stop = threading.Event()
        self._socket: Any = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Page:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._socket is not None:
            self._socket.close()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        while not self._stop.is_set():
            try:
                with connect(self.url, origin=self.origin, open_timeout=10) as ws:
                    self._socket = ws
                    self.connections += 1
                    first = True
                    for raw in ws:
                        self.messages.put(
                            Message(json.loads(raw), self.connections, first)
                        )
                        first = False
                    self.closed.append(ws.close_code)
            except (ConnectionClosed, OSError) as error:
                self.closed.append(getattr(error, "code", None))
            if not self.reconnect:
                return
            self._stop.wait(0.5)

    def next(self, timeout: float) -> Message:
        """The next message, or ``queue.Empty`` after ``timeout`` seconds."""
        return self.messages.get(timeout=timeout)

    def wait_for(self, predicate: Any, timeout: float) -> Message:
        """The first message for which ``predicate(message)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.0, deadline - time.monotonic()))
            if predicate(message):
                return message
