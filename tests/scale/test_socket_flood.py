"""1,000 WebSocket handshakes at once from one address, through deploy/ (issue #33).

From outside, such a burst through nginx in front of two Daphne processes took
the site down: half the handshakes failed, another player's page loads got 502
on 29 of 43 tries, and a later burst of 100 got 98 × 502 (each Daphne's listen
queue of 50 overflowed, nginx then marked both processes dead, and its workers
ran out of connections). Here ``deploy/nginx.conf`` inside
``deploy/nginx-main.conf`` runs as written in front of two Daphne processes
started with ``deploy/supervisord.conf``'s command line: the handshakes from
127.0.0.1 past the per-address limit are refused with 429 and nothing else
fails, while a player at 127.0.0.2 loads a game page again and again, every
load answered 200; afterwards a player at 127.0.0.3 still opens sockets.
nginx's own answers (the 429s, a 413) carry the site's security headers, one
copy each, as the site's own pages do. Skipped without nginx unless
``AZUL_REQUIRE_NGINX`` is set (``.ci/run`` sets it).
"""

from __future__ import annotations

import asyncio
import http.client
import io
import os
import re
import resource
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)

NGINX = (Path(servers.ROOT) / "deploy" / "nginx.conf").read_text()

SOCKETS = 1000
FLOODER = "127.0.0.1"
PLAYER = "127.0.0.2"  # another address on the loopback network (Linux: 127/8)
LATER = "127.0.0.3"

SECURITY_HEADERS = (
    "Strict-Transport-Security",
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "X-Frame-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "Permissions-Policy",
)


def _socket_limits() -> tuple[int, int, int]:
    """``location /ws/``'s limits: new sockets a second, their burst, and the
    sockets one address may hold open."""
    rate = re.search(r"limit_req_zone\s.*\brate=(\d+)r/s;", NGINX)
    burst = re.search(r"^\s*limit_req\s.*\bburst=(\d+)\b.*\bnodelay;", NGINX, re.M)
    held = re.search(r"^\s*limit_conn\s+\S+\s+(\d+);", NGINX, re.M)
    assert rate and burst and held, "deploy/nginx.conf: no per-address socket limits"
    return int(rate.group(1)), int(burst.group(1)), int(held.group(1))


def _require_loopback_addresses() -> None:
    """The test's other addresses, which Linux's loopback answers to."""
    for address in (PLAYER, LATER):
        try:
            with socket.socket() as s:
                s.bind((address, 0))
        except OSError as error:
            reason = f"cannot connect from {address}: {error}"
            if os.environ.get("AZUL_REQUIRE_NGINX"):
                pytest.fail(reason)
            pytest.skip(reason)


