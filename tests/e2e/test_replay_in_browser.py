"""The replay viewer in a browser: keys, the slider and the move list move the
position shown (``static/js/replay.js`` and htmx), for a classic and a Summer
Pavilion game; each position shown is the engine's, read off the page's marks."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from games import selectors
from games.engine import record
from games.models import Game
from tests.games.helpers import classic_zones
from tests.games.marks import zones
from tests.games.test_pavilion_positions import engine_zones as pavilion_zones

ENGINE_ZONES = {"classic": classic_zones, "pavilion": pavilion_zones}


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


def _engine_at(game: Game, ply: int):
    events = selectors.game_moves(game=game).values_list("event", flat=True)
    engine = record.new_game(game.variant, game.players, game.first_seat)
    for event in list(events)[:ply]:
        engine.apply_event(event)
    return engine


def _expect_ply(page: Page, ply: int) -> None:
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply))
    expect(page.locator("#ply-slider")).to_have_value(str(ply))
    assert page.url.endswith(f"?ply={ply}")


@pytest.mark.parametrize("family", ["classic", "pavilion"])
def test_keys_slider_and_move_list_change_the_position(
    page: Page, live_url: str, finished_games: dict[str, Game], family
):
    game = finished_games[family]
    assert game is not None and game.ply > 20

    def shows(ply: int) -> None:
        """The replay is at ``ply`` and draws the engine's position there."""
        _expect_ply(page, ply)
        drawn = zones(page.locator("#replay").inner_html())
        assert drawn == ENGINE_ZONES[family](_engine_at(game, ply)), f"ply {ply}"

    page.goto(f"{live_url}/games/{game.pk}/replay/?ply=5")
    assert _ply(page) == 5
    shows(5)

    page.keyboard.press("ArrowRight")
    shows(6)
    page.keyboard.press("ArrowLeft")
    shows(5)
    page.keyboard.press("End")
    shows(game.ply)
    expect(page.locator(".replay-moves li.current")).to_have_count(1)
    page.keyboard.press("Home")
    shows(0)
    expect(page.locator("#replay .status")).to_contain_text("Before the first deal")

    page.locator("#ply-slider").fill("12")
    shows(12)

    # one step per ply: its first line is the link, the events it brought at
    # once (wall placements, a round's or the game's end) lines of their own
    steps = page.locator(".replay-moves ol > li")
    expect(steps).to_have_count(game.ply)
    step = steps.filter(has=page.locator(".step-more")).first
    link = step.get_by_role("link")
    chosen = int((link.get_attribute("href") or "").removeprefix("?ply="))
    lines = [link.inner_text(), *step.locator(".step-more > li").all_inner_texts()]
    assert len(lines) > 2
    link.click()
    shows(chosen)
    expect(page.locator(".replay-moves ol > li.current > a")).to_have_text(lines[0])
    expect(page.locator("#replay .status p")).to_have_text(lines)

    step = steps.nth(17)
    words = step.get_by_role("link").inner_text()
    step.get_by_role("link").click()
    shows(18)
    expect(page.locator(".replay-moves ol > li.current > a")).to_have_text(words)
    expect(page.locator("#replay .status p").first).to_have_text(words)

    # keys typed into the slider are the slider's own, not the page's shortcuts
    page.locator("#ply-slider").focus()
    page.keyboard.press("End")
    _expect_ply(page, game.ply)
    page.go_back()
    shows(18)
