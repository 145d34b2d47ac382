"""No page of the site breaks its own Content-Security-Policy (issue #25 item 17).

Each page is opened in Chromium with a listener for ``securitypolicyviolation``
events registered before any of the page's scripts run; the replay is stepped
through every position of a classic and a Summer Pavilion game, with the keys, as
a player reading a game would. Every violation the browser reports is listed.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from games.models import Game
from tests.e2e.test_live_board import PASSWORD, log_in, start_game

# Runs before the page's own scripts: every violation is kept on ``window``.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:` +
    `${event.lineNumber} ${event.sample}`
  );
});
"""


# What htmx marks while a request or a swap is under way.
UNSETTLED = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"


def _violations(page: Page) -> list[str]:
    return page.evaluate("window.__violations")


@pytest.fixture
def finished_games(live_url: str) -> dict[str, Game]:
    call_command("fill_games", 8, players=2, seed=5, stdout=StringIO())
    games = Game.objects.filter(end_reason=Game.EndReason.NORMAL).order_by("pk")
    return {
        "classic": games.filter(variant__startswith="classic").first(),
        "pavilion": games.filter(variant__startswith="pavilion").first(),
    }


@pytest.mark.parametrize("family", ["classic", "pavilion"])
def test_stepping_through_a_replay_breaks_no_policy(
    page: Page, live_url: str, finished_games: dict[str, Game], family: str
):
    game = finished_games[family]
    assert game is not None
    page.add_init_script(LISTEN)
    page.goto(f"{live_url}/games/{game.pk}/replay/?ply=0")
    for ply in range(1, game.ply + 1):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply))
        # The next key waits, as a reader's eyes do, until htmx has settled the
        # new position (a key pressed mid-swap may reach the old links).
        expect(page.locator(UNSETTLED)).to_have_count(0)
    page.keyboard.press("Home")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "0")
    assert _violations(page) == []


def test_the_site_pages_break_no_policy(
    page: Page, live_url: str, finished_games: dict[str, Game]
):
    game = finished_games["classic"]
    player = game.seats.select_related("user").first().user
    page.add_init_script(LISTEN)
    seen: dict[str, list[str]] = {}
    for path in [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        f"/games/{game.pk}/",
        "/games/archive/",
        "/rules/classic/",
        "/rules/pavilion/",
        "/leaderboard/classic/",
        f"/accounts/players/{player.username}/",
    ]:
        response = page.goto(live_url + path)
        assert response is not None and response.status == 200, path
        page.wait_for_load_state("networkidle")
        seen[path] = _violations(page)
    assert seen == {path: [] for path in seen}


def test_a_player_s_pages_break_no_policy(page: Page, live_url: str, django_user_model):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    bob = django_user_model.objects.create_user("bob", password=PASSWORD)
    game = start_game(ana, bob, variant="pavilion")
    page.add_init_script(LISTEN)
    log_in(page, live_url, "ana")
    seen: dict[str, list[str]] = {}
    for path in [
        "/",
        f"/games/{game.pk}/",
        "/games/new/",
        "/accounts/settings/",
        "/games/import/",
    ]:
        page.goto(live_url + path)
        page.wait_for_load_state("networkidle")
        seen[path] = _violations(page)
    assert seen == {path: [] for path in seen}
