"""The review's progress fills itself in (issue #27, docs/review.md): the
review task rings the review's doorbell as it goes on and when it is made;
an open replay's socket hears where it stands, and the Review tab's panel,
fetched again as its htmx target, says how far it is. Never for a game in
progress."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games import tasks
from games.models import GameReview
from games.routing import websocket_urlpatterns

from .helpers import resigned_game

APP = URLRouter(websocket_urlpatterns)
ORIGIN = [(b"origin", b"http://127.0.0.1")]
PANEL = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "review-panel"}


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }


def _finished(players, start_game, settings):
    settings.REVIEW_SECONDS = 0.02
    return resigned_game(players, start_game)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_review_task_rings_each_progress_and_the_end(
    players, start_game, settings
):
    game = await sync_to_async(_finished)(players, start_game, settings)
    moves = await sync_to_async(game.moves.count)()
    comm = WebsocketCommunicator(APP, f"/ws/games/{game.pk}/review/", headers=ORIGIN)
    connected, _ = await comm.connect()
    assert connected
    # where it stands, on connect: a page that reconnects catches up
    hello = await comm.receive_json_from()
    assert hello == {
        "type": "review",
        "status": "queued",
        "done": 0,
        "total": 0,
        "ahead": 0,  # its place in the queue: next
    }

    assert await sync_to_async(tasks.review_game.call)(game.pk) == "reviewed"
    heard = []
    while True:
        message = await comm.receive_json_from(timeout=2)
        heard.append((message["status"], message["done"], message["total"]))
        if message["status"] == "done":
            break
    # claimed (its worker begins), then every tenth event, then made
    assert heard[0] == ("running", 0, 0)
    progress = [(done, total) for status, done, total in heard[1:-1]]
    assert {status for status, _, _ in heard[:-1]} == {"running"}
    assert progress == [(n, moves) for n in range(10, moves + 1, 10)] + (
        [(moves, moves)] if moves % 10 else []
    )
    assert heard[-1] == ("done", moves, moves)
    assert await comm.receive_nothing()
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_review_doorbell_for_a_game_in_progress(players, start_game):
    game = await sync_to_async(start_game)(players[:2])
    comm = WebsocketCommunicator(APP, f"/ws/games/{game.pk}/review/", headers=ORIGIN)
    connected, code = await comm.connect()
    assert not connected and code == 4404
    assert await sync_to_async(tasks.review_game.call)(game.pk) == "not finished"


@pytest.mark.django_db
def test_the_review_panel_fetched_again_says_how_far_the_review_is(
    players, start_game, settings
):
    game = _finished(players, start_game, settings)
    url = reverse("games:replay", args=[game.pk])
    moves = game.moves.count()
    page = Client().get(url, {"tab": "review"}).content.decode()
    panel = page.split('<div id="review-panel"', 1)[1].split(">", 1)[0]
    assert f'data-socket="/ws/games/{game.pk}/review/"' in panel
    assert 'data-status="queued" data-done="0"' in panel
    assert "The review of this game is waiting for its turn." in page

    GameReview.objects.filter(game=game).update(status="running", done=10, total=moves)
    answer = Client().get(url, {"tab": "review"}, **PANEL).content.decode()
    # the panel alone, as it is now
    assert answer.lstrip().startswith('<div id="review-panel"')
    assert 'id="replay"' not in answer and "<html" not in answer
    assert 'data-status="running" data-done="10"' in answer
    # the reload hint only for a page without JavaScript, whose doorbell
    # fetches the panel again
    assert f"Analysing move 10 of {moves}.<noscript> Reload the page" in answer

    # made: the replay fetched again has the review, and no socket any more
    GameReview.objects.filter(game=game).update(status="queued")  # claimable
    assert tasks.review_game.call(game.pk) == "reviewed"
    replay = Client().get(url, {"tab": "review"}, HTTP_HX_REQUEST="true")
    html = replay.content.decode()
    assert html.lstrip().startswith('<div id="replay"')
    assert 'data-review="done"' in html and "data-socket" not in html
    assert "hx-target" in replay["Vary"].lower()  # the panel and the replay apart
