"""Request bodies: what a 100 MB upload and an endless chunked one cost the server.

Two measurements, printed side by side:

1. **The site's ASGI application in this process** (``azulsite.asgi``:
   ``BodyLimit`` in front of Django), and bare Django for comparison, each fed
   a 100 MB ``POST /games/import/`` (announced by ``Content-Length``, then
   chunked without one) and an endless chunked body, in 64 kB messages made on
   the fly. Prints the answer, the bytes the application read, the growth of
   this process's resident memory (peak, ``VmHWM``) and the seconds taken.
   This is what any streaming ASGI server sees.
2. **Daphne over TCP** (``daphne azulsite.asgi:application``, DEBUG off, a
   temporary SQLite database): the same 100 MB post with ``Content-Length``, and
   an endless chunked upload for ``--seconds``, sent to Daphne alone and then
   through nginx with ``deploy/nginx.conf``'s body limits and timeouts (when
   ``nginx`` is installed), printing Daphne's peak memory growth each time.
   Daphne (Twisted) takes in a whole body before it calls the application, and
   Twisted parses a multipart body itself (answering 400 to one that does not
   parse), so alone the figure is Daphne's own; in production nginx
   (``client_max_body_size 1m``, ``client_body_timeout``) refuses such bodies
   before Daphne sees a byte.

Usage:

    .venv/bin/python bench/bodies.py [--megabytes 100] [--seconds 10]
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, bench/ comes first on sys.path, and bench/http.py would stand
# for the standard library's http package.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse  # noqa: E402
import asyncio  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Awaitable, Callable, MutableMapping  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHUNK = b"x" * 65536
MiB = 1024 * 1024

Message = MutableMapping[str, Any]


def _status(pid: int | str = "self") -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in bytes."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            values[name] = int(rest.split()[0]) * 1024
    return values


def _reset_peak(pid: int | str = "self") -> None:
    """Let VmHWM start again from the current RSS (Linux: ``clear_refs`` 5)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


