"""Issue #35 items 1 and 2, in a browser: between two strangers the chat is
there; a player who turned it off reads "ana would like to talk — turn the
chat on" and turns it on with one click (without JavaScript too); after a
block the blocked player's panel is the one a chat turned off shows, and only
the blocker reads "blocked"."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from accounts.models import User

from .test_live_board import PASSWORD, log_in, start_game
from .waits import sockets_open


def _in_thread(action):
    with ThreadPoolExecutor(1) as pool:  # the services ring from a thread
        return pool.submit(action).result()


def _messages(page):
    return page.locator("#chat .chat-messages li[data-message] .text")


def test_strangers_talk_an_off_chat_is_asked_and_a_block_does_not_tell(
    browser: Browser, live_url: str, make_user
):
    ana = make_user("ana", PASSWORD)  # the default: with everyone
    binh = make_user("binh", PASSWORD, chat=User.Chat.NOBODY)  # off for good
    game = _in_thread(lambda: start_game(ana, binh))

    ana_page = browser.new_context().new_page()
    # binh without JavaScript: every button is a plain form.
    binh_page = browser.new_context(java_script_enabled=False).new_page()
    for page, user in ((ana_page, ana), (binh_page, binh)):
        page.set_default_timeout(10_000)
        log_in(page, live_url, user.username)
        page.goto(f"{live_url}/games/{game.pk}/")
    ana_chat, binh_chat = ana_page.locator("#chat"), binh_page.locator("#chat")

    # ana's chat is on; binh's off: she is told, he is asked.
    expect(ana_chat).to_have_attribute("data-chat", "on")
    expect(ana_chat.locator(".chat-write")).to_have_count(0)
    expect(ana_chat.locator(".chat-waiting")).to_have_text(
        "binh has not turned the chat on yet: you can write as soon as they do."
    )
    expect(binh_chat).to_have_attribute("data-chat", "off")
    invite = binh_chat.locator(".chat-invite")
    expect(invite).to_have_text("ana would like to talk — turn the chat on")
    expect(binh_chat.locator(".chat-switch")).to_have_count(0)
    sockets_open(ana_page, "user", "game")

    # One click turns it on (a form POST, back at the chat); ana's open page
    # gets the box to write in without a reload.
    invite.get_by_role("button", name="turn the chat on").click()
    expect(binh_chat).to_have_attribute("data-chat", "on")
    expect(binh_chat.locator(".chat-write")).to_have_count(1)
    expect(ana_chat.locator(".chat-write")).to_have_count(1)
    binh_page.locator("#chat-text").fill("Hello ana")
    binh_chat.locator(".chat-write button[type=submit]").click()
    expect(_messages(ana_page)).to_have_text(["Hello ana"])
    ana_page.locator("#chat-text").fill("Hi binh")
    ana_chat.locator(".chat-write button[type=submit]").click()
    expect(_messages(ana_page)).to_have_text(["Hello ana", "Hi binh"])

    # What binh reads when ana merely turns her chat off in this game ...
    ana_chat.get_by_role("button", name="Turn the chat off in this game").click()
    expect(ana_chat).to_have_attribute("data-chat", "off")
    expect(ana_chat.locator(".chat-invite")).to_have_text(
        "binh would like to talk — turn the chat on"
    )
    binh_page.reload()
    expect(binh_chat.locator(".chat-waiting")).to_have_text(
        "ana has not turned the chat on yet: you can write as soon as they do."
    )
    turned_off = binh_chat.inner_text()
    ana_chat.get_by_role("button", name="turn the chat on").click()
    expect(ana_chat).to_have_attribute("data-chat", "on")

    # ... is what he reads after she blocks him: not a word of a block.
    ana_page.goto(f"{live_url}/accounts/players/binh/")
    ana_page.locator("form.block-player button").click()
    expect(ana_page.locator("form.block-player")).to_have_attribute(
        "data-blocked", "true"
    )
    binh_page.reload()
    expect(binh_chat.locator(".chat-waiting")).to_have_text(
        "ana has not turned the chat on yet: you can write as soon as they do."
    )
    assert binh_chat.inner_text() == turned_off
    assert "block" not in binh_page.locator("main").inner_text().lower()
    expect(_messages(binh_page)).to_have_text(["Hello ana", "Hi binh"])
    expect(binh_chat.locator("li[data-player=ana]")).to_have_attribute(
        "data-chat", "off"
    )
    expect(binh_chat.locator("[data-blocked]")).to_have_count(0)

    # The blocker is told.
    ana_page.goto(f"{live_url}/games/{game.pk}/")
    expect(ana_chat.locator("li[data-player=binh]")).to_contain_text("blocked")
    expect(ana_chat.locator(".chat-waiting")).to_have_text(
        "The chat is closed: you blocked the other players of this game."
    )
    for page in (ana_page, binh_page):
        page.context.close()
