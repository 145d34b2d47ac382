"""No engine help for a game in progress, by any route (issue #33 item 1,
docs/review.md): a game's record is public while it is played, so anyone can
continue it offline to an end and import the result. Such a record (it shares
the game's first deal) gets no review, no best decision and no retry until the
game it continues has ended, and its replay says why."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from games import clock, services, tasks
from games.engine import record
from games.models import Game, GameReview

from .helpers import play_random_moves

pytestmark = pytest.mark.django_db


def _continued_offline(client: Client, game: Game, seed: int, **change) -> bytes:
    """What the outside test did: download a game's record while it is played,
    play it to an end offline, and write the result as a record to import."""
    text = client.get(reverse("games:record", args=[game.pk])).content
    loaded = record.load(text)
    finished = record.play_random(loaded.game, random.Random(seed))
    data = record.export(finished, change.pop("names", ["Ana", "Binh"]))
    data.update(change)
    return record.dumps(data).encode()


@pytest.fixture
def live(players, start_game, settings):
    """ana and binh, 13 decisions into a game they are still playing."""
    settings.REVIEW_SECONDS = 0.02
    game = play_random_moves(start_game(players[:2]), random.Random(5), 13)
    assert game.status == Game.Status.ACTIVE
    return game


def _review_panel(html: str) -> str:
    return html.split('id="review-panel"', 1)[1].split("</div>", 1)[0]


def test_a_live_games_continuation_gets_no_review_until_the_game_ends(
    live, players, client_for
):
    chloe = client_for(players[2])
    imported = services.game_import(
        uploader=players[2], data=_continued_offline(chloe, live, seed=1)
    ).game
    assert imported.status == Game.Status.FINISHED
    replay = reverse("games:replay", args=[imported.pk])

    # The Review tab says why, and names the game it continues; no button.
    page = chloe.get(replay + "?tab=review").content.decode()
    panel = _review_panel(page)
    assert f'data-continues="{live.pk}"' in panel
    assert (
        f'This record continues <a href="/games/{live.pk}/">game {live.pk}</a>, '
        "which is still being played."
    ) in panel
    assert "Review this game" not in page

    # Asking anyway is refused, and queues nothing.
    ask = reverse("games:review_ask", args=[imported.pk])
    refused = chloe.post(ask, follow=True).content.decode()
    assert (
        f"This record continues game {live.pk}, which is still being played: "
        "it is reviewed once that game has ended."
    ) in refused
    assert not GameReview.objects.filter(game=imported).exists()

    # A review queued anyway is not made (the row goes: the uploader asks
    # again later); one that exists anyway (made before this rule) is not
    # shown: no labels, no best decision at the live position, no retry.
    now = clock.now()
    GameReview.objects.create(
        game=imported, seconds=0.02, created_at=now, queued_at=now
    )
    assert tasks.review_game.call(imported.pk) == "continues a game in progress"
    assert not GameReview.objects.filter(game=imported).exists()
    GameReview.objects.create(
        game=imported,
        seconds=0.02,
        created_at=now,
        queued_at=now,
        status=GameReview.Status.DONE,
        data={"decisions": [], "chances": [], "seats": [], "timeline": []},
    )
    best = chloe.get(
        replay + f"?ply={live.ply}&tab=review&review&best"
    ).content.decode()
    assert "data-best" not in best
    assert 'data-review="done"' not in best
    assert f'data-continues="{live.pk}"' in best
    assert chloe.get(reverse("games:retry", args=[imported.pk])).status_code == 404

    # Once the game it continues has ended, the record is reviewed on asking.
    services.game_resign(game_id=live.pk, user=players[1])
    GameReview.objects.filter(game=imported).delete()
    page = chloe.get(replay + "?tab=review").content.decode()
    assert "data-continues" not in page
    assert "Review this game" in page
    assert "The review is on its way." in chloe.post(ask, follow=True).content.decode()
    # The queue makes the review of the game played here first (it ended by
    # resignation just above), then the import's (games.history.review_queue).
    assert tasks.review_game.call(imported.pk) == "reviewed"
    assert GameReview.objects.get(game=live).status == GameReview.Status.DONE
    assert tasks.review_game.call(live.pk) == "reviewed"
    assert 'data-review="done"' in chloe.get(replay + "?tab=review").content.decode()


def test_a_disguised_continuation_is_recognised(live, players, client_for):
    """Other names, another first seat, the grey side, the factories and their
    tiles in another order: still the same first deal."""
    chloe = client_for(players[2])
    data = json.loads(_continued_offline(chloe, live, seed=2, names=["X", "Y"]))
    first_deal = data["events"][0]["deal"]
    data["events"][0]["deal"] = [list(reversed(f)) for f in reversed(first_deal)]
    disguised = record.opening_key("classic-grey", data["events"])
    assert disguised == Game.objects.get(pk=live.pk).opening != ""

    imported = services.game_import(
        uploader=players[2], data=_continued_offline(chloe, live, seed=3)
    ).game
    from games import selectors

    assert selectors.game_continued(game=imported).pk == live.pk


def test_an_unrelated_record_and_a_finished_games_continuation_are_reviewed(
    live, players, client_for
):
    chloe = client_for(players[2])
    stranger = services.game_import(
        uploader=players[2],
        data=record.dumps(
            record.export(record.random_game("classic", 2, 11), ["P", "Q"])
        ),
    ).game
    services.game_review_queue(game=stranger, asked_by=players[2])
    assert GameReview.objects.filter(game=stranger).exists()

    services.game_resign(game_id=live.pk, user=players[0])
    after = services.game_import(
        uploader=players[2], data=_continued_offline(chloe, live, seed=4)
    ).game
    services.game_review_queue(game=after, asked_by=players[2])
    assert GameReview.objects.filter(game=after).exists()


def test_players_are_told_the_rule_where_they_start_a_game(players, client_for):
    page = client_for(players[0]).get(reverse("games:new")).content.decode()
    rule = page.split('data-rule="no-engine-help"', 1)[1].split("</p>", 1)[0]
    assert "in a game between people, every decision is your own." in rule

    vietnamese = client_for(players[0]).get(
        reverse("games:new"), HTTP_ACCEPT_LANGUAGE="vi"
    )
    rule = vietnamese.content.decode().split('data-rule="no-engine-help"', 1)[1]
    assert "Chơi đẹp:" in rule.split("</p>", 1)[0]
