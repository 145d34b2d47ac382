"""A finished game's review on its replay (issue #27): its Review tab with
the players' figures, the chart, and a key moment that leads to its position,
where the step shows its decision's label and the best decision, which shows
itself on the board of the position before it; without a reload between
steps. And the review filling itself in on an open replay while it is made."""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor
from decimal import ROUND_HALF_UP, Decimal

import pytest
from playwright.sync_api import Browser, expect

from games import services, tasks
from games.models import GameReview
from tests.games.helpers import play_random_moves

from .test_live_board import PASSWORD, log_in, start_game
from .waits import sockets_open


def _expect_marked(page, best: dict) -> None:
    """The board marks the classic take ``best`` (a record event): its factory
    or centre, its tiles of its colour, its pattern line or floor line."""
    source = "centre" if best["from"] == "center" else f"factory-{best['from']}"
    expect(page.locator('[data-best="source"]')).to_have_attribute("data-zone", source)
    tiles = page.locator(f'[data-zone="{source}"] [data-best="tile"]')
    expect(tiles.first).to_be_visible()
    assert set(tiles.evaluate_all("ts => ts.map(t => t.dataset.colour)")) == {
        best["colour"]
    }
    target = (
        f"floor-{best['seat']}"
        if best["to"] == "floor"
        else f"line-{best['seat']}-{best['to']}"
    )
    expect(page.locator('[data-best="target"]')).to_have_attribute("data-zone", target)


def _reviewed_game(make_user, settings):
    """ana and binh's game, 20 random moves then binh resigns, reviewed."""
    settings.REVIEW_SECONDS = 0.02
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)

    def finish():
        game = play_random_moves(start_game(ana, binh), random.Random(6), 20)
        services.game_resign(game_id=game.pk, user=binh)
        return game

    with ThreadPoolExecutor(1) as pool:  # the services ring from a thread
        game = pool.submit(finish).result()
    game.refresh_from_db()
    assert tasks.review_game.call(game.pk) == "reviewed"
    return game, GameReview.objects.get(game=game).data


def _costliest(data: dict) -> dict:
    """The decision that gave away most among those whose best was another."""
    return max(
        (d for d in data["decisions"] if d["best"] != d["played"]),
        key=lambda d: d["lost"],
    )


def test_the_review_of_a_finished_game_reads_on_its_replay(
    browser: Browser, live_url: str, make_user, settings
):
    game, data = _reviewed_game(make_user, settings)

    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, "ana")
    page.goto(f"{live_url}/games/{game.pk}/replay/")
    # the moves first; the review is the other tab
    moves_tab = page.get_by_role("tab", name="Moves")
    review_tab = page.get_by_role("tab", name="Review")
    expect(moves_tab).to_have_attribute("aria-selected", "true")
    expect(page.locator("section.review")).to_be_hidden()
    page.evaluate("window.__notReloaded = true")
    review_tab.click()
    expect(review_tab).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel", name="Moves")).to_be_hidden()
    assert "tab=review" in page.url
    review = page.locator("section.review")
    expect(review).to_be_visible()
    expect(review.locator("tbody tr th")).to_have_text(["ana", "binh"])
    # as the page rounds it (floatformat: half up, where an f-string rounds to even)
    accuracy = Decimal(str(data["seats"][0]["accuracy"])).quantize(
        Decimal(1), rounding=ROUND_HALF_UP
    )
    expect(review.locator("tbody tr").first.locator("td").first).to_have_text(
        str(accuracy)
    )
    expect(review.locator("svg polyline")).to_have_count(2)
    assert review.locator("svg").bounding_box()["width"] > 200

    moment = review.locator(".review-moments a").first
    target = moment.get_attribute("href")
    moment.click()
    ply = int(target.split("ply=")[1].split("&")[0])
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply))
    decision = next((d for d in data["decisions"] if d["event"] == ply - 1), None)
    if decision is not None and not decision["forced"]:
        expect(page.locator(".review-step")).to_have_attribute(
            "data-label", decision["label"]
        )
    # the next step comes by htmx: the review stays on the page, in its tab
    page.get_by_role("link", name="Previous").click()
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply - 1))
    expect(page.locator("section.review")).to_be_visible()
    expect(review_tab).to_have_attribute("aria-selected", "true")
    assert page.evaluate("window.__notReloaded") is True

    # the costliest decision: its best drawn on the board of the position before
    costly = _costliest(data)
    page.locator("#ply-slider").fill(str(costly["event"] + 1))
    expect(page.locator("#replay")).to_have_attribute(
        "data-ply", str(costly["event"] + 1)
    )
    page.get_by_role("link", name="Show the best decision").click()
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(costly["event"]))
    _expect_marked(page, costly["best"])
    expect(page.locator(".review-best")).to_contain_text(
        "The best decision here, marked on the board:"
    )
    choices = page.locator(".review-choices li")
    expect(choices.first).to_have_attribute("data-value", "0.0")
    # the three best weighed, and the one played after them if it is not one
    weighed = [event for event, _ in data["alternatives"][str(costly["event"])][:3]]
    expect(choices).to_have_count(len(weighed) + (costly["played"] not in weighed))
    expect(page.locator(".review-choices li[data-played]")).to_have_count(1)
    outline = page.locator('[data-best="source"]').evaluate(
        "e => getComputedStyle(e).outlineStyle"
    )
    assert outline == "solid"
    page.get_by_role("link", name="Back to the decision played").click()
    expect(page.locator("#replay")).to_have_attribute(
        "data-ply", str(costly["event"] + 1)
    )
    expect(page.locator("[data-best]")).to_have_count(0)
    assert page.evaluate("window.__notReloaded") is True

    # Retry your mistakes: the first of a player who made some (random play
    # makes some; whose they are depends on the review's draws)
    page.context.close()
    seats = {s.user.username: s.number for s in game.seats.select_related("user")}
    by_name = {
        name: [
            d
            for d in data["decisions"]
            if d["seat"] == seat and d["label"] in ("mistake", "blunder")
        ]
        for name, seat in sorted(seats.items())
    }
    name, mistakes = next((n, m) for n, m in by_name.items() if m)
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, name)
    page.goto(f"{live_url}/games/{game.pk}/replay/?tab=review")
    page.get_by_role("link", name="Retry your mistakes").click()
    retry = page.locator("section.retry")
    expect(retry).to_have_attribute("data-count", str(len(mistakes)))
    best = data["alternatives"][str(mistakes[0]["event"])][0][0]
    assert best != mistakes[0]["played"]
    from games.history import reviews

    puzzle = reviews.puzzle(
        game=game,
        events=list(game.moves.order_by("ply").values_list("event", flat=True)),
        seat=mistakes[0]["seat"],
        number=1,
    )
    words = next(c.words for c in puzzle.choices if c.value == puzzle.best)
    retry.get_by_label(words, exact=True).check()
    retry.get_by_role("button", name="Check").click()
    expect(page.locator(".retry-answer")).to_have_attribute("data-correct", "true")
    expect(page.locator(".retry-answer")).to_contain_text(words)
    page.context.close()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "ko",
            {
                "moves": "수 기록",
                "review": "분석",
                "accuracy": "정확도",
                "best": "최선의 수 보기",
                "back": "실제로 둔 수로 돌아가기",
            },
        ),
        (
            "vi",
            {
                "moves": "Nước đi",
                "review": "Phân tích",
                "accuracy": "Độ chính xác",
                "best": "Xem nước đi tốt nhất",
                "back": "Quay lại nước đã đi",
            },
        ),
    ],
)
def test_a_visitor_reads_the_review_and_its_best_decision_in_their_language(
    browser: Browser, live_url: str, make_user, settings, language, words
):
    game, data = _reviewed_game(make_user, settings)
    costly = _costliest(data)
    page = browser.new_context(locale=language).new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/games/{game.pk}/replay/?ply={costly['event'] + 1}")
    moves_tab = page.get_by_role("tab", name=words["moves"])
    expect(moves_tab).to_have_attribute("aria-selected", "true")
    review_tab = page.get_by_role("tab", name=words["review"])
    review_tab.click()
    expect(review_tab).to_have_attribute("aria-selected", "true")
    review = page.locator("section.review")
    expect(review).to_be_visible()
    expect(review.locator("thead th").nth(1)).to_have_text(words["accuracy"])
    page.get_by_role("link", name=words["best"]).click()
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(costly["event"]))
    _expect_marked(page, costly["best"])
    page.get_by_role("link", name=words["back"]).click()
    expect(page.locator("#replay")).to_have_attribute(
        "data-ply", str(costly["event"] + 1)
    )
    expect(page.locator("[data-best]")).to_have_count(0)
    page.context.close()


