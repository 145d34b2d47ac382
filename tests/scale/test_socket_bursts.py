"""Sockets in bursts on a live Daphne with the Redis layer (issue #23).

A socket that cannot join its group must reach the page as the consumer's
"try again later" close, through Daphne's own WebSocket library (which refuses
to send some codes, RFC 6455's 1013 among them), never as a server error. Here
the layer's pool is made as small as it gets (``CHANNEL_LAYER_MAX_CONNECTIONS``
1: the process's blocking read for its sockets' messages holds that
connection) and pages open at once: each is told to try again.
``bench/ws.py --burst`` measures the real sizes through nginx.
"""

from __future__ import annotations

import asyncio

import pytest

from games import consumers

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = 5


async def _open_pages(port: int, path: str) -> list[object]:
    """Open ``PAGES`` sockets at once: for each, "hello" or the close code."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    from websockets.typing import Origin

    async def page() -> object:
        try:
            async with connect(
                f"ws://127.0.0.1:{port}{path}",
                origin=Origin(f"http://127.0.0.1:{port}"),
                open_timeout=20,
            ) as ws:
                await asyncio.wait_for(ws.recv(), 20)
                await asyncio.sleep(1)  # stay open while the others join
                return "hello"
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None

    return list(await asyncio.gather(*(page() for _ in range(PAGES))))


def test_a_page_the_layer_cannot_take_is_told_to_try_again_later(players, start_game):
    servers.require_redis()
    game = start_game(players[:2])
    env = servers.server_env(redis=True, CHANNEL_LAYER_MAX_CONNECTIONS="1")
    with servers.daphne(env) as daphne:
        outcomes = asyncio.run(_open_pages(daphne.port, f"/ws/games/{game.pk}/"))
        log = daphne.stderr()
    assert outcomes == [consumers.CLOSE_TRY_AGAIN] * PAGES
    assert "Traceback" not in log
