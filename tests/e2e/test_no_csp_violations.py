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
from playwright.sync_api import ConsoleMessage, Page, expect

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


# A style given through the CSSOM (as a script, an extension or the browser
# may give one: allowed) on the panel and on a field inside it, before the
# panel is drawn again in place.
STYLED = """(ids) => ids.forEach((id) => {
  const element = document.getElementById(id);
  if (element) element.style.minHeight = "1px";
})"""

# A ring of the player's socket: the game's chat changed (static/js/live.js).
CHAT_RANG = """
document.dispatchEvent(new CustomEvent("live:chat", { detail: { game: null } }));
"""

# The element on the page now is marked (a property, not an attribute), so a
# wait can tell when it has been fetched again and swapped for a fresh one.
MARK_OLD = "(id) => { document.getElementById(id).__old = true; }"
FRESH = "(id) => { const e = document.getElementById(id); return e && !e.__old; }"

# The panel fetched again in place, as static/js/live.js and chat.js do.
REFETCH = """([id, url]) => {
  const panel = document.getElementById(id);
  return htmx.ajax("GET", url || panel.dataset.url,
    { source: panel, target: panel, swap: "outerHTML" });
}"""


def _console_errors(page: Page) -> list[str]:
    errors: list[str] = []

    def keep(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", keep)
    return errors


def test_refreshing_the_chat_and_review_panels_in_place_breaks_no_policy(
    page: Page, live_url: str, make_user, settings, monkeypatch
):
    """Issue #35 item 6: each in-place refresh of the chat or the review panel
    logged "Applying inline style violates … style-src 'self'" (htmx settled
    the old panel's style attribute onto the new one)."""
    import random
    from concurrent.futures import ThreadPoolExecutor

    from accounts.services import follow_create
    from games import services, tasks
    from tests.games.helpers import play_random_moves

    monkeypatch.setattr(tasks, "_enqueue_review", lambda game_id: False)
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    follow_create(follower=ana, followed=binh)
    follow_create(follower=binh, followed=ana)  # friends: the chat is on

    def games() -> tuple[Game, Game]:
        playing = start_game(ana, binh)
        finished = play_random_moves(start_game(ana, binh), random.Random(6), 12)
        services.game_resign(game_id=finished.pk, user=binh)
        return playing, finished

    with ThreadPoolExecutor(1) as pool:  # the services ring from a thread
        playing, finished = pool.submit(games).result()
    page.set_default_timeout(10_000)
    page.add_init_script(LISTEN)
    errors = _console_errors(page)
    log_in(page, live_url, "ana")

    # The chat: a message written, then the panel fetched again on its rings
    page.goto(f"{live_url}/games/{playing.pk}/")
    expect(page.locator("#chat")).to_have_attribute("data-chat", "on")
    page.locator("#chat-text").fill("Hello")
    page.locator("#chat .chat-write button[type=submit]").click()
    expect(page.locator("#chat .chat-messages li[data-message]")).to_have_count(1)
    for _ in range(3):
        page.evaluate(STYLED, ["chat", "chat-text"])
        page.evaluate(MARK_OLD, "chat")
        page.evaluate(CHAT_RANG)
        page.wait_for_function(FRESH, arg="chat")  # fetched again, swapped in
        expect(page.locator(UNSETTLED)).to_have_count(0)
        page.evaluate(REFETCH, ["chat", None])
        expect(page.locator(UNSETTLED)).to_have_count(0)
    expect(page.locator("#chat .chat-messages li[data-message]")).to_have_count(1)

    # The Review tab while its review waits: the panel fetched again
    page.goto(f"{live_url}/games/{finished.pk}/replay/?tab=review")
    panel = page.locator("#review-panel")
    expect(panel).to_have_attribute("data-socket", f"/ws/games/{finished.pk}/review/")
    for _ in range(3):
        page.evaluate(STYLED, ["review-panel", "replay"])
        page.evaluate(REFETCH, ["review-panel", page.url])
        expect(page.locator(UNSETTLED)).to_have_count(0)
        expect(panel).to_be_visible()
    # and the whole replay, as when the review is made
    page.evaluate(STYLED, ["review-panel", "replay"])
    page.evaluate(REFETCH, ["replay", page.url])
    expect(page.locator(UNSETTLED)).to_have_count(0)

    assert _violations(page) == []
    assert errors == []
