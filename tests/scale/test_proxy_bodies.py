"""deploy/nginx.conf's body limits in front of a live Daphne.

Daphne (Twisted) takes in, and for multipart parses, a whole request body before
the site's application runs (bench/bodies.py: +1.2 GB for 100 MB), so production
relies on the proxy to refuse oversized bodies. This runs nginx with the body
directives of ``deploy/nginx.conf`` in front of Daphne as ``deploy/`` starts it,
and checks that nginx refuses what the site would refuse, before Daphne reads
it, and passes what the site accepts. Skipped where nginx is not installed,
unless ``AZUL_REQUIRE_NGINX`` is set (``.ci/run``).
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)

NGINX = (Path(servers.ROOT) / "deploy" / "nginx.conf").read_text()
LIMITS = ("client_max_body_size", "client_body_timeout", "client_header_timeout")


def _size(value: str) -> int:
    number, unit = int(value[:-1]), value[-1].lower()
    return number * {"k": 1024, "m": 1024 * 1024}[unit]


def test_the_proxy_limit_is_the_sites_limit():
    match = re.search(r"client_max_body_size\s+(\d+[km]);", NGINX)
    assert match
    assert _size(match.group(1)) == settings.REQUEST_BODY_MAX_BYTES


@contextmanager
def nginx_before(upstream: int) -> Iterator[int]:
    """nginx, plain HTTP, with deploy/nginx.conf's body limits, to ``upstream``."""
    directives = "\n".join(
        line.strip() for line in NGINX.splitlines() if line.strip().startswith(LIMITS)
    )
    assert directives.count(";") == len(LIMITS)
    port = servers.free_port()
    with tempfile.TemporaryDirectory() as work:
        os.chmod(work, 0o755)  # nginx's workers keep their temporary files there
        conf = Path(work) / "nginx.conf"
        conf.write_text(
            f"pid {work}/nginx.pid;\nerror_log {work}/error.log;\nevents {{}}\n"
            f"http {{\n access_log off;\n client_body_temp_path {work}/body;\n"
            f" proxy_temp_path {work}/proxy;\n {directives}\n"
            f" server {{\n  listen 127.0.0.1:{port};\n"
            f"  location / {{ proxy_pass http://127.0.0.1:{upstream}; }}\n }}\n}}\n"
        )
        process = subprocess.Popen(
            ["nginx", "-p", work, "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), 0.5).close()
                    break
                except OSError:
                    assert process.poll() is None, "nginx exited"
                    assert time.monotonic() < deadline, "nginx did not start"
                    time.sleep(0.05)
            yield port
        finally:
            process.terminate()
            process.wait(timeout=10)


def _post(port: int, head: bytes, body: bytes) -> str:
    """Send a raw POST; the answer's status line."""
    with socket.create_connection(("127.0.0.1", port), 10) as conn:
        conn.sendall(head)
        with contextlib.suppress(OSError):  # refused mid-body: answer sent
            conn.sendall(body)
        return conn.recv(200).split(b"\r\n", 1)[0].decode()


def _head(length: int | None) -> bytes:
    framing = (
        b"Transfer-Encoding: chunked\r\n"
        if length is None
        else f"Content-Length: {length}\r\n".encode()
    )
    return (
        b"POST /games/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: multipart/form-data; boundary=x\r\n" + framing + b"\r\n"
    )


def _chunked(size: int) -> bytes:
    chunk = b"x" * 65536
    frames = b"".join(
        f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        for _ in range(size // len(chunk))
    )
    return frames + b"0\r\n\r\n"


def test_nginx_refuses_an_oversized_body_before_daphne_reads_it():
    servers.require_nginx()
    env = servers.server_env(redis=False)
    too_big = 3 * settings.REQUEST_BODY_MAX_BYTES
    with servers.daphne(env) as daphne, nginx_before(daphne.port) as port:
        announced = _post(port, _head(too_big), b"x" * too_big)
        chunked = _post(port, _head(None), _chunked(too_big))
        # Within the limit, the request reaches the site, which refuses the
        # anonymous import itself (CSRF: no cookie).
        form = b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'
        small = _post(port, _head(len(form)), form)
    assert announced.endswith("413 Request Entity Too Large")
    assert chunked.endswith("413 Request Entity Too Large")
    assert small.endswith("403 Forbidden")
    assert "Traceback" not in daphne.stderr()
