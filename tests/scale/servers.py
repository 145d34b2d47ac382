"""Live servers for the scale tests: Daphne and the deadline worker started with
the command lines of ``deploy/supervisord.conf`` (the code's directory and
virtualenv for ``/srv/azul``, a free port), as child processes on the test
database.

A real command line, not a forked test server: it runs ``azulsite/asgi.py`` as a
server does (the deadline loop it starts included), and no asgiref executor or
reactor state crosses a fork (docs/stack.md pitfall 2).
"""

from __future__ import annotations

import configparser
import json
import os
import queue
import re
import shlex
import shutil
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


def supervisord_programs(conf: str | None = None) -> dict[str, dict[str, str]]:
    """``deploy/supervisord.conf``'s programs (or ``conf``'s, the same file
    from another version): name → options."""
    parser = configparser.ConfigParser(interpolation=None)
    if conf is None:
        parser.read(SUPERVISORD_CONF)
    else:
        parser.read_string(conf)
    return {
        section.removeprefix("program:"): dict(parser[section])
        for section in parser.sections()
        if section.startswith("program:")
    }


def deploy_command(
    program: str, process_num: int = 0, *, conf: str | None = None
) -> list[str]:
    """A program's command line from ``deploy/supervisord.conf`` (or ``conf``),
    for this checkout: its virtualenv and directory stand for ``/srv/azul``."""
    command = supervisord_programs(conf)[program]["command"]
    command = command.replace("%(process_num)d", str(process_num))
    command = command.replace("/srv/azul/.venv/bin/", f"{Path(sys.executable).parent}/")
    return shlex.split(command.replace("/srv/azul/", f"{ROOT}/"))


def daphne_commands(conf: str | None = None) -> list[list[str]]:
    """The command line of each Daphne process of ``deploy/supervisord.conf``
    (or ``conf``)."""
    options = supervisord_programs(conf)["azul-daphne"]
    first = int(options.get("numprocs_start", "0"))
    numbers = range(first, first + int(options.get("numprocs", "1")))
    return [deploy_command("azul-daphne", number, conf=conf) for number in numbers]


def daphne_endpoint(argv: Sequence[str]) -> dict[str, str]:
    """The TCP endpoint a Daphne command line listens on: its ``-e``
    ``tcp:port=8001:interface=127.0.0.1:backlog=1024`` (Twisted's syntax) as
    ``{"port": "8001", ...}``, or its ``-b``/``-p`` (Twisted's default backlog,
    50)."""
    if "-e" in argv:
        kind, *options = argv[argv.index("-e") + 1].split(":")
        assert kind == "tcp", f"not a TCP endpoint: {kind}"
        return dict(option.split("=", 1) for option in options)
    return {
        "port": argv[argv.index("-p") + 1],
        "interface": argv[argv.index("-b") + 1],
    }


def with_port(argv: Sequence[str], port: int) -> list[str]:
    """A Daphne command line listening on ``port`` instead, all else kept."""
    argv = list(argv)
    if "-e" in argv:
        index = argv.index("-e") + 1
        argv[index] = re.sub(r"\bport=\d+", f"port={port}", argv[index])
    else:
        argv[argv.index("-p") + 1] = str(port)
    return argv


def daphne_ports() -> list[int]:
    """The ports ``deploy/supervisord.conf`` gives its Daphne processes."""
    return [int(daphne_endpoint(argv)["port"]) for argv in daphne_commands()]


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
    """The test database, as ``DATABASE_URL`` for a child process (docs/stack.md
    pitfall 4)."""
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "sqlite":
        if connection.is_in_memory_db():  # type: ignore[attr-defined]
            pytest.fail("live servers need a file database (docs/stack.md pitfall 4)")
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
        # The site's own settings, as a server reads them (not tests.settings).
        "DJANGO_SETTINGS_MODULE": "azulsite.settings",
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
    env: dict[str, str],
    websocket_timeout: int | None = None,
    *,
    command: Sequence[str] | None = None,
) -> Iterator[Child]:
    """Daphne as ``deploy/supervisord.conf`` runs it (or as ``command``, one of
    its command lines from another version), on a free port (and with a shorter
    ``--websocket_timeout`` if given)."""
    port = free_port()
    command = with_port(command or daphne_commands()[0], port)
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
        self.origin = f"http://127.0.0.1:{port}"  # docs/stack.md pitfall 6
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
        from websockets.typing import Origin

        while not self._stop.is_set():
            try:
                with connect(
                    self.url, origin=Origin(self.origin), open_timeout=10
                ) as ws:
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


