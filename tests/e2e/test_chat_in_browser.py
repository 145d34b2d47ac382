"""Two people talk in a game (issue #26 item 3): a quick phrase written in
Korean is read in Portuguese on the other's open page without a reload; a mute
hides the muted player's words from the muter only; a report reaches the
admins' list; a block stops a message and its blocked player is not told."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from accounts.models import User
from accounts.services import follow_create
from chat.models import Report
from games.models import Game

from .test_live_board import PASSWORD, log_in, start_game
from .waits import sockets_open


def _in_thread(action):
    with ThreadPoolExecutor(1) as pool:  # the services ring from a thread
        return pool.submit(action).result()


def _messages(page):
    return page.locator("#chat .chat-messages li[data-message] .text")


def test_talk_mute_report_and_block_between_two_people(
    browser: Browser, live_url: str, make_user
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    follow_create(follower=ana, followed=binh)
    follow_create(follower=binh, followed=ana)  # friends (the chat is on anyway)
    game = _in_thread(lambda: start_game(ana, binh))

    pages = {}
    for user, language in ((ana, "ko"), (binh, "pt-br")):
        page = browser.new_context().new_page()
        page.set_default_timeout(10_000)
        log_in(page, live_url, user.username)
        User.objects.filter(pk=user.pk).update(language=language)
        page.goto(f"{live_url}/games/{game.pk}/")
        expect(page.locator("#chat")).to_have_attribute("data-chat", "on")
        pages[user.username] = page
    ana_page, binh_page = pages["ana"], pages["binh"]
    binh_page.evaluate("window.__notReloaded = true")
    for page in pages.values():
        sockets_open(page, "user", "game")

    # A quick phrase, pressed in Korean, read in Portuguese (live)
    ana_page.locator("#chat").get_by_role("button", name="행운을 빌어요!").click()
    expect(_messages(ana_page)).to_have_text(["행운을 빌어요!"])
    expect(_messages(binh_page)).to_have_text(["Boa sorte!"])
    assert binh_page.evaluate("window.__notReloaded") is True

    # Typed text goes as it is; the answer reaches ana's open page
    binh_page.locator("#chat-text").fill("Obrigado, igualmente")
    binh_page.locator("#chat .chat-write button[type=submit]").click()
    expect(_messages(binh_page)).to_have_text(["Boa sorte!", "Obrigado, igualmente"])
    expect(_messages(ana_page)).to_have_text(["행운을 빌어요!", "Obrigado, igualmente"])
    expect(binh_page.locator("#chat-text")).to_have_value("")

    # ana reports binh's message: it is in the admins' list
    ana_page.locator("#chat li[data-author=binh] form.report button").click()
    expect(ana_page.locator("#chat li[data-author=binh] .reported")).to_have_count(1)
    make_user("root", PASSWORD, is_staff=True, is_superuser=True)
    admin = browser.new_context().new_page()
    admin.goto(f"{live_url}/admin/login/?next=/admin/chat/report/")
    admin.locator("#id_username").fill("root")
    admin.locator("#id_password").fill(PASSWORD)
    admin.locator("input[type=submit]").click()
    expect(admin.locator("#result_list tbody tr")).to_have_count(1)
    expect(admin.locator("#result_list tbody tr")).to_contain_text(
        "Obrigado, igualmente"
    )
    assert Report.objects.get().reporter == ana

    # ana mutes binh: his next words reach his own page, not hers
    ana_page.locator("#chat li[data-player=binh] form button").click()
    expect(ana_page.locator("#chat li[data-player=binh]")).to_have_attribute(
        "data-muted", "1"
    )
    binh_page.locator("#chat-text").fill("Você está aí?")
    binh_page.locator("#chat .chat-write button[type=submit]").click()
    expect(_messages(binh_page)).to_have_text(
        ["Boa sorte!", "Obrigado, igualmente", "Você está aí?"]
    )
    ana_page.reload()
    expect(_messages(ana_page)).to_have_text(["행운을 빌어요!"])

    # ana blocks binh: he can neither invite her nor write to her
    ana_page.goto(f"{live_url}/accounts/players/binh/")
    ana_page.locator("form.block-player button").click()
    expect(ana_page.locator("form.block-player")).to_have_attribute(
        "data-blocked", "true"
    )
    binh_page.goto(f"{live_url}/games/new/")
    binh_page.locator("#id_invite").fill("ana")
    binh_page.locator("main form button[type=submit]").last.click()
    # He is not told (issue #35): his invitation stands as an unanswered
    # one would, and ana is neither shown it nor told.
    expect(binh_page).to_have_url(re.compile(r"/games/\d+/$"))
    invited = Game.objects.get(creator=binh, status=Game.Status.OPEN)
    ana_page.goto(f"{live_url}/")
    expect(ana_page.locator(f"main a[href='/games/{invited.pk}/']")).to_have_count(0)
    binh_page.goto(f"{live_url}/games/{game.pk}/")
    expect(binh_page.locator("#chat .chat-write")).to_have_count(0)
    # He is not told (issue #35): to him ana has merely turned the chat off.
    expect(binh_page.locator("#chat li[data-player=ana]")).to_have_attribute(
        "data-chat", "off"
    )
    expect(binh_page.locator("#chat [data-blocked]")).to_have_count(0)
    for page in (ana_page, binh_page, admin):
        page.context.close()
