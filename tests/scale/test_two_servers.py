"""Scale-out: two Daphne processes on PostgreSQL + Redis share the channel layer.

Started as ``deploy/supervisord.conf`` starts them (each on its own port; the
proxy spreads the clients), a socket on server A must hear about a move POSTed to
server B. Runs in the PostgreSQL pass of ``.ci/run`` (which sets
``AZUL_REQUIRE_REDIS``: there a missing Redis fails the test instead of skipping).
"""

from __future__ import annotations

import urllib.parse
import urllib.request
from contextlib import ExitStack

import pytest
from django.db import connection

from games import selectors
from tests.games.helpers import move_post_data

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_servers():
    if connection.vendor != "postgresql":
        pytest.skip("the scale-out test runs on PostgreSQL (the CI's second pass)")
    servers.require_redis()
    env = servers.server_env(redis=True)
    with ExitStack() as stack:
        yield [stack.enter_context(servers.daphne(env)).port for _ in range(2)]


def test_a_move_posted_to_one_server_rings_a_socket_on_the_other(
    two_servers, players, start_game, client_for
):
    port_a, port_b = two_servers
    game = start_game(players[:2])
    mover = game.seats.get(number=game.seat_to_move).user
    session = client_for(mover).cookies["sessionid"].value
    move = selectors.game_engine(game).legal_moves()[0]
    with servers.Page(port_a, f"/ws/games/{game.pk}/", reconnect=False) as page:
        hello = page.next(timeout=10)
        assert hello.data["ply"] == game.ply
        csrf = "a" * 32
        request = urllib.request.Request(
            f"http://127.0.0.1:{port_b}/games/{game.pk}/move/",
            data=urllib.parse.urlencode(move_post_data(move, game.ply)).encode(),
            headers={
                "Cookie": f"sessionid={session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
            },
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=20) as response:
            assert response.status == 200
        message = page.next(timeout=10)
    game.refresh_from_db()
    assert game.ply > hello.data["ply"]
    assert message.data == {"type": "game", "ply": game.ply, "status": "active"}
    assert not message.first
