"""deploy/: the process manager, the proxy and the settings agree with each other.

The live tests (``test_live_doorbells.py``, ``test_two_servers.py``) start Daphne
and the deadline worker with the command lines of ``deploy/supervisord.conf``;
this checks what they cannot: that nginx sends traffic to exactly those ports,
and that the timeouts fit together.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from . import servers

DEPLOY = Path(servers.ROOT) / "deploy"
NGINX = (DEPLOY / "nginx.conf").read_text()


def _block(text: str, header: str) -> str:
    """The body of the first ``header { ... }`` block (no nested blocks)."""
    match = re.search(re.escape(header) + r"\s*\{([^{}]*)\}", text)
    assert match, f"no {header} block"
    return match.group(1)


def _location(path: str) -> str:
    return _block(NGINX, f"location {path}")


def _seconds(directive: str, block: str) -> int:
    match = re.search(rf"^\s*{directive}\s+(\d+)s;", block, re.MULTILINE)
    assert match, f"no {directive}"
    return int(match.group(1))


def test_nginx_sends_traffic_to_every_daphne_process_and_nowhere_else():
    upstream = _block(NGINX, "upstream azul_daphne")
    ports = [int(p) for p in re.findall(r"server\s+127\.0\.0\.1:(\d+);", upstream)]
    assert ports == servers.daphne_ports()
    assert len(set(ports)) == len(ports) >= 2
    for path in ("/", "/ws/"):
        assert "proxy_pass http://azul_daphne;" in _location(path)


def test_nginx_sets_each_proxy_header_once_for_every_location():
    """A location with a proxy_set_header of its own drops all the server's
    (issue #23: the site got ``Host: azul_daphne`` and no X-Forwarded-*)."""
    for path in ("/", "/ws/"):
        assert "proxy_set_header" not in _location(path)
    headers = re.findall(r"^\s*proxy_set_header\s+(\S+)\s+(.+);", NGINX, re.M)
    names = [name for name, _ in headers]
    assert len(names) == len(set(names))
    assert dict(headers) == {
        "Host": "$host",
        # The address nginx saw, whatever the client wrote (never appended to).
        "X-Forwarded-For": "$remote_addr",
        "X-Forwarded-Proto": "$scheme",
        "Upgrade": "$http_upgrade",
        "Connection": "$connection_upgrade",
    }
    assert re.search(r"client_max_body_size\s+\d+[km];", NGINX)


def test_daphne_reads_proxy_headers_and_sockets_outlive_no_timeout():
    for argv in servers.daphne_commands():
        assert "--proxy-headers" in argv
        # Only nginx may reach it: Daphne believes any X-Forwarded-For it gets.
        assert argv[argv.index("-b") + 1] == "127.0.0.1"
        assert argv[-1] == "azulsite.asgi:application"
        websocket_timeout = int(argv[argv.index("--websocket_timeout") + 1])
        # A group membership outlives the socket it was made for (settings).
        assert 0 < websocket_timeout < settings.CHANNEL_GROUP_EXPIRY
    # So does Daphne's default (a command line without the option).
    from daphne.cli import CommandLineInterface

    default = CommandLineInterface().parser.get_default("websocket_timeout")
    assert default < settings.CHANNEL_GROUP_EXPIRY
    # nginx never closes an open socket: Daphne pings each one every 20 s.
    assert _seconds("proxy_read_timeout", _location("/ws/")) > 20


def test_the_deadline_job_runs_as_a_worker_with_the_redis_layer():
    argv = servers.deploy_command("azul-deadlines")
    assert argv[-4:] == ["manage.py", "process_deadlines", "--loop", "60"]
    example = dict(
        line.split("=", 1)
        for line in (DEPLOY / "azul.env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert example["REDIS_URL"].startswith("redis://")
    assert example["DEADLINE_LOOP_SECONDS"] == "0"
    assert example["DEBUG"] == "false"
