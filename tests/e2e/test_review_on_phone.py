"""A finished game's review on a 390×844 phone (issue #34 item 4): the Review
tab's table, chart and key moments fit the screen's width (no sideways
scrolling) and every link in it is a target a thumb can tap; the best
decision drawn on the board is brought into view, with JavaScript and without;
and the game's own page links to the review."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Browser, Page, expect

from games import services, tasks
from games.models import GameReview
from tests.games.helpers import play_random_moves

from .test_live_board import PASSWORD, start_game
from .waits import settled

PHONE = {"width": 390, "height": 844}
TAP = 44
"""A tap target's least height, in CSS pixels (2.75rem)."""


def _reviewed(make_user, settings, variant: str):
    """ana and binh's game of ``variant``, 24 random moves then binh resigns,
    reviewed."""
    settings.REVIEW_SECONDS = 0.02
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)

    def finish():
        game = play_random_moves(start_game(ana, binh, variant), random.Random(6), 24)
        services.game_resign(game_id=game.pk, user=binh)
        return game

    with ThreadPoolExecutor(1) as pool:  # the services ring from a thread
        game = pool.submit(finish).result()
        assert pool.submit(tasks.review_game.call, game.pk).result() == "reviewed"
    game.refresh_from_db()
    return game, GameReview.objects.get(game=game).data


def _phone(browser: Browser, **options) -> Page:
    page = browser.new_context(viewport=PHONE, has_touch=True, **options).new_page()
    page.set_default_timeout(10_000)
    return page


def _box(page: Page, selector: str) -> dict[str, float]:
    return page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }",
    )


SMALL_LINKS = """
least => [...document.querySelectorAll("#main a")]
  .filter(a => a.offsetParent !== null && a.getClientRects().length)
  .map(a => { const r = a.getBoundingClientRect();
              return {text: a.textContent.trim(), width: r.width, height: r.height}; })
  .filter(r => r.height < least || r.width < 24)
"""
"""The links shown on the page smaller than a tap target."""


@pytest.mark.parametrize(
    ("variant", "language"), [("classic", "en"), ("pavilion", "vi"), ("classic", "ko")]
)
def test_the_review_fits_a_phone_and_its_links_can_be_tapped(
    browser: Browser, live_url: str, make_user, settings, variant, language
):
    game, data = _reviewed(make_user, settings, variant)
    page = _phone(browser, locale=language)
    page.goto(f"{live_url}/games/{game.pk}/replay/?tab=review")
    review = page.locator("section.review")
    expect(review).to_be_visible()
    expect(review.locator(".review-moments li").first).to_be_visible()

    # no sideways scrolling: the page is as wide as the screen
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    for part in (
        "table.review-seats",
        ".review-chart svg",
        ".review-moments",
        ".replay-tabs",
        ".replay-nav",
    ):
        box = _box(page, f"#replay {part}")
        assert box["left"] >= 0 and box["right"] <= PHONE["width"], (part, box)

    # each player's figures, named, in a card as wide as the screen at most
    card = review.locator("table.review-seats tbody tr").first
    accuracy = card.locator("td").first
    label = accuracy.evaluate("e => getComputedStyle(e, '::before').content")
    named = {"en": "Accuracy", "vi": "Độ chính xác", "ko": "정확도"}[language]
    assert label.strip('"').rstrip(": ") == named
    assert accuracy.evaluate("e => e.getBoundingClientRect().right") <= PHONE["width"]

    # the chart's numbers stay readable once the chart is drawn this narrow
    tick = review.locator(".review-chart text.tick").first
    assert tick.bounding_box()["height"] >= 9

    # every link on the page is a target a thumb can tap
    assert page.evaluate(SMALL_LINKS, TAP - 0.5) == []
    for link in review.locator(".review-moments a").all():
        assert link.bounding_box()["height"] >= TAP - 0.5
    page.context.close()


def _costliest(data: dict) -> dict:
    return max(
        (d for d in data["decisions"] if d["best"] != d["played"]),
        key=lambda d: d["lost"],
    )


def _marks_in_view(page: Page) -> None:
    """Every mark of the best decision lies within the screen, below the
    sticky replay controls, or (when they cannot all fit) the first does."""
    nav = _box(page, "#replay .replay-nav")
    boxes = page.eval_on_selector_all(
        "#replay [data-best]",
        "es => es.map(e => { const r = e.getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom}; }).filter(r => r.bottom > r.top)",
    )
    assert boxes
    top = min(b["top"] for b in boxes)
    bottom = max(b["bottom"] for b in boxes)
    assert top >= nav["bottom"] - 1, (top, nav)
    if bottom - top < PHONE["height"] - (nav["bottom"] - nav["top"]) - 16:
        assert bottom <= PHONE["height"], (top, bottom)
    else:
        assert top <= nav["bottom"] + 40


