"""Starting a game in a browser (issue #25 items 6 and 10): the new-game form
offers only the seats its player count has, its "Rated" box stands where the
other fields do, and "Game created." shows once, gone when the board is drawn
again or the page is loaded again."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from accounts.services import computer_player
from games.models import Game
from tests.e2e.test_live_board import PASSWORD, log_in


def _only_game() -> Game:
    with ThreadPoolExecutor(1) as pool:  # the ORM outside Playwright's loop
        return pool.submit(
            lambda: Game.objects.prefetch_related("seats").get()
        ).result()


def _medium() -> object:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(computer_player, level="medium").result()


def test_the_seats_follow_the_player_count_and_game_created_shows_once(
    browser: Browser, live_url: str, make_user
):
    ana = make_user("ana", PASSWORD)
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, "ana")
    page.goto(f"{live_url}/games/new/")

    players = page.locator("select[name=players]")
    seats = {n: page.locator(f"select[name=seat_{n}]") for n in (1, 2, 3)}
    expect(players).to_have_value("2")
    expect(seats[1]).to_be_visible()
    expect(seats[1]).to_be_enabled()
    for n in (2, 3):  # seats 3 and 4: not in a two-player game
        expect(seats[n]).to_be_hidden()
        expect(seats[n]).to_be_disabled()
    expect(page.get_by_text("Seat 3:")).to_be_hidden()

    players.select_option("4")
    for seat in seats.values():
        expect(seat).to_be_visible()
        expect(seat).to_be_enabled()
    seats[3].select_option("strong")  # then the count goes back down
    players.select_option("3")
    expect(seats[2]).to_be_visible()
    expect(seats[3]).to_be_hidden()
    players.select_option("2")
    seats[1].select_option("medium")

    # The "Rated" box sits under its label at the fields' left edge.
    rated = page.locator("input[name=rated]").bounding_box()
    field = players.bounding_box()
    label = page.locator("label[for=id_rated]").bounding_box()
    assert rated and field and label
    assert abs(rated["x"] - field["x"]) <= 2
    assert rated["y"] >= label["y"] + label["height"] - 1

    page.get_by_role("button", name="Create game").click()
    expect(page.locator("#board")).to_be_visible()
    game = _only_game()
    assert game.players == 2 and game.status == Game.Status.ACTIVE
    assert [s.user_id for s in game.seats.all()] == [ana.pk, _medium().pk]

    messages = page.locator("#main > .messages li")
    expect(messages).to_have_text(["Game created."])
    # The board drawn again, as live.js does when the socket rings (a move,
    # the computer's move): the message was news of the creation only.
    page.evaluate(
        """() => {
          const board = document.getElementById("board");
          const url = document.getElementById("live-game").dataset.boardUrl;
          const where = {source: board, target: board, swap: "outerHTML"};
          return htmx.ajax("GET", url, where);
        }"""
    )
    expect(messages).to_have_count(0)
    expect(page.locator("#board")).to_be_visible()
    page.reload()
    expect(page.locator("#board")).to_be_visible()
    expect(page.get_by_text("Game created.")).to_have_count(0)
