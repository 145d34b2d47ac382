"""Two people play again (issue #26 item 1): one presses "Play again" on the
finished game, the other's open page of it shows the offer without reloading,
they accept, and the rematch starts with the seats moved one place on."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from games import services
from games.models import Game

from .test_live_board import PASSWORD, log_in, start_game
from .waits import sockets_open


def test_a_rematch_offered_live_accepted_and_seated_one_place_on(
    browser: Browser, live_url: str, make_user
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    game = start_game(ana, binh)
    with ThreadPoolExecutor(1) as pool:  # the services ring from a thread
        pool.submit(lambda: services.game_resign(game_id=game.pk, user=binh)).result()
    game.refresh_from_db()
    second = [ana, binh][1 - game.first_seat]  # moved second: starts the rematch

    pages = {}
    for user in (ana, binh):
        page = browser.new_context().new_page()
        page.set_default_timeout(10_000)
        log_in(page, live_url, user.username)
        page.goto(f"{live_url}/games/{game.pk}/")
        expect(page.locator("#board .status")).to_have_text(
            "The game ended by resignation."
        )
        pages[user.username] = page
    binh_page = pages["binh"]
    binh_page.evaluate("window.__notReloaded = true")
    sockets_open(binh_page, "user", "game")

    ana_page = pages["ana"]
    ana_page.get_by_role("button", name="Play again").click()
    rematch = Game.objects.get(rematch_of=game)
    expect(ana_page).to_have_url(f"{live_url}/games/{rematch.pk}/")
    expect(ana_page.locator(".seats li")).to_have_text(
        [
            "ana" if second == ana else "binh — invited, not answered yet",
            "binh — invited, not answered yet" if second == ana else "ana",
        ]
    )

    # binh's page of the finished game shows the offer, live
    offer = binh_page.locator("#board .rematch")
    expect(offer).to_contain_text(f"ana offers a rematch: game {rematch.pk}.")
    assert binh_page.evaluate("window.__notReloaded") is True
    offer.get_by_role("button", name="Accept the rematch").click()
    expect(binh_page).to_have_url(f"{live_url}/games/{rematch.pk}/")
    expect(binh_page.locator("#board")).to_have_attribute("data-status", "active")
    players = binh_page.locator("p.players a")
    expect(players).to_have_text(
        [second.username, ({ana, binh} - {second}).pop().username]
    )
    expect(
        binh_page.get_by_role("link", name=f"A rematch of game {game.pk}")
    ).to_be_visible()
    # ana's waiting page becomes the board, the rematch's first player to move
    expect(ana_page.locator("#board")).to_have_attribute("data-status", "active")
    mover = ana_page if second == ana else binh_page
    expect(mover.locator("#board .status")).to_contain_text("Your move.")
    for page in pages.values():
        page.context.close()
