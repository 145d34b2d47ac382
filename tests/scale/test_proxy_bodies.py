"""deploy/nginx.conf's body limits in front of a live Daphne.

Daphne (Twisted) takes in, and for multipart parses, a whole request body before
the site's application runs (bench/bodies.py: +1.2 GB for 100 MB), so production
relies on the proxy to refuse oversized bodies. This runs ``deploy/nginx.conf``
as written (``servers.deploy_nginx``) in front of Daphne as ``deploy/`` starts it,
and checks that nginx refuses what the site would refuse, before Daphne reads
it, and passes what the site accepts. Skipped where nginx is not installed,
unless ``AZUL_REQUIRE_NGINX`` is set (``.ci/run``).
"""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)

NGINX = (Path(servers.ROOT) / "deploy" / "nginx.conf").read_text()


def _size(value: str) -> int:
    number, unit = int(value[:-1]), value[-1].lower()
    return number * {"k": 1024, "m": 1024 * 1024}[unit]


def test_the_proxy_limit_is_the_sites_limit():
    match = re.search(r"client_max_body_size\s+(\d+[km]);", NGINX)
    assert match
    assert _size(match.group(1)) == settings.REQUEST_BODY_MAX_BYTES


@contextmanager
def site_behind_the_proxy() -> Iterator[tuple[servers.Child, servers.Proxy]]:
    """Daphne as deploy/ starts it, behind deploy/nginx.conf as written."""
    servers.require_nginx()
    servers.require_redis()
    with (
        servers.daphne(servers.production_env()) as daphne,
        # Both of the upstream's servers are this one process.
        servers.deploy_nginx([daphne.port] * len(servers.daphne_ports())) as proxy,
    ):
        yield daphne, proxy


def _post(proxy: servers.Proxy, head: bytes, body: bytes) -> str:
    """Send a raw POST over TLS; the answer's status line."""
    raw = socket.create_connection(("127.0.0.1", proxy.https_port), 10)
    with proxy.ssl_context().wrap_socket(raw, server_hostname=proxy.name) as conn:
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
        b"POST /games/import/ HTTP/1.1\r\nHost: "
        + servers.PUBLIC_NAME.encode()
        + b"\r\n"
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
    too_big = 3 * settings.REQUEST_BODY_MAX_BYTES
    with site_behind_the_proxy() as (daphne, proxy):
        announced = _post(proxy, _head(too_big), b"x" * too_big)
        chunked = _post(proxy, _head(None), _chunked(too_big))
        # Within the limit, the request reaches the site, which refuses the
        # anonymous import itself (CSRF: no cookie).
        form = b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'
        small = _post(proxy, _head(len(form)), form)
    assert announced.endswith("413 Request Entity Too Large")
    assert chunked.endswith("413 Request Entity Too Large")
    assert small.endswith("403 Forbidden")
    assert "Traceback" not in daphne.stderr()
