"""A finished game's review on its replay (issue #27): the players' figures,
the chart, and a key moment that leads to its position, where the step shows
its decision's label and the best decision; without a reload between steps."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from games import services, tasks
from games.models import GameReview
from tests.games.helpers import play_random_moves

from .test_live_board import PASSWORD, log_in, start_game


def test_the_review_of_a_finished_game_reads_on_its_replay(
    browser: Browser, live_url: str, make_user, settings
):
    settings.REVIEW_SECONDS = 0.02
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)

    def finish():
        game = play_random_moves(start_game(ana, binh), random.Random(6), 14)
        services.game_resign(game_id=game.pk, user=binh)
        return game

    with ThreadPoolExecutor(1) as pool:  # the services ring from a thread
        game = pool.submit(finish).result()
    game.refresh_from_db()
    assert tasks.review_game.call(game.pk) == "reviewed"
    data = GameReview.objects.get(game=game).data

    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, "ana")
    page.goto(f"{live_url}/games/{game.pk}/replay/")
    review = page.locator("section.review")
    expect(review.locator("tbody tr th")).to_have_text(["ana", "binh"])
    expect(review.locator("tbody tr").first.locator("td").first).to_have_text(
        f"{data['seats'][0]['accuracy']:.0f}"
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
    # the next step comes by htmx: the review stays on the page
    page.evaluate("window.__notReloaded = true")
    page.get_by_role("link", name="Previous").click()
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply - 1))
    expect(page.locator("section.review")).to_have_count(1)
    assert page.evaluate("window.__notReloaded") is True

    # Retry your mistakes: ana's first, the best choice accepted
    mistakes = [
        d
        for d in data["decisions"]
        if d["seat"] == game.seats.get(user=ana).number
        and d["label"] in ("mistake", "blunder")
    ]
    assert mistakes  # random play makes some
    page.get_by_role("link", name="Retry your mistakes").click()
    retry = page.locator("section.retry")
    expect(retry).to_have_attribute("data-count", str(len(mistakes)))
    best = data["alternatives"][str(mistakes[0]["event"])][0][0]
    assert best != mistakes[0]["played"]
    from games import reviews

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
