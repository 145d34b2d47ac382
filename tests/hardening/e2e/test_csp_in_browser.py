"""Under the site's Content-Security-Policy the game pages work in a browser and
the browser reports no violation: htmx swaps, the board's scripts, the live
sockets (connect-src), both families' boards (no style attributes)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from games import services

PASSWORD = "azul-csp-tiles-9"

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


def _game(variant: str, users: list[Any]) -> Any:
    game = services.game_create(
        creator=users[0],
        variant=variant,
        players=2,
        rated=False,
        invitees=[users[1]],
    )
    services.game_invitation_respond(game_id=game.pk, user=users[1], accept=True)
    game.refresh_from_db()
    return game


def _log_in(page: Page, live_url: str, username: str) -> None:
    page.goto(f"{live_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def test_game_pages_raise_no_csp_violation(browser: Browser, live_url: str) -> None:
    from accounts.models import User

    users = [
        User.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("ana", "binh")
    ]
    classic = _game("classic", users)
    pavilion = _game("pavilion", users)
    to_move = classic.seats.get(number=classic.seat_to_move).user

    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(WATCH)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    _log_in(page, live_url, to_move.username)

    response = page.goto(f"{live_url}/games/{classic.pk}/")
    assert response is not None
    policy = response.headers["content-security-policy"]
    directives = dict(
        part.strip().split(" ", 1) for part in policy.split(";") if part.strip()
    )
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert "unsafe-inline" not in policy
    expect(page.locator("#board .status")).to_contain_text("Your move.")
    # an HTMX swap: pick a tile group, the destinations appear
    page.locator("button[name=group]").first.click()
    expect(page.locator("form.destinations button[name=line]").first).to_be_visible()
    page.wait_for_function("document.querySelector('#board') !== null")
    page.goto(f"{live_url}/games/{pavilion.pk}/")
    expect(page.locator("#board")).to_be_visible()
    # the space labels sit where the board's CSS classes put them, not at 0,0
    label = page.locator("[data-zone^=board-] li").nth(10).bounding_box()
    first = page.locator("[data-zone^=board-] li").first.bounding_box()
    assert label and first and (label["x"], label["y"]) != (first["x"], first["y"])
    page.goto(f"{live_url}/games/{classic.pk}/replay/")
    expect(page.locator("#replay")).to_be_visible()

    page.goto(f"{live_url}/games/{classic.pk}/")
    page.wait_for_timeout(500)
    violations = page.evaluate("window.__violations")
    assert violations == []
    assert not [text for text in console if "Content Security Policy" in text]
    assert any(url.endswith(f"/ws/games/{classic.pk}/") for url in sockets)
    assert any(url.endswith("/ws/user/") for url in sockets)
