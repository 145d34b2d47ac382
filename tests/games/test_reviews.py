"""The review of a finished game on the site (issue #27, docs/review.md):
queued when the game ends, made by the review queue's task, shown on the
replay to anyone; never made nor shown for a game in progress."""

from __future__ import annotations

import random
import re

import pytest
from django.template.defaultfilters import floatformat
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services, tasks
from games.models import Game, GameReview

from .helpers import play_random_moves, resigned_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def resigned(players, start_game, settings):
    """Two players, a dozen moves, then binh resigns; reviewed cheaply."""
    settings.REVIEW_SECONDS = 0.02
    return resigned_game(players, start_game)


def _review_part(html: str) -> str:
    return html.split('<section class="review"', 1)[1].split("</section>", 1)[0]


def test_a_finished_game_is_reviewed_and_its_replay_shows_the_review(resigned, players):
    stored = GameReview.objects.get(game=resigned)
    assert stored.status == GameReview.Status.QUEUED
    page = Client().get(reverse("games:replay", args=[resigned.pk])).content.decode()
    assert "The review of this game is waiting for its turn." in page

    assert tasks.review_game.call(resigned.pk) == "reviewed"
    assert tasks.review_game.call(resigned.pk) == "taken"  # made once
    stored.refresh_from_db()
    moves = resigned.moves.count()
    assert (stored.status, stored.done, stored.total) == ("done", moves, moves)
    assert len(stored.data["decisions"]) + len(stored.data["chances"]) == moves
    assert len(stored.data["timeline"]) == moves

    page = Client().get(reverse("games:replay", args=[resigned.pk])).content.decode()
    part = _review_part(page)
    rows = re.findall(
        r'<tr data-seat="(\d)" data-accuracy="([\d.]+)">'
        r'<th scope="row"><bdi>(\w+)</bdi>',
        part,
    )
    assert [(seat, name) for seat, _, name in rows] == [("0", "ana"), ("1", "binh")]
    for seat, accuracy, _ in rows:
        expected = stored.data["seats"][int(seat)]["accuracy"]
        assert float(accuracy) == pytest.approx(expected)
    assert part.count("<polyline") == 2


def test_a_decision_step_shows_its_label_and_the_best_decision(resigned):
    tasks.review_game.call(resigned.pk)
    data = GameReview.objects.get(game=resigned).data
    costly = max(
        (d for d in data["decisions"] if not d["forced"]), key=lambda d: d["lost"]
    )
    assert costly["lost"] > 0
    page = (
        Client()
        .get(reverse("games:replay", args=[resigned.pk]), {"ply": costly["event"] + 1})
        .content.decode()
    )
    step = page.split('<p class="review-step"', 1)[1].split("</p>", 1)[0]
    assert f'data-label="{costly["label"]}"' in step
    # as the page rounds (floatformat: half up; Python's format: to even)
    lost = floatformat(costly["lost"], 1)
    if costly["spread"]:  # the loss shown with how sure it is
        lost += f" ± {floatformat(costly['spread'], 1)}"
    assert f"expected points lost: {lost}." in step
    assert "Best: " in step


def test_no_review_of_a_game_in_progress_is_made_or_shown(players, start_game):
    game = play_random_moves(start_game(players[:2]), random.Random(2), 6)
    assert not GameReview.objects.exists()
    assert tasks.review_game.call(game.pk) == "not finished"
    assert not GameReview.objects.exists()
    # even a forged row is never read while the game is on
    GameReview.objects.create(
        game=game,
        status="done",
        seconds=1,
        created_at=game.created_at,
        queued_at=game.created_at,
        data={"seats": [], "decisions": [], "chances": [], "timeline": []},
    )
    player = Client()
    player.force_login(game.seats.get(number=0).user)
    for name in ("games:replay", "games:detail", "games:record"):
        for client in (Client(), player):
            html = client.get(reverse(name, args=[game.pk])).content.decode()
            assert "data-review" not in html and "review-step" not in html
            assert '"decisions"' not in html


def test_a_player_who_asked_to_wait_sees_the_review_only_on_asking(
    resigned, players, client_for
):
    tasks.review_game.call(resigned.pk)
    ana = players[0]
    User.objects.filter(pk=ana.pk).update(review_hidden=True)
    client = client_for(User.objects.get(pk=ana.pk))
    page = client.get(reverse("games:replay", args=[resigned.pk])).content.decode()
    assert 'class="review"' not in page
    # the Review tab offers it, at the position shown
    last = resigned.moves.count()
    offer = page.split('<p class="review-waits">', 1)[1].split("</p>", 1)[0]
    assert f'<a href="?ply={last}&amp;tab=review&amp;review"' in offer
    assert 'class="button">Show the review</a>' in offer
    shown = client.get(reverse("games:replay", args=[resigned.pk]) + "?review")
    html = shown.content.decode()
    assert 'data-review="done"' in html
    assert 'href="?ply=1&amp;review"' in html  # the steps keep it shown


