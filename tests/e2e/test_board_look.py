"""The board looks like the printed game (issue #15, "Look like Azul").

What a player sees, measured in the browser: round factories holding their tiles,
tiles drawn with a motif per colour (SVG files that load) and a letter, at least
32 px on a desktop; on a 390 px phone the page fits its width and every tap target
is at least 44 px both ways; the classic wall prints its pattern faintly, level
with the pattern lines; the chosen, legal and last-move states stand out.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from games import notifications, selectors, services
from games.engine.classic import COLOURS as CLASSIC_COLOURS
from games.engine.pavilion_board import COLOURS as PAVILION_COLOURS
from tests.games.helpers import move_event

PASSWORD = "azul-printed-tiles-4"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
FAMILIES = {
    "classic": (".tile", CLASSIC_COLOURS),
    "pavilion": (".ptile", PAVILION_COLOURS),
}

TILES = """
(selector) => [...document.querySelectorAll('#board ' + selector + '[data-colour]')]
  .map(tile => {
    const rect = tile.getBoundingClientRect();
    const style = getComputedStyle(tile);
    return {
      colour: tile.dataset.colour, image: style.backgroundImage,
      width: rect.width, height: rect.height, letter: tile.textContent.trim(),
      fontSize: parseFloat(style.fontSize), inSpace: !!tile.closest('.pv-space'),
    };
  })
"""

FACTORIES = """
() => [...document.querySelectorAll('#board .factory:not(.center)')].map(factory => {
  const rect = factory.getBoundingClientRect();
  const radius = getComputedStyle(factory).borderTopLeftRadius;
  const cx = rect.x + rect.width / 2, cy = rect.y + rect.height / 2;
  // the farthest corner of a tile from the disc's centre
  const tiles = [...factory.querySelectorAll('[data-colour]')];
  const reach = Math.max(0, ...tiles.map(tile => {
    const r = tile.getBoundingClientRect();
    return Math.max(...[[r.left, r.top], [r.right, r.top], [r.left, r.bottom],
      [r.right, r.bottom]].map(([x, y]) => Math.hypot(x - cx, y - cy)));
  }));
  return {
    zone: factory.dataset.zone, width: rect.width, height: rect.height,
    radius: radius.endsWith('%') ? parseFloat(radius) / 100 * rect.width
      : parseFloat(radius),
    reach: reach, tiles: tiles.length,
  };
})
"""

TAP_TARGETS = """
() => [...document.querySelectorAll('#board button, #board a')]
  .map(el => ({el: el, rect: el.getBoundingClientRect()}))
  .filter(({el, rect}) => rect.width > 0 && rect.height > 0
    && getComputedStyle(el).visibility === 'visible')
  .map(({el, rect}) => ({
    what: el.outerHTML.slice(0, 80), width: rect.width, height: rect.height,
  }))
"""

ROWS = """
(board) => {
  const centre = el => {
    const r = el.getBoundingClientRect();
    return r.y + r.height / 2;
  };
  const lines = [...board.querySelectorAll('.pattern-lines > li')].map(centre);
  const rows = [...board.querySelectorAll('.wall tr')].map(centre);
  return lines.map((y, i) => Math.abs(y - rows[i]));
}
"""


@pytest.fixture
def quiet_doorbells(monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves played here by the service would ring the channel layer through
    async_to_sync beside Playwright's event loop (docs/stack.md pitfall 3); pages are
    loaded after the moves instead."""
    monkeypatch.setattr(notifications, "_send", lambda messages: None)


def _game_to_move(family: str, make_user: Any, *, moves: int = 0) -> tuple[Any, str]:
    """A two-player game of ``family`` after ``moves`` random moves, and the
    username of the player to move."""
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = services.game_create(
        creator=ana,
        variant=family,
        players=2,
        rated=False,
        invitees=[binh],
    )
    services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
    rng = random.Random(15)
    for _ in range(moves):
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(rng.choice(engine.legal_moves())),
            expected_ply=game.ply,
        )
    game = selectors.game_get(game_id=game.pk)
    return game, game.seats.all()[game.seat_to_move].user.username