SEEN = """
window.__seen = [];
new MutationObserver(function () {
  var text = document.querySelector("#review-panel p.meta");
  if (text && window.__seen[window.__seen.length - 1] !== text.textContent) {
    window.__seen.push(text.textContent);
  }
}).observe(document.getElementById("main"), { childList: true, subtree: true });
"""


def test_an_open_replay_fills_its_review_in_as_it_is_made(
    browser: Browser, live_url_reviewing: str, make_user, settings, monkeypatch
):
    """The review is made by the live server's review worker while the
    replay is open: its doorbell rings as it goes on, and the Review tab says
    how far it is, then shows the review, without a reload."""

    settings.REVIEW_SECONDS = 0.1
    # queued when the game ends, handed to the worker when the page is open
    monkeypatch.setattr(tasks, "_enqueue_review", lambda game_id: False)
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)

    def finish():
        game = play_random_moves(start_game(ana, binh), random.Random(6), 30)
        services.game_resign(game_id=game.pk, user=binh)
        return game

    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(finish).result()
    events = game.moves.count()
    assert GameReview.objects.get(game=game).status == GameReview.Status.QUEUED

    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url_reviewing}/games/{game.pk}/replay/?tab=review")
    panel = page.locator("#review-panel")
    expect(panel).to_contain_text("The review of this game is waiting for its turn.")
    expect(panel).to_have_attribute("data-socket", f"/ws/games/{game.pk}/review/")
    # the page fills itself in: it does not ask the player to reload it
    assert "Reload" not in panel.inner_text()
    page.evaluate(SEEN)
    page.evaluate("window.__notReloaded = true")
    sockets_open(page, "review")

    tasks.review_game.enqueue(game.pk)
    expect(page.locator("section.review tbody tr th")).to_have_text(
        ["ana", "binh"], timeout=90_000
    )
    # how far it was, on the way (10, 20 … as the rings came and the fetches
    # caught them)
    seen = page.evaluate("window.__seen")
    assert any(re.match(rf"Analysing move \d+ of {events}\.", s) for s in seen), seen
    assert page.evaluate("window.__notReloaded") is True
    expect(page.get_by_role("tab", name="Review")).to_have_attribute(
        "aria-selected", "true"
    )
    expect(panel).not_to_have_attribute("data-socket", re.compile(".*"))
    assert GameReview.objects.get(game=game).status == GameReview.Status.DONE
    page.context.close()
