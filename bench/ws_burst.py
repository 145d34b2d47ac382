"""A thousand WebSocket handshakes at once from one address, through deploy/
(issue #33), before and after deploy/ was made to hold it.

nginx with ``deploy/nginx.conf`` in front of two Daphne processes started
with ``deploy/supervisord.conf``'s command line (as
``tests/scale/test_socket_flood.py`` runs them: TLS, Redis layer, DEBUG off,
SQLite), once as they were before issue #33 (``--before``, a commit: nginx's
upstream defaults, no per-address limit, Daphne's listen queue of 50; around
them Debian 12's own /etc/nginx/nginx.conf, 768 connections a worker) and once
as the working tree has them (inside ``deploy/nginx-main.conf``);
``--config before-main`` runs the old files inside the new main
configuration, which tells the workers' part from the rest. Each time:
``--sockets`` handshakes begun at once from 127.0.0.1 (``--addresses``: from
that many, a crowd rather than one flooder) to a game page's socket while a
player at 127.0.0.2 loads that game's page again and again, then ``--then``
handshakes at once from 127.0.0.3 (the flood's sockets still open), then
everything is closed. Prints how the handshakes ended (opened, refused with a
status, failed), the page loads' statuses and times, the kernel's listen
queue overflows meanwhile (``ListenOverflows`` of /proc/net/netstat's
TcpExt, the whole machine's) and the telling lines of nginx's error log.
Usage:

    .venv/bin/python bench/ws_burst.py                    # before, then after
    .venv/bin/python bench/ws_burst.py --config after --sockets 1000
    .venv/bin/python bench/ws_burst.py --addresses 10     # a crowd, not one
    .venv/bin/python bench/ws_burst.py --config before,before-main,after
"""

from __future__ import annotations

import sys

# Run as a script, this file's directory comes first on sys.path and bench/http.py
# would shadow the standard library's ``http``; drop that entry first.
if sys.path and sys.path[0] == __import__("os").path.dirname(__file__):
    sys.path.pop(0)

import argparse  # noqa: E402
import asyncio  # noqa: E402
import os  # noqa: E402
import secrets  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.http import server_env  # noqa: E402
from bench.ws import prepare, raise_open_files_limit  # noqa: E402

BEFORE = "04db36efb88eb9458fb0feaf0101337c705c64bd"
"""The last commit before issue #33's deploy work."""

DEBIAN_MAIN = """\
user www-data;
worker_processes auto;
pid /run/nginx.pid;
error_log /var/log/nginx/error.log;
include /etc/nginx/modules-enabled/*.conf;
events {
    worker_connections 768;
}
http {
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
    ssl_prefer_server_ciphers on;
    access_log /var/log/nginx/access.log;
    gzip on;
    include /etc/nginx/conf.d/*.conf;
    include /etc/nginx/sites-enabled/*;
}
"""
"""Debian 12's /etc/nginx/nginx.conf, its comments left out: what
deploy/nginx.conf was installed into before deploy/nginx-main.conf."""

CONFIGS = {
    "before": "deploy/ at --before, in Debian's nginx.conf",
    "before-main": "deploy/ at --before, in deploy/nginx-main.conf",
    "after": "deploy/ as the working tree has it",
}

FLOODER, PLAYER, LATER = "127.0.0.1", "127.0.0.2", "127.0.0.3"

NGINX_LINES = (
    "no live upstreams",
    "worker_connections are not enough",
    "Connection refused",
    "reset by peer",
    "prematurely closed",
    "timed out",
    "limiting requests",
    "limiting connections",
)


def flooders(count: int) -> list[str]:
    """The flood's addresses: 127.0.0.1, or ``count`` others (a crowd)."""
    if count <= 1:
        return [FLOODER]
    return [f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(count)]


def listen_overflows() -> int | None:
    """The kernel's count of connections dropped at a full listen queue."""
    try:
        lines = Path("/proc/net/netstat").read_text().splitlines()
    except OSError:
        return None
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:"):
            table = dict(zip(names.split()[1:], values.split()[1:], strict=True))
            return int(table["ListenOverflows"])
    return None