def _board_page(
    browser: Browser, live_url: str, game: Any, username: str, viewport: dict
) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    # signed in ("Log out" is in the menu, folded on a phone: issue #25 item 16)
    log_out = page.get_by_role("button", name="Log out", include_hidden=True)
    expect(log_out).to_have_count(1)
    page.goto(f"{live_url}/games/{game.pk}/")
    expect(page.locator("#board .status")).to_contain_text("Your move.")
    return page


def _choose_first_group(page: Page, family: str) -> None:
    """Pick the first tile group, as a player taps it: the move's next step shows."""
    if family == "classic":
        page.locator("button.group[name=group]").first.click()
        expect(page.locator("#move-dest")).to_be_visible()
    else:
        page.locator("button.group[name=take]").first.click()
        expect(page.get_by_role("button", name="Take these tiles")).to_be_visible()


@pytest.mark.parametrize("family", FAMILIES)
def test_desktop_board_has_round_factories_and_drawn_tiles(
    browser: Browser, live_url: str, make_user: Any, quiet_doorbells: None, family: str
) -> None:
    selector, colours = FAMILIES[family]
    game, username = _game_to_move(family, make_user)
    page = _board_page(browser, live_url, game, username, DESKTOP)

    factories = page.evaluate(FACTORIES)
    assert len(factories) >= 5
    for factory in factories:
        assert factory["tiles"] == 4, factory
        assert abs(factory["width"] - factory["height"]) <= 1, factory
        assert factory["radius"] >= factory["width"] / 2 - 0.5, factory
        assert factory["reach"] <= factory["width"] / 2, f"a tile sticks out: {factory}"

    tiles = page.evaluate(TILES, selector)
    assert {t["colour"] for t in tiles} == set(colours)
    for tile in tiles:
        if not tile["inSpace"]:  # a Summer Pavilion board's spaces draw their own
            assert tile["width"] >= 32 and tile["height"] >= 32, tile
        assert tile["letter"] and tile["fontSize"] >= 9, tile
    images = {
        colour: {t["image"] for t in tiles if t["colour"] == colour}
        for colour in colours
    }
    assert all(len(found) == 1 for found in images.values()), images
    urls = [next(iter(found)) for found in images.values()]
    assert all(url.startswith('url("') and url.endswith('.svg")') for url in urls), urls
    assert len(set(urls)) == len(colours), "two colours share a motif"
    for url in urls:
        response = page.request.get(url[len('url("') : -len('")')])
        assert response.ok and "svg" in response.headers["content-type"], url
    page.context.close()


@pytest.mark.parametrize("family", FAMILIES)
def test_phone_board_fits_and_every_tap_target_is_44px(
    browser: Browser, live_url: str, make_user: Any, quiet_doorbells: None, family: str
) -> None:
    game, username = _game_to_move(family, make_user)
    page = _board_page(browser, live_url, game, username, PHONE)
    steps = ["the board", "a group chosen"]
    if family == "classic":
        steps.append("a take previewed")
    for step in steps:
        if step == "a group chosen":
            _choose_first_group(page, family)
        elif step == "a take previewed":
            # the player's own pattern line is the target; Confirm and Undo show
            page.locator("#board .line-target:enabled").first.click()
            expect(page.locator("#board form.confirm-move")).to_be_visible()
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"{step}: the page scrolls sideways ({width})"
        targets = page.evaluate(TAP_TARGETS)
        assert targets
        small = [t for t in targets if t["width"] < 44 or t["height"] < 44]
        assert not small, f"{step}: {small}"
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_classic_wall_prints_its_pattern_faintly_level_with_the_lines(
    browser: Browser, live_url: str, make_user: Any, quiet_doorbells: None, viewport
) -> None:
    game, username = _game_to_move("classic", make_user)
    page = _board_page(browser, live_url, game, username, viewport)

    printed = page.evaluate(
        """() => [...document.querySelectorAll('#board .wall .tile.printed')].map(t => {
          const style = getComputedStyle(t);
          return [t.classList[1], style.backgroundImage, parseFloat(style.opacity)];
        })"""
    )
    assert len(printed) == 2 * 25
    images = {t["colour"]: t["image"] for t in page.evaluate(TILES, ".tile")}
    for css_class, image, opacity in printed:
        colour = css_class.removeprefix("t-")
        assert image == images[colour], (colour, image)
        assert 0.15 <= opacity <= 0.5, (colour, opacity)

    # on a phone the other player's board is folded (issue #25 item 16): open it
    folded = page.locator("#board details.fold:not([open]) > summary")
    for _ in range(folded.count()):
        folded.first.click()
    for board in page.locator("#board .player-board").all():
        offsets = board.evaluate(ROWS)
        assert len(offsets) == 5 and max(offsets) <= 1.5, offsets
    penalties = page.locator("#board .player-board.mine .floor small")
    expect(penalties).to_have_text(["-1", "-1", "-2", "-2", "-2", "-3", "-3"])
    page.context.close()


