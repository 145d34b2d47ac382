"""The settings page (issue #25, item 13): one form with one Save, so a change
in one section is kept when another section changes too; the time zones grouped
by region, each zone spelled one way wherever it is shown; the no-JavaScript
push message only where JavaScript is off."""

from __future__ import annotations

import re
from datetime import time
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User

from .settings_form import settings_post

pytestmark = pytest.mark.django_db

URL = "/accounts/settings/"


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _settings_form(page: str) -> str:
    return page.split('<form method="post" class="settings-form"', 1)[1].split(
        "</form>", 1
    )[0]


def test_the_page_has_one_save_for_every_preference(
    make_user: Any, client_for: Any
) -> None:
    page = client_for(make_user("ana")).get(URL).content.decode()
    assert len(re.findall(r">Save</button>", page)) == 1
    form = _settings_form(page)
    assert ">Save</button>" in form
    for name in ("email_notifications", "notify_turn", "remind_2h", "quiet_start"):
        assert f'name="{name}"' in form
    assert 'name="time_zone"' in form and 'name="play_forced"' in form
    # Actions with buttons of their own stay outside it.
    assert "Start my vacation now" not in form and "data-push-on" not in form


def test_one_save_keeps_changes_made_in_two_sections(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    client = client_for(ana)
    answer = client.post(
        URL,
        settings_post(
            ana,
            email_notifications="digest",
            notify_turn="push",
            time_zone="America/Sao_Paulo",
            play_forced=False,
            remind_1h=True,
        ),
    )
    assert answer.status_code == 302
    ana.refresh_from_db()
    assert ana.email_notifications == "digest"
    assert ana.notify_turn == "push"
    assert ana.time_zone == "America/Sao_Paulo"
    assert ana.play_forced is False and ana.confirm_moves is True
    assert ana.reminder_hours == [24, 2, 1]
    page = client.get(URL).content.decode()
    assert "Your settings were saved." in _text(page)


def test_a_refused_save_keeps_every_section_as_typed_and_saves_nothing(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    page = client_for(ana).post(
        URL,
        settings_post(
            ana,
            email_notifications="digest",
            time_zone="Asia/Seoul",
            quiet_start=time(22, 0),
        ),
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert "Nothing was saved: correct the fields marked below." in _text(html)
    assert "both a start and an end" in html
    assert re.search(
        r'<input type="radio" name="email_notifications" value="digest"'
        r"[^>]* checked",
        html,
    )
    assert re.search(r'<option value="Asia/Seoul" selected>', html)
    assert 'name="quiet_start" value="22:00"' in html
    ana.refresh_from_db()
    assert ana.email_notifications == "each" and ana.time_zone == "UTC"
    assert ana.quiet_start is None


def test_the_time_zones_are_grouped_by_region_with_spaced_city_names(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana", time_zone="Asia/Ho_Chi_Minh")
    page = client_for(ana).get(URL).content.decode()
    select = page.split('name="time_zone"', 1)[1].split("</select>", 1)[0]
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups[:3] == ["Africa", "America", "Antarctica"]
    assert {"Asia", "Europe", "Pacific Ocean"} <= set(groups)
    asia = select.split('<optgroup label="Asia">', 1)[1].split("</optgroup>", 1)[0]
    assert '<option value="Asia/Ho_Chi_Minh" selected>Ho Chi Minh</option>' in asia
    labels = re.findall(r"<option [^>]*>([^<]*)</option>", select)
    assert len(labels) > 400 and not [label for label in labels if "_" in label]
    assert select.split("<optgroup", 1)[0].count("<option") == 1  # UTC, first


def test_a_zone_is_spelled_one_way_wherever_it_is_shown(
    make_user: Any, start_game: Any, client_for: Any
) -> None:
    ana = make_user("ana", time_zone="America/Argentina/Buenos_Aires")
    ana.quiet_start, ana.quiet_end = time(22, 0), time(7, 0)
    ana.save()
    client = client_for(ana)
    settings_page = _text(client.get(URL).content.decode())
    assert "in your time zone (America/Argentina/Buenos Aires)" in settings_page
    game = start_game([ana, make_user("binh")])
    for page in (
        _text(client.get("/").content.decode()),
        _text(client.get(reverse("games:detail", args=[game.pk])).content.decode()),
    ):
        assert "(America/Argentina/Buenos Aires)" in page
        assert "Buenos_Aires" not in page


def test_the_no_javascript_push_message_is_only_for_no_javascript(
    make_user: Any, client_for: Any
) -> None:
    page = client_for(make_user("ana")).get(URL).content.decode()
    assert re.search(r"<p data-push-status role=\"status\"></p>", page)
    (noscript,) = re.findall(r"<noscript>(.*?)</noscript>", page, flags=re.S)
    assert _text(noscript) == "Push notifications need JavaScript."
    assert page.count("Push notifications need JavaScript.") == 1


def test_an_unknown_action_is_refused_and_changes_nothing(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    data = settings_post(ana, play_forced=False) | {"action": "play"}
    answer = client_for(ana).post(URL, data, follow=True)
    assert "That form could not be read." in _text(answer.content.decode())
    assert User.objects.get(pk=ana.pk).play_forced is True
