"""The game page on a 390×844 phone (issue #25 item 16): the header is one short
row (the menu folds into "Menu"), the player's own board and their decision
come within the first screen and a half, and the other players' boards and the
bag and lid (bag and tower) are folded until tapped, and stay as the player left
them when the board is drawn again. On a desktop nothing is folded."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_live_board import PASSWORD, log_in, start_game

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
STOCK = {"classic": "supply", "pavilion": "stock"}
# What the folded stock holds, and what a player's board is drawn as.
STOCK_ZONE = "bag"
BOARD_ZONE = {"classic": "wall-{seat}", "pavilion": "hand-{seat}"}


def _open(browser: Browser, live_url: str, variant: str, make_user, viewport):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh, variant)
    mover = game.seats.get(number=game.seat_to_move)
    page = browser.new_context(viewport=viewport, has_touch=True).new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, mover.user.username)
    page.goto(f"{live_url}/games/{game.pk}/")
    return page, game, 1 - mover.number


def _top_bottom(page: Page, selector: str) -> tuple[float, float]:
    box = page.eval_on_selector(
        selector,
        "el => { const r = el.getBoundingClientRect();"
        " return [r.top + scrollY, r.bottom + scrollY]; }",
    )
    return box[0], box[1]


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_on_a_phone_the_header_is_short_and_the_other_board_folds(
    browser: Browser, live_url: str, make_user, variant: str
):
    page, _game, other = _open(browser, live_url, variant, make_user, PHONE)
    screen = PHONE["height"]

    # the header: one row under 80 px, the menu behind a button
    top, bottom = _top_bottom(page, "header.site-header")
    assert top == 0 and bottom < 80
    archive = page.get_by_role("link", name="Archive")
    expect(archive).to_be_hidden()
    page.get_by_text("Menu", exact=True).click()
    expect(archive).to_be_visible()
    expect(page.get_by_role("button", name="Change language")).to_be_visible()
    page.get_by_text("Menu", exact=True).click()
    expect(archive).to_be_hidden()

    # the player's own board, whole, and the first choice of their decision
    # (a tile group to take) within the first screen and a half
    mine = "#board .mine"
    expect(page.locator(mine)).to_have_count(1)
    top, bottom = _top_bottom(page, mine)
    assert top < 1.5 * screen
    if variant == "classic":  # a Summer Pavilion board is taller: its start
        assert bottom < 1.5 * screen
    assert _top_bottom(page, "#board button.group")[1] < screen

    # the other player's board and the bag are folded; a tap opens the board
    theirs = page.locator(f"#board details[data-fold='board-{other}']")
    zone = page.locator(f"[data-zone='{BOARD_ZONE[variant].format(seat=other)}']")
    stock = page.locator(f"#board details[data-fold='{STOCK[variant]}']")
    bag = page.locator(f"[data-zone='{STOCK_ZONE}']")
    expect(theirs).not_to_have_attribute("open", "")
    expect(zone).to_be_hidden()
    expect(stock).not_to_have_attribute("open", "")
    expect(bag).to_be_hidden()
    theirs.locator("summary").tap()
    expect(zone).to_be_visible()

    # the board drawn again (choosing a take swaps it): as the player left it
    if variant == "classic":
        page.locator("#board button.group").first.click()
        page.locator("#board button.dest.legal").first.click()
        expect(page.locator("#board form.confirm-move")).to_be_visible()
    else:
        page.locator("#board button[name=take]").first.click()
        expect(page.get_by_role("button", name="Take these tiles")).to_be_visible()
    expect(theirs).to_have_attribute("open", "")
    expect(zone).to_be_visible()
    expect(bag).to_be_hidden()
    page.context.close()


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_on_a_desktop_every_board_and_the_menu_are_open(
    browser: Browser, live_url: str, make_user, variant: str
):
    page, _game, other = _open(browser, live_url, variant, make_user, DESKTOP)
    expect(page.get_by_role("link", name="Archive")).to_be_visible()
    expect(page.get_by_text("Menu", exact=True)).to_be_hidden()
    folds = page.locator("#board details[data-fold]")
    expect(folds).to_have_count(2)
    for section in folds.all():
        expect(section).to_have_attribute("open", "")
    zone = BOARD_ZONE[variant].format(seat=other)
    expect(page.locator(f"[data-zone='{zone}']")).to_be_visible()
    expect(page.locator(f"[data-zone='{STOCK_ZONE}']")).to_be_visible()
    # the headings read as before: no disclosure marker
    marker = page.eval_on_selector(
        f"#board details[data-fold='board-{other}'] > summary",
        "el => getComputedStyle(el).listStyleType",
    )
    assert marker == "none"
    page.context.close()


def _box(page: Page, selector: str) -> dict[str, float]:
    return page.eval_on_selector(
        selector,
        "el => { const r = el.getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, width: r.width, height: r.height}; }",
    )


def test_on_a_phone_confirm_keeps_the_page_where_the_tiles_land(
    browser: Browser, live_url: str, make_user
):
    """Issue #35 item 5: after Confirm the player still sees their own board,
    where their tiles landed, at the same place on the screen (no jump to the
    top of the page), and the factory they emptied keeps its size."""
    from tests.e2e.test_live_board import confirm_move
    from tests.e2e.test_place_on_board import _a_take, _engine, _group, _played

    page, game, _other = _open(browser, live_url, "classic", make_user, PHONE)
    seat = game.seat_to_move
    take = _a_take(_engine(game.pk), floor=False)
    full = _box(page, f"[data-zone='factory-{take.source}']")
    _group(page, take).click()
    page.locator(f"[data-zone='line-{seat}-{take.line}']").click()
    confirm = page.locator("#board form.confirm-move").get_by_role(
        "button", name="Confirm"
    )
    expect(confirm).to_be_visible()
    # The player reads the preview on their own board, Confirm in reach.
    page.locator("#board .mine").scroll_into_view_if_needed()
    confirm.scroll_into_view_if_needed()
    scrolled = page.evaluate("scrollY")
    mine = _box(page, "#board .mine")
    assert scrolled > 0

    confirm_move(page)
    _played(page, game.pk, game.ply)
    expect(page.locator("#board .status")).to_be_focused()
    after = _box(page, "#board .mine")
    assert page.evaluate("scrollY") > 0  # not the top of the page
    assert abs(after["top"] - mine["top"]) <= 1  # the board where it was
    line = _box(page, f"[data-zone='line-{seat}-{take.line}']")
    assert line["top"] >= 0 and line["bottom"] <= PHONE["height"]  # tiles in sight

    # The emptied factory: as large as it was full, as large as a full one
    emptied = f"[data-zone='factory-{take.source}']"
    expect(page.locator(f"{emptied} .empty-source")).to_have_count(1)
    other = next(
        f"[data-zone='factory-{index}']" for index in range(5) if index != take.source
    )
    expect(page.locator(f"{other} .empty-source")).to_have_count(0)
    for box in (_box(page, emptied), _box(page, other)):
        assert (round(box["width"]), round(box["height"])) == (
            round(full["width"]),
            round(full["height"]),
        )
    page.context.close()
