"""The installable site in Chromium: every page registers the service worker
for the whole site, the manifest is found, a push message becomes a
notification that names the game, and a page that cannot load shows the
offline page."""

from __future__ import annotations

import json

from playwright.sync_api import Browser

WORKER_READY = """() => navigator.serviceWorker.ready.then(r => ({
    scope: r.scope, script: r.active && r.active.scriptURL }))"""


def test_the_site_registers_its_worker_and_links_its_manifest(
    browser: Browser, live_url: str
):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/games/archive/")
    ready = page.evaluate(WORKER_READY)
    assert ready == {"scope": f"{live_url}/", "script": f"{live_url}/sw.js"}
    manifest = page.evaluate(
        """() => fetch(document.querySelector('link[rel=manifest]').href)
            .then(r => r.json())"""
    )
    assert manifest["name"] == "Azul by correspondence"
    assert manifest["display"] == "standalone"
    icons = {icon["sizes"] for icon in manifest["icons"]}
    assert icons == {"192x192", "512x512"}
    # The worker now controls the site's pages, the home page included.
    page.goto(f"{live_url}/")
    assert page.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    context.close()


def test_a_push_message_shows_a_notification_for_its_game(
    browser: Browser, live_url: str
):
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=live_url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/")
    page.evaluate(WORKER_READY)
    session = context.new_cdp_session(page)
    session.send("ServiceWorker.enable")
    registration = page.evaluate(
        "() => navigator.serviceWorker.getRegistration().then(r => r.scope)"
    )
    assert registration == f"{live_url}/"
    versions: list[dict] = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: versions.extend(event["registrations"]),
    )
    session.send("ServiceWorker.disable")
    session.send("ServiceWorker.enable")
    page.wait_for_timeout(300)
    [registration_id] = {
        r["registrationId"] for r in versions if r["scopeURL"] == f"{live_url}/"
    }
    payload = {
        "title": "Your move in Azul game 7",
        "body": "Azul (coloured wall). Deadline: soon.",
        "url": "/games/7/",
        "tag": "game-7",
    }
    session.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_url,
            "registrationId": registration_id,
            "data": json.dumps(payload),
        },
    )
    shown = None
    for _ in range(200):  # up to 20 s: a busy machine shows it late
        shown = page.evaluate(
            """() => navigator.serviceWorker.ready
                .then(r => r.getNotifications())
                .then(list => list.map(n => ({title: n.title, body: n.body,
                    tag: n.tag, url: n.data && n.data.url})))"""
        )
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == [
        {
            "title": "Your move in Azul game 7",
            "body": "Azul (coloured wall). Deadline: soon.",
            "tag": "game-7",
            "url": "/games/7/",
        }
    ]
    context.close()


def test_a_page_that_cannot_load_shows_the_offline_page(
    browser: Browser, live_url: str
):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/")
    page.evaluate(WORKER_READY)
    page.reload()  # now under the worker's control
    context.set_offline(True)
    page.goto(f"{live_url}/games/archive/")
    assert page.locator("h1").inner_text() == "You are offline"
    context.set_offline(False)
    page.goto(f"{live_url}/games/archive/")
    assert page.locator("h1").inner_text() != "You are offline"
    context.close()


def test_sign_up_takes_the_browsers_time_zone(browser: Browser, live_url: str):
    from accounts.models import User

    context = browser.new_context(timezone_id="Asia/Seoul")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/accounts/signup/")
    assert page.locator("input[name=time_zone]").input_value() == "Asia/Seoul"
    page.get_by_label("Username").fill("minji")
    page.locator("input[name=password1]").fill("tiles-of-seoul-77")
    page.locator("input[name=password2]").fill("tiles-of-seoul-77")
    page.get_by_role("button", name="Create my account").click()
    page.get_by_role("button", name="Log out").wait_for()
    assert User.objects.get(username="minji").time_zone == "Asia/Seoul"
    context.close()


def test_the_settings_page_offers_push_in_this_browser(
    browser: Browser, live_url: str, make_user
):
    from playwright.sync_api import expect

    from tests.e2e.test_live_board import PASSWORD, log_in

    make_user("ana", PASSWORD)
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, "ana")
    page.goto(f"{live_url}/accounts/settings/")
    expect(page.locator("[data-push-status]")).to_have_text(
        "Push notifications are off in this browser."
    )
    expect(
        page.get_by_role("button", name="Turn on push in this browser")
    ).to_be_visible()
    expect(
        page.get_by_role("button", name="Turn off push in this browser")
    ).to_be_hidden()
    context.close()
