"""Run several Daphne processes on one port (scale-out on one host).

One Python process serves Django's sync code on one core (``handlers.py``). To use
more cores, this launcher binds one listening socket per process, all on the same
address with ``SO_REUSEPORT``, then starts ``--processes`` Daphne processes that
each adopt one of them (Twisted's ``fd:`` endpoint). The kernel spreads new
connections evenly over the sockets by a hash of their addresses (Linux; other
systems accept the option without the balancing). With a single shared socket,
whichever process accepted first took the connection: in one run of
``bench/http.py`` one process held 43 established sockets, Redis ones included,
and the other 12. The processes share nothing in memory, so ringing doorbells
across them needs the Redis channel layer: with more than one process
``REDIS_URL`` must be set. Usage::

    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m azulsite.serve \\
        --processes 2 -b 127.0.0.1 -p 8000

Ctrl-C (SIGINT) or SIGTERM stops every process; if one dies, the others are
stopped too, so a supervisor (systemd, a container runtime) sees the failure.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence

APPLICATION = "azulsite.asgi:application"


def listening_socket(
    host: str, port: int, backlog: int = 1024, *, reuse_port: bool = False
) -> socket.socket:
    """A bound, listening TCP socket that child processes can inherit."""
    # Daphne's ``fd:`` endpoint adopts IPv4 sockets only (its plugin passes
    # AF_INET); put a proxy in front for IPv6.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    sock.set_inheritable(True)
    return sock


def listening_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` listening sockets on one address, one for each process
    (``SO_REUSEPORT``: the kernel balances new connections over them)."""
    first = listening_socket(host, port, reuse_port=count > 1)
    port = int(first.getsockname()[1])  # port 0 asked for a free one
    return [first] + [
        listening_socket(host, port, reuse_port=True) for _ in range(count - 1)
    ]


def daphne_command(sock: socket.socket, extra: Sequence[str] = ()) -> list[str]:
    """The Daphne command line that adopts ``sock`` (inherited by file number)."""
    return [
        sys.executable,
        "-m",
        "daphne",
        "--fd",
        str(sock.fileno()),
        *extra,
        APPLICATION,
    ]


def start(
    sockets: Sequence[socket.socket],
    *,
    env: dict[str, str] | None = None,
    extra: Sequence[str] = (),
    **popen: object,
) -> list[subprocess.Popen[bytes]]:
    """Start one Daphne process for each of ``sockets`` (``listening_sockets``)."""
    environment = dict(os.environ if env is None else env)
    if len(sockets) > 1 and not environment.get("REDIS_URL"):
        raise SystemExit(
            "Several processes need REDIS_URL: the in-memory channel layer would "
            "ring doorbells only in the process that served the move."
        )
    return [
        subprocess.Popen(  # type: ignore[call-overload]
            daphne_command(sock, extra),
            env=environment,
            pass_fds=(sock.fileno(),),
            **popen,
        )
        for sock in sockets
    ]


def stop(children: Sequence[subprocess.Popen[bytes]], timeout: float = 10) -> None:
    """SIGINT every child (Daphne shuts down cleanly), then kill stragglers."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
    deadline = time.monotonic() + timeout
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("-b", "--bind", default="127.0.0.1", help="IPv4 address")
    parser.add_argument("-p", "--port", type=int, default=8000)
    parser.add_argument(
        "daphne_args", nargs="*", help="passed to each Daphne (after --)"
    )
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    sockets = listening_sockets(args.bind, args.port, args.processes)
    children = start(sockets, extra=args.daphne_args)
    for sock in sockets:
        sock.close()  # the children hold them
    stopping = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    code = 0
    while not stopping:
        for child in children:
            if child.poll() is not None:
                code = child.returncode or 1
                stopping = True
        time.sleep(0.2)
    stop(children)
    return code


if __name__ == "__main__":
    sys.exit(main())