@pytest.fixture
def open_files() -> Iterator[None]:
    """Room for the test's 1,000 sockets (nginx's workers raise their own limit,
    deploy/nginx-main.conf's worker_rlimit_nofile)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = SOCKETS + 1024
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.fail(f"open files limited to {hard}: the test needs {wanted}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.fixture
def proxied(open_files):
    """nginx (deploy/) in front of two Daphne processes (deploy/) on Redis."""
    servers.require_nginx()
    servers.require_redis()
    _require_loopback_addresses()
    env = servers.production_env()
    with ExitStack() as stack:
        daphnes = [stack.enter_context(servers.daphne(env)) for _ in range(2)]
        proxy = stack.enter_context(servers.deploy_nginx([d.port for d in daphnes]))
        yield proxy, daphnes
        for daphne in daphnes:
            assert servers.errors_in(daphne.stderr()) == []


def _one_copy_each(headers: Any) -> dict[str, str]:
    """The security headers, each present exactly once: name → value."""
    copies = {name: headers.get_all(name) or [] for name in SECURITY_HEADERS}
    assert {name: len(c) for name, c in copies.items()} == dict.fromkeys(
        SECURITY_HEADERS, 1
    ), copies
    return {name: c[0] for name, c in copies.items()}


def _nginx_security_headers(values: dict[str, str]) -> None:
    """nginx's values (its pages load nothing) of the security headers."""
    assert "max-age=" in values["Strict-Transport-Security"]
    assert values["Content-Security-Policy"].startswith("default-src 'none'")
    assert values["X-Content-Type-Options"] == "nosniff"
    assert values["X-Frame-Options"] == "DENY"
    assert values["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in values["Permissions-Policy"]


def test_a_thousand_sockets_from_one_address_leave_the_site_up(proxied, start_game):
    proxy, daphnes = proxied
    rate, burst, held = _socket_limits()
    from accounts.models import User

    users = [User.objects.create_user(name, password=None) for name in ("ana", "bo")]
    game = start_game(users)
    page, path = f"/games/{game.pk}/", f"/ws/games/{game.pk}/"
    assert servers.Browser(proxy, source=PLAYER).get(page).status == 200

    loads = servers.PageLoads(proxy, page, PLAYER)
    loads.start()
    time.sleep(0.5)
    began = time.monotonic()
    flood = asyncio.run(servers.handshakes(proxy, path, SOCKETS, FLOODER))
    took = time.monotonic() - began
    time.sleep(0.5)
    loads.stopped.set()
    loads.join(timeout=40)
    try:
        statuses = [h.status for h in flood]
        tally = {s: statuses.count(s) for s in set(statuses)}
        # Opened or refused with 429, nothing else: no 502, no reset, no timeout.
        assert set(tally) <= {101, 429}, tally
        opened = [h for h in flood if h.status == 101]
        # At least the burst opened at once; no more than the limits let in
        # while the handshakes went on, nor than one address may hold.
        assert burst <= len(opened) <= min(held, burst + 1 + rate * (took + 1))
        # Each opened socket reached a Daphne process and heard its hello.
        assert all(
            h.hello == {"type": "game", "ply": game.ply, "status": "active"}
            for h in opened
        )
        # Every refusal says when to try again, with the site's headers.
        refused = [h for h in flood if h.status == 429]
        assert refused
        for h in refused:
            assert int(h.headers["Retry-After"]) >= 1
            _nginx_security_headers(_one_copy_each(h.headers))
        # The other player's page answered every time, all through the burst.
        assert len(loads.statuses) >= 3
        assert set(loads.statuses) == {200}, loads.statuses
    finally:
        asyncio.run(servers.close_all(flood))

    # Both processes still serve, each directly ...
    for daphne in daphnes:
        direct = http.client.HTTPConnection("127.0.0.1", daphne.port, timeout=10)
        direct.request(
            "GET",
            "/accounts/login/",
            headers={"Host": proxy.name, "X-Forwarded-Proto": "https"},
        )
        assert direct.getresponse().status == 200
        direct.close()
    # ... and through nginx, which marked neither dead: a player at another
    # address opens a small burst of sockets, every one of them.
    later = asyncio.run(servers.handshakes(proxy, path, 20, LATER))
    asyncio.run(servers.close_all(later))
    assert [h.status for h in later] == [101] * 20
    errors = proxy.errors()
    assert "no live upstreams" not in errors
    assert "worker_connections are not enough" not in errors


def test_every_answer_has_one_copy_of_each_security_header(proxied):
    proxy, daphnes = proxied
    browser = servers.Browser(proxy)
    # The site's page: the site's headers (its own policy), none doubled.
    site = _one_copy_each(browser.get("/accounts/login/").headers)
    assert "wss://" in site["Content-Security-Policy"]
    # A static file, which the site sends without X-Frame-Options: nginx's.
    static = browser.get("/static/js/live.js")
    assert static.status == 200
    assert _one_copy_each(static.headers)["X-Frame-Options"] == "DENY"
    # nginx's own error page: a body over client_max_body_size, refused (413)
    # before Daphne sees it.
    connection = http.client.HTTPSConnection(
        "127.0.0.1", proxy.https_port, context=proxy.ssl_context(), timeout=10
    )
    connection.putrequest("POST", "/games/import/", skip_host=True)
    connection.putheader("Host", proxy.name)
    connection.putheader("Content-Length", str(10 * 1024 * 1024))
    connection.endheaders()
    answer = connection.getresponse()
    connection.close()
    assert answer.status == 413
    _nginx_security_headers(_one_copy_each(answer.headers))
    assert answer.headers.get("Retry-After") is None
    # A request nginx cannot read (400).
    raw = socket.create_connection(("127.0.0.1", proxy.https_port), 10)
    with proxy.ssl_context().wrap_socket(raw, server_hostname=proxy.name) as tls:
        tls.sendall(b"GET / HTTP/1.1\r\nHost: " + proxy.name.encode() + b"\r\n")
        tls.sendall(b"Bad Header\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head and (chunk := tls.recv(4096)):
            head += chunk
    status, _, fields = head.partition(b"\r\n\r\n")[0].decode().partition("\r\n")
    assert status.split()[1] == "400"
    bad = http.client.parse_headers(io.BytesIO(fields.encode() + b"\r\n\r\n"))
    _nginx_security_headers(_one_copy_each(bad))
    # Both processes down (502).
    for daphne in daphnes:
        daphne.process.terminate()
        daphne.process.wait(timeout=10)
    down = browser.get("/accounts/login/")
    assert down.status == 502
    _nginx_security_headers(_one_copy_each(down.headers))
