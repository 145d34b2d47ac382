"""deploy/: the process manager, the proxy and the settings agree with each other.

The live tests (``test_live_doorbells.py``, ``test_two_servers.py``) start Daphne
and the deadline worker with the command lines of ``deploy/supervisord.conf``;
this checks what they cannot: that nginx sends traffic to exactly those ports,
and that the timeouts fit together.
"""

from __future__ import annotations

import configparser
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
    lines = re.findall(r"server\s+127\.0\.0\.1:(\d+)([^;]*);", upstream)
    ports = [int(port) for port, _ in lines]
    assert ports == servers.daphne_ports()
    # A burst that fails some connections never marks a process dead
    # (issue #33: nginx's max_fails=1 answered every request 502 for 10 s).
    assert all(options.split() == ["max_fails=0"] for _, options in lines)
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
        assert servers.daphne_endpoint(argv)["interface"] == "127.0.0.1"
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


def test_nginx_adds_each_header_once_for_every_location():
    """As with proxy_set_header, a location's add_header drops the server's."""
    for path in ("/", "/ws/"):
        assert "add_header" not in _location(path)
    added = re.findall(r"^\s*add_header\s+(\S+)\s+(\S+)(.*);", NGINX, re.M)
    names = [name for name, _, _ in added]
    assert len(names) == len(set(names)) >= 7
    # On nginx's own errors too; each value from a map, which is empty (and
    # so adds nothing) where the answer is Daphne's and has its own.
    for name, value, rest in added:
        assert rest.split() == ["always"], name
        assert re.search(rf"^map \S+ {re.escape(value)} {{", NGINX, re.M), name
    # nginx's Permissions-Policy is the site's (django-permissions-policy's).
    policy = re.search(
        r'^map \S+ \$azul_permissions_policy {\s*""\s+"(.*)";', NGINX, re.M
    )
    assert policy
    assert policy.group(1) == ", ".join(
        f"{feature}=()" for feature in settings.PERMISSIONS_POLICY
    )


def test_sockets_have_room_at_every_step():
    """Issue #33: 1,000 handshakes at once overflowed Daphne's listen queue of
    50 and Debian's 768 connections an nginx worker."""
    sockets = len(servers.daphne_ports()) * settings.CHANNEL_LAYER_MAX_CONNECTIONS
    main = (DEPLOY / "nginx-main.conf").read_text()
    connections = re.search(r"^\s*worker_connections\s+(\d+);", main, re.M)
    files = re.search(r"^worker_rlimit_nofile\s+(\d+);", main, re.M)
    assert connections and files
    # A proxied socket is two connections, even if one worker takes them all.
    assert int(connections.group(1)) >= 2 * sockets
    assert int(files.group(1)) >= int(connections.group(1))
    # Daphne's open files: a socket and its Redis connection each.
    supervisord = configparser.ConfigParser(interpolation=None)
    supervisord.read(DEPLOY / "supervisord.conf")
    assert int(supervisord["supervisord"]["minfds"]) >= 4 * (
        settings.CHANNEL_LAYER_MAX_CONNECTIONS
    )
    for argv in servers.daphne_commands():
        # A listen queue for a process's sockets reconnecting at once, within
        # what Linux allows by default since 5.4 (net.core.somaxconn 4096).
        assert 1024 <= int(servers.daphne_endpoint(argv)["backlog"]) <= 4096
    # One address may not hold a process's whole Redis pool.
    held = re.search(r"^\s*limit_conn\s+\S+\s+(\d+);", _location("/ws/"), re.M)
    assert held and int(held.group(1)) < settings.CHANNEL_LAYER_MAX_CONNECTIONS
    # Only the extra handshakes are refused: at once (nodelay), with 429.
    assert re.search(r"limit_req\s.*\bburst=\d+ nodelay;", _location("/ws/"))
    assert "limit_req" not in _location("/")
    assert re.search(r"^\s*limit_req_status 429;", NGINX, re.M)
    assert re.search(r"^\s*limit_conn_status 429;", NGINX, re.M)


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