MARKS_IN_VIEW = """height => {
  const nav = document.querySelector("#replay .replay-nav");
  const boxes = [...document.querySelectorAll("#replay [data-best]")]
    .map(e => e.getBoundingClientRect()).filter(r => r.bottom > r.top);
  if (!nav || !boxes.length) return false;
  const bar = nav.getBoundingClientRect();
  const top = Math.min(...boxes.map(r => r.top));
  const bottom = Math.max(...boxes.map(r => r.bottom));
  if (top < bar.bottom - 1) return false;
  return bottom - top < height - (bar.bottom - bar.top) - 16
    ? bottom <= height : top <= bar.bottom + 40;
}"""
"""``_marks_in_view`` as the page sees it: what a wait for the scroll polls."""


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_the_best_decision_is_brought_into_view_on_a_phone(
    browser: Browser, live_url: str, make_user, settings, variant
):
    game, data = _reviewed(make_user, settings, variant)
    costly = _costliest(data)
    page = _phone(browser)
    page.goto(f"{live_url}/games/{game.pk}/replay/?ply={costly['event'] + 1}")
    page.evaluate("window.__notReloaded = true")
    show = page.get_by_role("link", name="Show the best decision")
    show.tap()
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(costly["event"]))
    expect(page.locator("#replay [data-best]").first).to_be_attached()
    settled(page)  # htmx settles, then the page scrolls
    page.wait_for_function(MARKS_IN_VIEW, arg=PHONE["height"])
    assert page.evaluate("window.__notReloaded") is True
    assert page.evaluate("scrollY") > 0
    _marks_in_view(page)
    # a solid mark of its own colour, a white edge inside it
    zone = page.locator("#replay [data-best]:not(.tile):not(.ptile)").first
    style = zone.evaluate(
        "e => { const s = getComputedStyle(e);"
        " return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow]; }"
    )
    assert style[:3] == ["solid", "4px", "rgb(123, 31, 162)"]
    assert "rgb(255, 255, 255)" in style[3]
    tile = page.locator("#replay .tile[data-best], #replay .ptile[data-best]").first
    ring = tile.evaluate("e => getComputedStyle(e).boxShadow")
    assert "rgb(255, 255, 255)" in ring and "rgb(123, 31, 162)" in ring

    # opened afresh (a reload, a shared link): the marks come into view too
    page.reload()
    page.wait_for_load_state("load")
    page.wait_for_function(MARKS_IN_VIEW, arg=PHONE["height"])
    _marks_in_view(page)
    page.context.close()


def test_without_javascript_the_best_decision_opens_at_the_board(
    browser: Browser, live_url: str, make_user, settings
):
    game, data = _reviewed(make_user, settings, "classic")
    costly = _costliest(data)
    page = _phone(browser, java_script_enabled=False)
    page.goto(f"{live_url}/games/{game.pk}/replay/?ply={costly['event'] + 1}")
    page.get_by_role("link", name="Show the best decision").click()
    page.wait_for_load_state("load")
    assert page.url.endswith("#position")
    assert page.evaluate("scrollY") > 0
    board = _box(page, "#position")
    nav = _box(page, "#replay .replay-nav")
    assert nav["bottom"] - 1 <= board["top"] <= nav["bottom"] + 40
    page.context.close()


def test_the_game_page_leads_to_the_review_on_a_phone(
    browser: Browser, live_url: str, make_user, settings
):
    game, data = _reviewed(make_user, settings, "classic")
    page = _phone(browser)
    page.goto(f"{live_url}/games/{game.pk}/")
    rows = page.locator("table.final-results tbody tr")
    expect(rows).to_have_count(2)
    for row in rows.all():
        seat = int(row.get_attribute("data-seat"))
        accuracy = data["seats"][seat]["accuracy"]
        assert float(row.get_attribute("data-accuracy")) == pytest.approx(accuracy)
        assert abs(int(row.locator("td.accuracy").inner_text()) - accuracy) <= 0.5
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("link", name="Review", exact=True).tap()
    expect(page.get_by_role("tab", name="Review")).to_have_attribute(
        "aria-selected", "true"
    )
    assert page.url.endswith(f"/games/{game.pk}/replay/?tab=review")
    expect(page.locator("section.review")).to_be_visible()
    page.context.close()
