"""Summer Pavilion's decision panel in a browser: it never moves the board, it is
in view on a phone, and bonus and kept tiles are chosen by clicking them.

The positions are reached through the service (the deals seeded), then ana
decides in Chromium; what the game's history holds afterwards is checked.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from games import notifications, selectors, services
from games.engine.pavilion import Pass, Place
from games.engine.pavilion_board import COLOURS
from games.models import Game
from tests.conftest import days_per_move_game
from tests.e2e.test_pavilion_in_browser import (
    PASSWORD,
    board_ply,
    log_in,
    play_others_until,
    shows_the_engine_position,
    wait_for_ply_after,
)
from tests.games.helpers import decide_every_move

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TAP = 44  # px: the smallest target a finger hits (WCAG 2.5.5)


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Game]:
    """ana and binh at a two-player Summer Pavilion game, the deals seeded; the
    service's moves here ring nobody (the page is reloaded instead)."""
    from accounts.models import User

    monkeypatch.setattr(notifications, "_send", lambda messages: None)
    deals = random.Random(21)
    monkeypatch.setattr(services.common, "system_rng", lambda: deals)
    ana = User.objects.create_user("ana", "ana@example.com", PASSWORD)
    binh = User.objects.create_user("binh", "binh@example.com", PASSWORD)
    decide_every_move([ana, binh])
    game = services.game_create(
        creator=ana,
        variant="pavilion",
        players=2,
        rated=False,
        invitees=[binh],
    )
    # days per move: a bank clock would play their only decisions whatever
    # their setting (docs/clock.md)
    days_per_move_game(game, 3)
    services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
    game.refresh_from_db()
    return ana, game


def _open(
    browser: Browser, live_url: str, game: Game, viewport: dict[str, int]
) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_url, "ana")
    page.goto(f"{live_url}/games/{game.pk}/")
    expect(page.locator("#board .status")).to_contain_text("Your move.")
    return page


def _boxes(page: Page, selector: str) -> list[tuple[float, float, float, float]]:
    """Where each element is on the page (not the screen): x, y, width, height."""
    return page.eval_on_selector_all(
        selector,
        """els => els.map(el => {
            const r = el.getBoundingClientRect();
            return [r.left + scrollX, r.top + scrollY, r.width, r.height];
        })""",
    )


def _small_targets(page: Page) -> list[str]:
    """The panel's visible controls less than a finger high or wide."""
    return page.eval_on_selector_all(
        "#board .pv-panel :is(a[href], button, summary, label)",
        f"""els => els.filter(el => el.offsetParent !== null).filter(el => {{
            const r = el.getBoundingClientRect();
            return r.height < {TAP} || r.width < {TAP};
        }}).map(el => el.outerHTML.slice(0, 80))""",
    )