# deploy/nginx.conf in front of the Daphne processes ---------------------------

NGINX_CONF = ROOT / "deploy" / "nginx.conf"
PUBLIC_NAME = "azul.example.org"
"""deploy/nginx.conf's ``server_name``: the clients send it, the site sees it."""


def nginx_missing() -> str | None:
    """Why the nginx tests cannot run here, or ``None``."""
    if shutil.which("nginx") is None:
        return "nginx is not installed"
    return None


def require_nginx() -> None:
    """Skip without nginx, or fail where it must be there (``AZUL_REQUIRE_NGINX``)."""
    reason = nginx_missing()
    if reason:
        if os.environ.get("AZUL_REQUIRE_NGINX"):
            pytest.fail(reason)
        pytest.skip(reason)


def self_signed_certificate(directory: Path, name: str) -> tuple[Path, Path]:
    """A certificate for ``name`` (and 127.0.0.1) and its key, as PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [
                    x509.DNSName(name),
                    x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                ]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "fullchain.pem", directory / "privkey.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def _substitute(text: str, pattern: str, replacement: Any, count: int) -> str:
    """``re.subn`` that insists on ``count`` matches: a test of the file as
    written must fail, not test something else, when the file changes shape."""
    new, found = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    assert found == count, f"deploy/nginx.conf: {pattern!r} found {found} times"
    return new


def deploy_nginx_conf(
    *,
    https_port: int,
    http_port: int,
    upstream_ports: Sequence[int],
    certificate: Path,
    key: Path,
    site: str | None = None,
) -> str:
    """``deploy/nginx.conf`` as written (or ``site``, the same file from another
    version), with only what an installation changes substituted: the listen
    ports (on the loopback addresses), the certificate paths and the upstream's
    ports."""
    text = NGINX_CONF.read_text() if site is None else site
    v6 = _ipv6_loopback()

    def listen(port: int) -> Any:
        def replace(match: re.Match[str]) -> str:
            address, rest = match.group(1), match.group(2)
            if address == "[::]:":
                return f"listen [::1]:{port}{rest}" if v6 else "# (no IPv6 here)"
            return f"listen 127.0.0.1:{port}{rest}"

        return replace

    text = _substitute(text, r"listen (\[::\]:)?80\b([^;]*;)", listen(http_port), 2)
    text = _substitute(text, r"listen (\[::\]:)?443\b([^;]*;)", listen(https_port), 2)
    text = _substitute(
        text, r"ssl_certificate\s+\S+;", f"ssl_certificate {certificate};", 1
    )
    text = _substitute(
        text, r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", 1
    )
    ports = iter(upstream_ports)
    text = _substitute(
        text,
        r"^(\s*server\s+127\.0\.0\.1:)\d+\b",
        lambda m: f"{m.group(1)}{next(ports)}",
        len(upstream_ports),
    )
    return text


NGINX_MAIN_CONF = ROOT / "deploy" / "nginx-main.conf"


def nginx_main_conf(work: Path, site: str, *, main: str | None = None) -> str:
    """``deploy/nginx-main.conf`` (or ``main``, the same file from another
    version) around a site file, for an nginx run by this user with everything
    in ``work``: its user, files and logs, Debian's modules and other sites
    substituted; its workers, connections and open files as written."""
    text = NGINX_MAIN_CONF.read_text() if main is None else main
    text = _substitute(text, r"^user\s+\S+;", "# (runs as this user)", 1)
    text = _substitute(text, r"^pid\s+\S+;", f"pid {work}/nginx.pid;", 1)
    text = _substitute(
        text, r"^error_log\s+\S+;", f"error_log {work}/error.log warn;", 1
    )
    text = _substitute(text, r"^include\s+\S+/modules-enabled/\S+;", "", 1)
    text = _substitute(text, r"^\s*access_log\s+\S+;", " access_log off;", 1)
    text = _substitute(text, r"^\s*include\s+\S+/conf\.d/\S+;", "", 1)
    temp = "\n".join(
        f" {kind}_temp_path {work}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return _substitute(
        text,
        r"^\s*include\s+\S+/sites-enabled/\S+;",
        lambda _: f"{temp}\n{site}",
        1,
    )


@dataclass
class Proxy:
    """nginx running ``deploy/nginx.conf``: where to reach it, and how to trust it."""

    https_port: int
    http_port: int
    certificate: Path
    conf: Path
    error_log: Path
    name: str = PUBLIC_NAME

    def ssl_context(self) -> Any:
        import ssl

        context = ssl.create_default_context(cafile=str(self.certificate))
        return context

    def errors(self) -> str:
        return (
            self.error_log.read_text(errors="replace")
            if self.error_log.exists()
            else ""
        )


def nginx_test(conf: Path, work: Path) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` on a configuration."""
    return subprocess.run(
        ["nginx", "-t", "-p", str(work), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=30,
    )


@contextmanager
def deploy_nginx(
    upstream_ports: Sequence[int],
    *,
    site: str | None = None,
    main: str | None = None,
) -> Iterator[Proxy]:
    """nginx with ``deploy/nginx.conf`` inside ``deploy/nginx-main.conf`` (or
    ``site`` and ``main``, those files from another version; a certificate of
    its own) in front of ``upstream_ports``, on free ports; ``nginx -t`` must
    pass first."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.chmod(work, 0o755)  # nginx's workers keep their temporary files there
        certificate, key = self_signed_certificate(work, PUBLIC_NAME)
        https_port, http_port = free_port(), free_port()
        site_text = deploy_nginx_conf(
            https_port=https_port,
            http_port=http_port,
            upstream_ports=upstream_ports,
            certificate=certificate,
            key=key,
            site=site,
        )
        conf = work / "nginx.conf"
        conf.write_text(nginx_main_conf(work, site_text, main=main))
        proxy = Proxy(https_port, http_port, certificate, conf, work / "error.log")
        checked = nginx_test(conf, work)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t failed:\n{checked.stderr}")
        process = subprocess.Popen(
            ["nginx", "-p", str(work), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", https_port), 0.5).close()
                    break
                except OSError:
                    if process.poll() is not None:
                        raise RuntimeError(f"nginx exited:\n{proxy.errors()}") from None
                    if time.monotonic() > deadline:
                        raise RuntimeError("nginx did not start") from None
                    time.sleep(0.05)
            yield proxy
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def production_env(**extra: str) -> dict[str, str]:
    """The children's environment as production has it behind the proxy:
    ``DEBUG`` off (HTTPS redirect, secure cookies, HSTS), the public name the
    only allowed host, Redis for the channel layer and the rate-limit counters."""
    import secrets

    return server_env(
        redis=True,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=PUBLIC_NAME,
        ADMIN_URL=f"staff-{secrets.token_hex(4)}",
        SITE_URL="",
        STATICFILES_BACKEND="django.contrib.staticfiles.storage.StaticFilesStorage",
        WHITENOISE_USE_FINDERS="true",
        **extra,
    )


@dataclass
class Response:
    status: int
    headers: Any
    body: str


class Browser:
    """A client of the public site through the proxy, as a browser on port 443
    sends it: ``Host`` and ``Origin`` carry the public name (no port), cookies
    are kept. ``headers`` are added to every request (a forged
    ``X-Forwarded-For``, say)."""

    CSRF_RE = re.compile(r'"X-CSRFToken": "([^"]+)"')

    def __init__(self, proxy: Proxy, source: str | None = None) -> None:
        self.proxy = proxy
        self.source = source  # the address to connect from (127.0.0.2, ...)
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        import http.client
        import http.cookies

        connection = http.client.HTTPSConnection(
            "127.0.0.1",
            self.proxy.https_port,
            context=self.proxy.ssl_context(),
            timeout=30,
            source_address=(self.source, 0) if self.source else None,
        )
        sent = {
            "Host": self.proxy.name,
            "Origin": f"https://{self.proxy.name}",
            "Referer": f"https://{self.proxy.name}{path}",
            **({"X-CSRFToken": self.csrf} if self.csrf else {}),
            **(headers or {}),
        }
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data, doseq=True)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            text = answer.read().decode(errors="replace")
        finally:
            connection.close()
        for value in answer.headers.get_all("Set-Cookie") or []:
            jar: http.cookies.SimpleCookie = http.cookies.SimpleCookie()
            jar.load(value)
            for name, morsel in jar.items():
                if morsel.value:
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        token = self.CSRF_RE.search(text)
        if token:
            self.csrf = token.group(1)
        return Response(answer.status, answer.headers, text)

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: dict[str, Any], **kwargs: Any) -> Response:
        if not self.csrf:
            self.get(path)  # the form's page sets the CSRF cookie and token
        return self.request("POST", path, data=data, **kwargs)

    def socket(self, path: str, **kwargs: Any) -> Any:
        """A page's WebSocket through the proxy (``wss``, the public name)."""
        from websockets.sync.client import connect
        from websockets.typing import Origin

        sock = socket.create_connection(
            ("127.0.0.1", self.proxy.https_port),
            10,
            source_address=(self.source, 0) if self.source else None,
        )
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return connect(
            f"wss://{self.proxy.name}{path}",
            sock=sock,
            ssl=self.proxy.ssl_context(),
            origin=Origin(f"https://{self.proxy.name}"),
            additional_headers=headers,
            open_timeout=10,
            **kwargs,
        )


# Bursts of sockets through the proxy (test_socket_flood.py, bench/ws_burst.py)


@dataclass
class Handshake:
    """How one WebSocket handshake through the proxy ended."""

    status: int | str  # 101, the refusal's status, or how the try failed
    headers: Any = None  # the answer's headers
    hello: dict[str, Any] | None = None  # an opened socket's first message
    socket: Any = None  # an opened socket, still open


async def handshakes(
    proxy: Proxy,
    path: str,
    count: int,
    source: str | Sequence[str],
    timeout: float = 30,
) -> list[Handshake]:
    """``count`` handshakes to ``path`` begun at once from the address
    ``source`` (or from each of several in turn), as a page's (``wss``, the
    public name); each opened socket is kept open, with its first message."""
    import asyncio

    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus
    from websockets.typing import Origin

    context = proxy.ssl_context()

    sources = [source] if isinstance(source, str) else list(source)

    async def one(number: int) -> Handshake:
        try:
            ws = await connect(
                f"wss://{proxy.name}{path}",
                host="127.0.0.1",
                port=proxy.https_port,
                local_addr=(sources[number % len(sources)], 0),
                ssl=context,
                server_hostname=proxy.name,
                origin=Origin(f"https://{proxy.name}"),
                open_timeout=timeout,
                close_timeout=5,
            )
        except InvalidStatus as refused:
            return Handshake(refused.response.status_code, refused.response.headers)
        except Exception as error:  # reset, timed out, refused by the kernel
            return Handshake(type(error).__name__)
        try:
            hello = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        except Exception as error:
            await ws.close()
            return Handshake(f"101, then {type(error).__name__}")
        headers = ws.response.headers if ws.response else None
        return Handshake(101, headers, hello, ws)

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def close_all(opened: Sequence[Handshake]) -> None:
    """Close every socket ``handshakes`` opened, at once."""
    import asyncio

    await asyncio.gather(
        *(h.socket.close() for h in opened if h.socket), return_exceptions=True
    )


class PageLoads(threading.Thread):
    """A player loading a page through the proxy from the address ``source``
    again and again until ``stopped`` is set: each load's status (or how it
    failed), and how long it took."""

    def __init__(self, proxy: Proxy, path: str, source: str) -> None:
        super().__init__(daemon=True)
        self.browser = Browser(proxy, source=source)
        self.path = path
        self.statuses: list[int | str] = []
        self.seconds: list[float] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            start = time.monotonic()
            try:
                self.statuses.append(self.browser.get(self.path).status)
            except Exception as error:
                self.statuses.append(type(error).__name__)
            self.seconds.append(time.monotonic() - start)
            self.stopped.wait(0.05)