def test_classic_chosen_legal_last_move_and_focus_stand_out(
    browser: Browser, live_url: str, make_user: Any, quiet_doorbells: None
) -> None:
    game, username = _game_to_move("classic", make_user, moves=1)
    page = _board_page(browser, live_url, game, username, DESKTOP)

    placed = page.locator("#board .tile[data-last-move]").first
    assert placed.evaluate("t => getComputedStyle(t).boxShadow") != "none"
    source = page.locator('#board [data-last-move="from"]')
    assert source.evaluate("s => getComputedStyle(s).outlineStyle") == "dashed"

    group = page.locator("#board button.group[name=group]").first
    group.focus()
    assert group.evaluate("g => g.matches(':focus-visible')")
    outline = group.evaluate(
        "g => [getComputedStyle(g).outlineStyle,"
        " parseFloat(getComputedStyle(g).outlineWidth)]"
    )
    assert outline[0] != "none" and outline[1] >= 2, outline

    before = group.evaluate("g => getComputedStyle(g).backgroundColor")
    group.click()
    expect(group).to_have_class(re.compile(r"\bselected\b"))
    after = group.evaluate("g => getComputedStyle(g).backgroundColor")
    assert after == "rgb(10, 125, 50)" and after != before
    legal = page.locator("#board .player-board.mine .pattern-lines li.legal")
    expect(legal.first).to_be_visible()
    assert legal.first.evaluate("l => getComputedStyle(l).outlineStyle") == "solid"
    page.context.close()


def test_phone_summer_pavilion_spaces_to_place_on_are_44px(
    browser: Browser, live_url: str, make_user: Any, quiet_doorbells: None
) -> None:
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = services.game_create(
        creator=ana,
        variant="pavilion",
        players=2,
        rated=False,
        invitees=[binh],
    )
    services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
    rng = random.Random(21)
    while True:  # into the placing phase, a player with a space to place on
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        moves = engine.legal_moves()
        if engine.phase == "place" and any(hasattr(m, "star") for m in moves):
            break
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(rng.choice(moves)),
            expected_ply=game.ply,
        )
    username = game.seats.all()[game.seat_to_move].user.username
    page = _board_page(browser, live_url, game, username, PHONE)
    spaces = page.locator("#board button.pv-space")
    assert spaces.count() >= 1
    sizes = spaces.evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width,"
        " e.getBoundingClientRect().height])"
    )
    assert all(w >= 44 and h >= 44 for w, h in sizes), sizes
    # the board scrolls in its own box; the page does not scroll sideways
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width
    # and a space is still a working button: it opens the payment choice
    spaces.first.scroll_into_view_if_needed()
    spaces.first.click()
    expect(page.get_by_role("button", name="Place the tile")).to_be_visible()
    page.context.close()
