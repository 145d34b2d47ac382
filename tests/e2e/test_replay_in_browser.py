"""The replay viewer in a browser: keys, the slider and the move list move the
position shown (``static/js/replay.js`` and htmx), for a classic and a Summer
Pavilion game."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from games.models import Game


@pytest.fixture
def finished_games(live_url: str) -> dict[str, Game]:
    call_command("fill_games", 12, players=4, seed=2, stdout=StringIO())
    games = Game.objects.filter(end_reason=Game.EndReason.NORMAL).order_by("pk")
    return {
        "classic": games.filter(variant__startswith="classic").first(),
        "pavilion": games.filter(variant__startswith="pavilion").first(),
    }


def _ply(page: Page) -> int:
    return int(page.locator("#replay").get_attribute("data-ply") or "-1")


def _drawing(page: Page, selector: str) -> str:
    return page.locator(f"#replay {selector}").inner_html()


def _expect_ply(page: Page, ply: int) -> None:
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply))
    expect(page.locator("#ply-slider")).to_have_value(str(ply))
    assert page.url.endswith(f"?ply={ply}")


@pytest.mark.parametrize(
    ("family", "drawing"),
    [("classic", ".board.position"), ("pavilion", ".pv-position")],
)
def test_keys_slider_and_move_list_change_the_position(
    page: Page, live_url: str, finished_games: dict[str, Game], family, drawing
):
    game = finished_games[family]
    assert game is not None and game.ply > 20
    page.goto(f"{live_url}/games/{game.pk}/replay/?ply=5")
    assert _ply(page) == 5
    seen = {_drawing(page, drawing)}

    def changed() -> None:
        html = _drawing(page, drawing)
        assert html not in seen
        seen.add(html)

    page.keyboard.press("ArrowRight")
    _expect_ply(page, 6)
    changed()
    page.keyboard.press("ArrowLeft")
    _expect_ply(page, 5)
    page.keyboard.press("End")
    _expect_ply(page, game.ply)
    changed()
    expect(page.locator(".replay-moves li.current")).to_have_count(1)
    page.keyboard.press("Home")
    _expect_ply(page, 0)
    changed()
    expect(page.locator("#replay .status")).to_contain_text("Before the first move")

    page.locator("#ply-slider").fill("12")
    _expect_ply(page, 12)
    changed()

    step = page.locator(".replay-moves li").nth(17)
    words = step.inner_text()
    step.get_by_role("link").click()
    _expect_ply(page, 18)
    changed()
    expect(page.locator(".replay-moves li.current")).to_have_text(words)
    expect(page.locator("#replay .status")).to_have_text(words)

    # keys typed into the slider are the slider's own, not the page's shortcuts
    page.locator("#ply-slider").focus()
    page.keyboard.press("End")
    _expect_ply(page, game.ply)
    page.go_back()
    _expect_ply(page, 18)