def _on_screen(page: Page, selector: str) -> list[float]:
    return page.eval_on_selector_all(
        selector, "els => els.map(el => el.getBoundingClientRect().top)"
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_choosing_a_take_moves_no_factory_and_the_panel_is_in_view(
    browser: Browser, live_url: str, table: tuple[Any, Game], viewport: dict[str, int]
) -> None:
    ana, game = table
    play_others_until(game, ana.pk, random.Random(3), lambda e: e.phase == "take")
    page = _open(browser, live_url, game, viewport)
    sources = "#board [data-zone^='factory-'], #board [data-zone='centre']"
    group = page.locator("#board button[name=take]").last
    group.scroll_into_view_if_needed()
    before, seen = _boxes(page, sources), _on_screen(page, sources)
    assert len(before) == 6  # five factories and the centre

    group.click()
    confirm = page.get_by_role("button", name="Take these tiles")
    expect(confirm).to_be_visible()
    # the factories did not move, on the page nor on the screen
    assert _boxes(page, sources) == before
    assert _on_screen(page, sources) == seen
    # the panel is in view, its button whole
    panel = page.locator("#board .pv-panel")
    expect(panel).to_be_in_viewport()
    expect(confirm).to_be_in_viewport(ratio=1)
    if viewport is PHONE:
        assert _small_targets(page) == []
        # the panel covers no part of the board for good: scrolled to the end,
        # the whole position sits above it
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        position_bottom = page.eval_on_selector(
            "#board .pv-choose", "el => el.getBoundingClientRect().bottom"
        )
        panel_top = page.eval_on_selector(
            "#board .pv-panel", "el => el.getBoundingClientRect().top"
        )
        assert position_bottom <= panel_top + 0.5
        page.evaluate("window.scrollTo(0, 0)")

    before_ply = board_ply(page)
    confirm.click()
    wait_for_ply_after(page, before_ply)
    shows_the_engine_position(page, game)
    page.context.close()


def test_bonus_tiles_are_chosen_by_clicking_the_supply_tiles(
    browser: Browser, live_url: str, table: tuple[Any, Game]
) -> None:
    ana, game = table
    play_others_until(game, ana.pk, random.Random(5), lambda e: e.phase == "bonus")
    engine = selectors.game_engine(game)
    owed, supply = engine.bonus_owed, list(engine.supply)
    page = _open(browser, live_url, game, PHONE)
    panel = page.locator("#board .pv-panel")
    expect(panel).to_be_in_viewport()
    take = page.get_by_role("button", name="Take the bonus tiles")
    expect(take).to_be_disabled()

    # one click takes one, its count on the tile; − puts it back
    first = next(c for c in range(6) if supply[c])
    name = COLOURS[first]
    page.locator(f"#pv-bonus-add-{name}").click()
    expect(page.locator(f"#pv-bonus-add-{name}")).to_contain_text(
        f"1 of {supply[first]}"
    )
    page.locator(f"#pv-bonus-remove-{name}").click()
    expect(page.locator(f"#pv-bonus-add-{name}")).to_contain_text(
        f"0 of {supply[first]}"
    )
    expect(page.locator(f"#pv-bonus-remove-{name}")).to_have_count(0)

    # the owed tiles, taken from the last colours of the supply
    wanted: list[int] = []
    for colour in reversed(range(6)):
        while supply[colour] > wanted.count(colour) and len(wanted) < owed:
            wanted.append(colour)
    for index, colour in enumerate(wanted):
        page.locator(f"#pv-bonus-add-{COLOURS[colour]}").click()
        chosen = wanted[: index + 1].count(colour)
        expect(page.locator(f"#pv-bonus-add-{COLOURS[colour]}")).to_contain_text(
            f"{chosen} of {supply[colour]}"
        )
    expect(take).to_be_enabled()
    assert _small_targets(page) == []
    before = board_ply(page)
    take.click()
    wait_for_ply_after(page, before)
    game.refresh_from_db()
    bonus = next(m.event for m in game.moves.order_by("-ply") if "bonus" in m.event)
    assert bonus["seat"] == engine.to_move()
    assert Counter(bonus["bonus"]) == Counter(COLOURS[c] for c in wanted)
    shows_the_engine_position(page, game)
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_cost_of_a_pass_shows_after_one_click_on_a_tile_to_keep(
    browser: Browser, live_url: str, table: tuple[Any, Game], viewport: dict[str, int]
) -> None:
    ana, game = table
    play_others_until(
        game,
        ana.pk,
        random.Random(7),
        lambda e: e.phase == "place" and e.round < 6 and sum(e.hands[e.to_move()]) >= 3,
    )
    engine = selectors.game_engine(game)
    seat = engine.to_move()
    hand, score = engine.hands[seat], engine.scores[seat]
    colour = next(c for c in range(6) if hand[c])
    page = _open(browser, live_url, game, viewport)

    def cost(keep: tuple[int, ...]) -> str:
        probe = engine.copy()
        probe.play(Pass(seat, keep))
        entry = probe.log[len(engine.log)]
        lost, count = entry["penalty"], len(entry["discarded"])
        tiles = "tile" if count == 1 else "tiles"
        return (
            f"You discard {count} {tiles} and lose {lost} points "
            f"(score {score} → {score - lost})."
        )

    summary = page.locator("#board .pv-pass summary")
    expect(summary).to_contain_text(cost(()))  # before any choice
    summary.click()
    add = page.locator(f"#pv-keep-add-{COLOURS[colour]}")
    add.focus()
    page.keyboard.press("Enter")  # the keyboard chooses as a click does
    expect(summary).to_contain_text(cost((colour,)))
    expect(add).to_contain_text(f"1 of {hand[colour]}")
    # the focus stays on the tile chosen, the panel in view
    assert (
        page.evaluate("document.activeElement.id") == f"pv-keep-add-{COLOURS[colour]}"
    )
    expect(page.locator("#board .pv-panel")).to_be_in_viewport()
    if viewport is PHONE:
        assert _small_targets(page) == []
    before = board_ply(page)
    page.get_by_role("button", name="Pass now").click()
    wait_for_ply_after(page, before)
    game.refresh_from_db()
    event = next(m.event for m in game.moves.order_by("-ply") if "pass" in m.event)
    assert (event["seat"], event["pass"]["keep"]) == (seat, [COLOURS[colour]])
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_choosing_a_space_moves_no_board_and_the_page_stays_put(
    browser: Browser, live_url: str, table: tuple[Any, Game], viewport: dict[str, int]
) -> None:
    ana, game = table
    play_others_until(
        game,
        ana.pk,
        random.Random(9),
        lambda e: (
            e.phase == "place" and any(isinstance(m, Place) for m in e.legal_moves())
        ),
    )
    seat = selectors.game_engine(game).to_move()
    page = _open(browser, live_url, game, viewport)
    boards = "#board [data-zone^='board-']"
    space = page.locator("#board button.pv-space.choice").last
    space.evaluate("el => el.scrollIntoView({block: 'center'})")
    value = space.get_attribute("value") or ""
    before, seen = _boxes(page, boards), _on_screen(page, boards)
    space.click()
    place = page.get_by_role("button", name="Place the tile")
    expect(place).to_be_visible()
    # the boards did not move on the page, nor did the page under the finger
    assert _boxes(page, boards) == before
    assert _on_screen(page, boards) == seen
    expect(place).to_be_in_viewport(ratio=1)
    if viewport is PHONE:
        assert _small_targets(page) == []
    expect(
        page.locator(f"#board button.pv-space.selected[value='{value}']")
    ).to_be_visible()
    # the name of the space in the players' words, its machine value unchanged
    star, number = value.split("-")
    legend = page.locator("#h-pv-place")
    expect(legend).to_contain_text(
        f"Place on the {'centre' if star == 'center' else star} star, space {number}"
    )
    before_ply = board_ply(page)
    place.click()
    wait_for_ply_after(page, before_ply)
    game.refresh_from_db()
    event = next(m.event for m in game.moves.order_by("-ply") if "star" in m.event)
    assert (event["seat"], f"{event['star']}-{event['space']}") == (seat, value)
    expect(page.locator(".log")).to_contain_text(
        f"on the {'centre' if star == 'center' else star} star, space {number}, paying"
    )
    page.context.close()