def git_show(rev: str, path: str) -> str:
    return subprocess.run(
        ["git", "show", f"{rev}:{path}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def tally(outcomes: list[Any]) -> str:
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[str(outcome)] = counts.get(str(outcome), 0) + 1
    return ", ".join(f"{k} × {v}" for k, v in sorted(counts.items())) or "none"


def run(
    config: str, env: dict[str, str], game_id: int, args: argparse.Namespace
) -> dict[str, Any]:
    """One run of ``config`` (``CONFIGS``)."""
    from tests.scale import servers

    site = main = supervisord = None
    if config.startswith("before"):
        site = git_show(args.before, "deploy/nginx.conf")
        supervisord = git_show(args.before, "deploy/supervisord.conf")
    if config == "before":
        main = DEBIAN_MAIN
    command = servers.daphne_commands(supervisord)[0]
    page, path = f"/games/{game_id}/", f"/ws/games/{game_id}/"
    with ExitStack() as stack:
        daphnes = [
            stack.enter_context(servers.daphne(env, command=command)) for _ in range(2)
        ]
        proxy = stack.enter_context(
            servers.deploy_nginx([d.port for d in daphnes], site=site, main=main)
        )
        overflows = listen_overflows()
        loads = servers.PageLoads(proxy, page, PLAYER)
        loads.start()
        time.sleep(0.5)
        began = time.monotonic()
        flood = asyncio.run(
            servers.handshakes(proxy, path, args.sockets, flooders(args.addresses))
        )
        took = time.monotonic() - began
        loads.stopped.set()
        loads.join(timeout=60)
        then = asyncio.run(servers.handshakes(proxy, path, args.then, LATER))
        asyncio.run(servers.close_all(flood + then))
        after = listen_overflows()
        errors = proxy.errors()
        logs = [d.stderr() for d in daphnes]
    return {
        "flood": [h.status for h in flood],
        "took": took,
        "loads": loads.statuses,
        "load_seconds": loads.seconds,
        "then": [h.status for h in then],
        "overflows": None if overflows is None or after is None else after - overflows,
        "nginx": {line: errors.count(line) for line in NGINX_LINES},
        "tracebacks": sum(log.count("Traceback") for log in logs),
        "errors": sorted(
            {
                line.strip()[:160]
                for log in logs
                for line in log.splitlines()
                if "Error" in line and not line.startswith(" ")
            }
        ),
    }


def report(config: str, result: dict[str, Any], args: argparse.Namespace) -> None:
    flood, loads, then = result["flood"], result["loads"], result["then"]
    print(f"{config} ({CONFIGS[config]}):")
    where = flooders(args.addresses)
    print(
        f"  {args.sockets} handshakes from "
        f"{where[0] if len(where) == 1 else f'{len(where)} addresses'} at once "
        f"(all ended in {result['took']:.1f} s): opened {flood.count(101)}, "
        f"refused {sum(isinstance(s, int) and s != 101 for s in flood)}, "
        f"failed {sum(not isinstance(s, int) for s in flood)} — {tally(flood)}"
    )
    seconds = result["load_seconds"]
    median = statistics.median(seconds) * 1000 if seconds else 0.0
    print(
        f"  page loads from {PLAYER} meanwhile: {len(loads)}, "
        f"200 × {loads.count(200)}; {tally(loads)}; "
        f"median {median:.0f} ms, slowest {max(seconds, default=0) * 1000:.0f} ms"
    )
    print(
        f"  then {args.then} handshakes from {LATER} at once: "
        f"opened {then.count(101)}; {tally(then)}"
    )
    overflows = result["overflows"]
    print(
        "  kernel listen overflows (TcpExtListenOverflows): "
        f"{'n/a' if overflows is None else overflows}"
    )
    print(
        "  nginx error log: "
        + ", ".join(f"{line!r} × {n}" for line, n in result["nginx"].items())
    )
    print(f"  Daphne tracebacks: {result['tracebacks']}")
    for line in result["errors"][:5]:
        print(f"    {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--config",
        default="before,after",
        help=f"comma-separated, of: {', '.join(CONFIGS)}",
    )
    parser.add_argument("--before", default=BEFORE, help="the commit of 'before'")
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--then", type=int, default=100)
    parser.add_argument(
        "--addresses", type=int, default=1, help="the flood's addresses (a crowd)"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    raise_open_files_limit()
    from tests.scale import servers

    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "bench.sqlite3")
        env.update(
            DEADLINE_LOOP_SECONDS="0",
            ALLOWED_HOSTS=servers.PUBLIC_NAME,
            REDIS_URL=args.redis_url,
            CHANNEL_LAYER_PREFIX=f"bench-{secrets.token_hex(4)}",
            AZUL_ENV=os.devnull,  # deploy/run reads no settings file here
            SITE_URL="",
            LOG_LEVEL="WARNING",
        )
        env.pop("CHANNEL_LAYER_MAX_CONNECTIONS", None)
        if args.database_url:
            env["DATABASE_URL"] = args.database_url
        game_ids, _ = prepare(env, 1)
        from django.db import connections

        connections.close_all()
        configs = args.config.split(",")
        if unknown := set(configs) - set(CONFIGS):
            raise SystemExit(f"no such --config: {', '.join(sorted(unknown))}")
        print(
            f"{args.sockets} + {args.then} sockets through nginx to two Daphne "
            f"processes, {'PostgreSQL' if args.database_url else 'SQLite'}, "
            f"{os.cpu_count()} cores"
        )
        for config in configs:
            report(config, run(config, env, game_ids[0], args), args)
            time.sleep(2)  # the closed sockets' leaves
    return 0


if __name__ == "__main__":
    sys.exit(main())
