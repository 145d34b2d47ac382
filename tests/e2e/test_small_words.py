"""Small words, seen in the browser (issue #35 item 7): the Korean replay's
"Scores at this position" caption in one line, on a desktop and on a phone,
and a profile's Unfollow and Block buttons apart, not touching."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, expect

from accounts.models import User
from accounts.services import follow_create
from games.models import Game
from tests.e2e.test_live_board import PASSWORD, log_in

BOX = "el => el.getBoundingClientRect().toJSON()"
LINE_HEIGHT = """el => {
  const style = getComputedStyle(el);
  return parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
}"""


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]
)
def test_the_korean_replay_s_score_caption_is_one_line(
    browser: Browser, live_url: str, viewport: dict[str, int]
):
    call_command("fill_games", 2, players=2, seed=5, stdout=StringIO())
    game = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk").first()
    assert game is not None
    for seat in game.seats.select_related("user"):  # short names: a narrow table
        User.objects.filter(pk=seat.user.pk).update(username=f"p{seat.number}")
    context = browser.new_context(viewport=viewport, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/games/{game.pk}/replay/?ply=1")
    caption = page.locator("table.replay-scores caption")
    expect(caption).to_have_text("이 시점의 점수")
    box = caption.evaluate(BOX)
    names = page.locator("table.replay-scores th").all_inner_texts()
    assert sorted(names) == ["p0", "p1"]
    assert box["height"] < 1.5 * caption.evaluate(LINE_HEIGHT)
    assert box["right"] <= viewport["width"]
    context.close()


def test_a_profile_s_unfollow_and_block_buttons_do_not_touch(
    browser: Browser, live_url: str, make_user
):
    ana, binh = make_user("ana", PASSWORD), make_user("binh", PASSWORD)
    follow_create(follower=ana, followed=binh)
    assert User.objects.filter(username="binh").exists()
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page = browser.new_context(viewport=viewport).new_page()
        page.set_default_timeout(10_000)
        log_in(page, live_url, "ana")
        page.goto(f"{live_url}/accounts/players/binh/")
        unfollow = page.get_by_role("button", name="Unfollow")
        block = page.get_by_role("button", name="Block", exact=True)
        expect(unfollow).to_be_visible()
        expect(block).to_be_visible()
        top, bottom = unfollow.evaluate(BOX), block.evaluate(BOX)
        assert bottom["top"] - top["bottom"] >= 8, viewport
        page.context.close()