async def _feed(
    app: Callable[..., Awaitable[None]],
    *,
    total: int | None,
    announce: bool,
) -> tuple[int, int]:
    """POST ``total`` bytes (None: endless) to ``app``; (status, bytes read)."""
    read = 0
    headers = [(b"content-type", b"multipart/form-data; boundary=x")]
    headers.append((b"host", b"localhost"))
    if announce and total is not None:
        headers.append((b"content-length", str(total).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/games/import/",
        "raw_path": b"/games/import/",
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent: list[Message] = []
    done = asyncio.Event()

    async def receive() -> Message:
        nonlocal read
        if sent or (total is not None and read >= total):
            await done.wait()
            return {"type": "http.disconnect"}
        read += len(CHUNK)
        more = total is None or read < total
        return {"type": "http.request", "body": CHUNK, "more_body": more}

    async def send(message: Message) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            done.set()

    task = asyncio.ensure_future(app(scope, receive, send))
    try:
        await asyncio.wait_for(done.wait(), timeout=120)
    except TimeoutError:
        task.cancel()
        return 0, read
    await asyncio.wait_for(task, timeout=30)
    return int(sent[0]["status"]), read


def in_process(megabytes: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    os.environ.setdefault("LOG_LEVEL", "CRITICAL")
    os.environ.setdefault(
        "STATICFILES_BACKEND", "django.contrib.staticfiles.storage.StaticFilesStorage"
    )
    from azulsite.asgi import application, django_asgi_app

    total = megabytes * MiB
    print(f"1. ASGI application in this process, {megabytes} MB POST /games/import/")
    print(
        f"   {'application':<14}{'body':<22}{'answer':>7}{'read':>12}"
        f"{'peak +RSS':>12}{'s':>7}"
    )
    cases = [
        ("with Content-Length", total, True),
        ("chunked", total, False),
        ("chunked, endless", None, False),
    ]
    for label, app in (("site", application), ("bare Django", django_asgi_app)):
        for body, size, announce in cases:
            if app is django_asgi_app and size is None:
                continue  # bare Django would read for ever
            _reset_peak()
            before = _status()["VmRSS"]
            started = time.monotonic()
            status, read = asyncio.run(_feed(app, total=size, announce=announce))
            seconds = time.monotonic() - started
            growth = _status()["VmHWM"] - before
            answer = str(status) if status else "none"
            print(
                f"   {label:<14}{body:<22}{answer:>7}{read / MiB:>10.1f}MB"
                f"{growth / MiB:>10.1f}MB{seconds:>7.2f}"
            )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("Daphne did not start")


def _answer(conn: socket.socket, timeout: float) -> str:
    conn.settimeout(timeout)
    try:
        head = conn.recv(200)
    except (TimeoutError, OSError):
        return "none"
    return head.split(b"\r\n", 1)[0].decode(errors="replace") or "closed"


def _post_announced(port: int, total: int) -> tuple[str, int, float]:
    """POST ``total`` bytes announced by Content-Length: (answer, sent, seconds)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(
            b"POST /games/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: multipart/form-data; boundary=x\r\n"
            + f"Content-Length: {total}\r\n\r\n".encode()
        )
        sent = 0
        try:
            while sent < total:
                conn.sendall(CHUNK)
                sent += len(CHUNK)
        except OSError:
            pass
        answer = _answer(conn, 30)
    return answer, sent, time.monotonic() - started


def _post_endless(port: int, seconds: float) -> tuple[str, int]:
    """A chunked POST that never ends, for at most ``seconds``: (answer, sent)."""
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(
            b"POST /games/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: multipart/form-data; boundary=x\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        frame = f"{len(CHUNK):x}\r\n".encode() + CHUNK + b"\r\n"
        sent, started = 0, time.monotonic()
        conn.setblocking(False)
        while time.monotonic() - started < seconds:
            try:
                conn.sendall(frame)
                sent += len(CHUNK)
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:
                break
            try:
                head = conn.recv(200)
            except BlockingIOError:
                continue
            return head.split(b"\r\n", 1)[0].decode(errors="replace") or "closed", sent
    return "none", sent


def _nginx_limits() -> str:
    """The body limits and timeouts of ``deploy/nginx.conf``, as its lines."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    names = ("client_max_body_size", "client_body_timeout", "client_header_timeout")
    lines = [line.strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line.startswith(names))


def _start_nginx(work: str, upstream: int) -> tuple[subprocess.Popen, int]:
    """nginx with deploy/nginx.conf's limits in front of Daphne, plain HTTP."""
    port = _free_port()
    os.chmod(work, 0o755)  # nginx's workers write its temporary files there
    conf = Path(work) / "nginx.conf"
    conf.write_text(
        f"""pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    {_nginx_limits()}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_http_version 1.1;
            proxy_set_header Host $host;
        }}
    }}
}}
"""
    )
    nginx = subprocess.Popen(
        ["nginx", "-p", work, "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait_for(port)
    return nginx, port


def over_daphne(megabytes: int, seconds: float) -> None:
    work = tempfile.mkdtemp(prefix="bench-bodies-")
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
        "DATABASE_URL": f"sqlite:///{work}/db.sqlite3",
        "LOG_LEVEL": "CRITICAL",
        "TMPDIR": work,
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True
    )
    port = _free_port()
    daphne = Path(sys.executable).parent / "daphne"
    server = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "azulsite.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    nginx = None
    try:
        _wait_for(port)
        fronts = [("Daphne alone", port)]
        if shutil.which("nginx"):
            nginx, nginx_port = _start_nginx(work, port)
            fronts.append(("nginx (deploy/nginx.conf's limits) in front", nginx_port))
        else:
            print("   (no nginx on this machine: the measurement behind it is skipped)")
        total = megabytes * MiB
        print(f"2. Daphne over TCP (pid {server.pid}), POST /games/import/")
        for name, front in fronts:
            print(f"   {name}:")
            _reset_peak(server.pid)
            before = _status(server.pid)["VmRSS"]
            answer, sent, took = _post_announced(front, total)
            growth = _status(server.pid)["VmHWM"] - before
            print(
                f"     {megabytes} MB with Content-Length: {answer!r} after "
                f"{sent / MiB:.0f} MB sent, {took:.1f} s; "
                f"Daphne's peak RSS +{growth / MiB:.1f} MB"
            )
            _reset_peak(server.pid)
            before = _status(server.pid)["VmRSS"]
            answer, sent = _post_endless(front, seconds)
            growth = _status(server.pid)["VmHWM"] - before
            print(
                f"     endless chunked for {seconds:.0f} s: answer {answer!r} after "
                f"{sent / MiB:.0f} MB sent; Daphne's peak RSS +{growth / MiB:.1f} MB"
            )
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
        server.terminate()
        server.wait(timeout=10)
        subprocess.run(["rm", "-rf", work], check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--skip-daphne", action="store_true")
    args = parser.parse_args()
    in_process(args.megabytes)
    if not args.skip_daphne:
        over_daphne(args.megabytes, args.seconds)


if __name__ == "__main__":
    main()