def test_a_review_cut_short_is_queued_again_by_the_deadline_job(resigned, settings):
    from datetime import timedelta

    from games import clock, jobs

    stored = GameReview.objects.get(game=resigned)
    # a worker claimed it, then stopped (its task is never run again)
    GameReview.objects.filter(pk=stored.pk).update(
        status=GameReview.Status.RUNNING,
        queued_at=clock.now() - timedelta(seconds=settings.REVIEW_RETRY_SECONDS + 1),
    )
    assert tasks.review_game.call(resigned.pk) == "taken"
    report = jobs.process_deadlines()
    assert report.reviews == 1
    assert GameReview.objects.get(pk=stored.pk).status == GameReview.Status.QUEUED
    assert jobs.process_deadlines().reviews == 0  # queued again once
    assert tasks.review_game.call(resigned.pk) == "reviewed"


def test_an_imported_record_is_reviewed_when_its_uploader_asks(players, settings):
    settings.REVIEW_SECONDS = 0.02
    from games.engine import record

    engine = record.random_game("classic", 2, 3)
    imported = services.game_import(
        uploader=players[0], data=record.dumps(record.export(engine, ["A", "B"]))
    ).game
    assert imported.status == Game.Status.FINISHED
    assert not GameReview.objects.filter(game=imported).exists()
    url = reverse("games:replay", args=[imported.pk])
    ask = reverse("games:review_ask", args=[imported.pk])
    # another player is not offered it, and asking changes nothing
    other = Client()
    other.force_login(players[1])
    assert "Review this game" not in other.get(url).content.decode()
    refused = other.post(ask, follow=True).content.decode()
    assert "Only the player who imported this record can ask for its review." in (
        refused
    )
    assert not GameReview.objects.filter(game=imported).exists()
    # its uploader asks: the review is queued, then made and shown
    uploader = Client()
    uploader.force_login(players[0])
    assert "Review this game" in uploader.get(url).content.decode()
    page = uploader.post(ask, follow=True).content.decode()
    assert "The review is on its way." in page
    assert GameReview.objects.get(game=imported).status == GameReview.Status.QUEUED
    assert tasks.review_game.call(imported.pk) == "reviewed"
    assert 'data-review="done"' in uploader.get(url).content.decode()


def test_retry_your_mistakes_asks_for_a_better_decision(resigned, players, client_for):
    """A player steps through their own mistakes: the position, the decisions
    the review weighed; the best is accepted, the one played is not."""
    tasks.review_game.call(resigned.pk)
    stored = GameReview.objects.get(game=resigned)
    seat_of = {s.user_id: s.number for s in resigned.seats.all()}
    ana, binh = players[:2]
    # plant: ana's first weighed decision is the game's one blunder
    data = stored.data
    mine = next(
        d for d in data["decisions"] if d["seat"] == seat_of[ana.pk] and not d["forced"]
    )
    for d in data["decisions"]:  # the only mistake of the game
        if d is not mine:
            d["label"] = ""
    mine["label"] = "blunder"
    mine["lost"] = 12.0
    alternatives = data["alternatives"][str(mine["event"])]
    if alternatives[0][0] == mine["played"]:  # make the played one not the best
        data["alternatives"][str(mine["event"])] = [
            a for a in alternatives if a[0] != mine["played"]
        ]
    GameReview.objects.filter(pk=stored.pk).update(data=data)

    client = client_for(ana)
    url = reverse("games:retry", args=[resigned.pk])
    page = client.get(url).content.decode()
    assert 'data-puzzle="1" data-count="1"' in page
    keys = re.findall(
        r'name="choice" value="(\d+)" id="choice-\d+" required> '
        r'<label for="choice-\d+">([^<]+)</label>',
        page,
    )
    assert len(keys) >= 2
    from games.history import reviews

    puzzle = reviews.puzzle(
        game=resigned,
        events=list(resigned.moves.order_by("ply").values_list("event", flat=True)),
        seat=seat_of[ana.pk],
        number=1,
    )
    best = next(c for c in puzzle.choices if c.value == puzzle.best)
    played = next(c for c in puzzle.choices if c.played)
    # the review's best, or one the review valued the same (a tie)
    top = data["alternatives"][str(mine["event"])][0][1]
    tied = [
        reviews.decision_words(resigned, puzzle.engine, event)
        for event, value in data["alternatives"][str(mine["event"])]
        if value == top
    ]
    assert best.words in tied
    right = client.post(url, {"n": 1, "choice": best.key}).content.decode()
    assert 'data-correct="true"' in right and "Well found." in right
    wrong = client.post(url, {"n": 1, "choice": played.key}).content.decode()
    assert 'data-correct="false"' in wrong and "Not better." in wrong
    forged = client.post(url, {"n": 1, "choice": "99"}).content.decode()
    assert "Choose one of the decisions." in forged
    # binh made no mistake; a visitor must log in
    assert "No mistake of yours to retry" in client_for(binh).get(url).content.decode()
    assert Client().get(url).status_code == 302  # log in first
