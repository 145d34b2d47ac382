"""A follow makes the followed player's game appear in "Friends' games" (issue
#26): ana opens binh's profile and presses Follow; binh starts a game with
chloe; ana's home page lists it under "Friends' games", and its link opens the
game's page."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from accounts.models import Follow

from .test_live_board import PASSWORD, log_in, start_game


def test_a_follow_puts_the_followed_players_game_in_friends_games(
    browser: Browser, live_url: str, make_user
):
    ana = make_user("ana", PASSWORD)
    binh, chloe = make_user("binh", PASSWORD), make_user("chloe", PASSWORD)
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, "ana")

    page.goto(f"{live_url}/accounts/players/binh/")
    follow = page.locator(".follow-player")
    expect(follow).to_have_attribute("data-follows", "false")
    follow.get_by_role("button", name="Follow").click()
    expect(
        page.get_by_text("You follow binh: their games show on your home page.")
    ).to_be_visible()
    expect(follow).to_have_attribute("data-follows", "true")
    expect(follow.get_by_role("button", name="Unfollow")).to_be_visible()
    assert Follow.objects.filter(follower=ana, followed=binh).count() == 1

    friends = page.locator("section.friends-games")
    page.goto(f"{live_url}/")
    expect(friends.locator("li.empty")).to_have_count(1)

    game = start_game(binh, chloe)
    page.goto(f"{live_url}/")
    expect(friends.get_by_role("heading")).to_have_text("Friends' games")
    item = friends.locator(f'li[data-game="{game.pk}"]')
    expect(item).to_have_attribute("data-status", "active")
    expect(item.locator(".players bdi")).to_have_text(
        [s.user.username for s in game.seats.order_by("number")]
    )
    expect(item).to_contain_text("in progress")
    item.get_by_role("link", name=f"#{game.pk}").click()
    expect(page).to_have_url(f"{live_url}/games/{game.pk}/")
    expect(page.locator("#board")).to_have_attribute("data-status", "active")
    page.context.close()
