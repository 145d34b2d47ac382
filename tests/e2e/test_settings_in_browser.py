"""The settings page in Chromium (issue #25, item 13): changes in two sections
saved by the one Save; the time-zone drop-down in the page's font; with
JavaScript on, "Push notifications need JavaScript." never shows, not even
before notify.js has looked at the browser (without JavaScript it is the
page's <noscript>, read in tests/accounts/test_settings_page.py: Chromium with
scripts switched off by Playwright still parses <noscript> as text)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from accounts.models import User
from tests.e2e.test_live_board import PASSWORD, log_in

NO_JS_MESSAGE = "Push notifications need JavaScript."

# Runs before the page's scripts: each time the document changes, note
# whether the no-JavaScript message is on the screen.
WATCH = (
    """
window.__pushMessageSeen = false;
new MutationObserver(function () {
  document.querySelectorAll("body *").forEach(function (node) {
    if (node.closest("noscript")) return;
    if (node.childElementCount === 0 && node.textContent.includes("""
    + repr(NO_JS_MESSAGE)
    + """)
        && node.getClientRects().length) window.__pushMessageSeen = true;
  });
}).observe(document, { childList: true, subtree: true, characterData: true });
"""
)


def _page(browser: Browser, live_url: str, username: str) -> Any:
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(WATCH)
    log_in(page, live_url, username)
    return page


def test_one_save_keeps_the_changes_of_two_sections(
    browser: Browser, live_url: str, make_user: Any
) -> None:
    make_user("ana", PASSWORD)
    page = _page(browser, live_url, "ana")
    page.goto(f"{live_url}/accounts/settings/")
    expect(page.get_by_role("button", name="Save")).to_have_count(1)

    page.get_by_label("A daily digest").check()
    page.get_by_label("Play my forced decisions").uncheck()
    zone = page.get_by_role("combobox", name="Time zone")
    zone.select_option("Asia/Ho_Chi_Minh")
    expect(zone.locator("option:checked")).to_have_text("Ho Chi Minh")
    expect(zone.locator('optgroup[label="Asia"] option:checked')).to_have_count(1)
    page.get_by_role("button", name="Save").click()

    expect(page.get_by_text("Your settings were saved.")).to_be_visible()
    ana = User.objects.get(username="ana")
    assert ana.email_notifications == "digest"
    assert ana.play_forced is False
    assert ana.time_zone == "Asia/Ho_Chi_Minh"
    # The page drawn again shows all three, and the zone in its spaced spelling.
    expect(page.get_by_label("A daily digest")).to_be_checked()
    expect(page.get_by_label("Play my forced decisions")).not_to_be_checked()
    expect(page.get_by_text("in your time zone (Asia/Ho Chi Minh)")).to_be_visible()
    page.context.close()


def test_the_zone_list_reads_in_the_pages_font_size(
    browser: Browser, live_url: str, make_user: Any
) -> None:
    make_user("ana", PASSWORD)
    page = _page(browser, live_url, "ana")
    page.goto(f"{live_url}/accounts/settings/")
    sizes = page.evaluate(
        """() => [getComputedStyle(document.body).fontSize,
                  getComputedStyle(document.querySelector('select[name=time_zone]'))
                    .fontSize]"""
    )
    assert sizes[0] == sizes[1] == "16px"
    page.context.close()


def test_the_no_javascript_message_never_shows_with_javascript(
    browser: Browser, live_url: str, make_user: Any
) -> None:
    make_user("ana", PASSWORD)
    page = _page(browser, live_url, "ana")
    page.goto(f"{live_url}/accounts/settings/")
    status = page.locator("[data-push-status]")
    expect(status).not_to_have_text("")  # notify.js has said where push stands
    expect(page.get_by_text(NO_JS_MESSAGE)).to_be_hidden()
    assert page.evaluate("window.__pushMessageSeen") is False
    page.context.close()
