"""The player's time zone: guessed at sign-up, changed in settings, and every
time on their pages and in their e-mails shown in it, the zone named."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client
from django.utils import formats, translation

from accounts.models import User
from games import jobs
from tests.accounts.settings_form import settings_post

pytestmark = pytest.mark.django_db


def _local(moment, zone: str, format_name: str = "DATETIME_FORMAT") -> str:
    with translation.override("en"):
        return formats.date_format(moment.astimezone(ZoneInfo(zone)), format_name)


def test_the_deadline_on_the_game_page_is_in_the_players_time_zone(
    players, start_game, client_for
):
    ana = players[0]
    ana.time_zone = "Asia/Ho_Chi_Minh"
    ana.save()
    game = start_game(players[:2])
    hanoi = _local(game.turn_deadline, "Asia/Ho_Chi_Minh")
    utc = _local(game.turn_deadline, "UTC")
    assert hanoi != utc
    page = client_for(ana).get(f"/games/{game.pk}/").content.decode()
    assert f"Deadline: {hanoi} (Asia/Ho Chi Minh)" in page
    board = client_for(ana).get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    assert f"{hanoi} (Asia/Ho Chi Minh)" in board.content.decode()
    # the home page's lists give every moment in the short format (issue #25 item 15)
    home = client_for(ana).get("/").content.decode()
    short = _local(game.turn_deadline, "Asia/Ho_Chi_Minh", "SHORT_DATETIME_FORMAT")
    assert f"{short} (Asia/Ho Chi Minh)" in home
    # binh keeps UTC, named; so does a visitor who is not signed in
    other = client_for(players[1]).get(f"/games/{game.pk}/").content.decode()
    assert f"Deadline: {utc} (UTC)" in other
    assert (
        f"Deadline: {utc} (UTC)" in Client().get(f"/games/{game.pk}/").content.decode()
    )


def test_emails_show_times_in_the_recipients_time_zone(players, start_game):
    game = start_game(players[:2])
    game.refresh_from_db()
    mover = game.seats.get(number=game.seat_to_move).user
    mover.time_zone = "America/Sao_Paulo"
    mover.save()
    jobs.process_deadlines()
    [message] = mail.outbox
    when = _local(game.turn_deadline, "America/Sao_Paulo")
    assert f"Your deadline: {when} (America/Sao Paulo)." in message.body


def test_sign_up_keeps_the_browsers_time_zone(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "minji",
            "password1": "tiles-of-seoul-77",
            "password2": "tiles-of-seoul-77",
            "time_zone": "Asia/Seoul",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="minji").time_zone == "Asia/Seoul"
    page = Client().get("/accounts/signup/").content.decode()
    assert 'type="hidden" name="time_zone"' in page and "data-browser-time-zone" in page


@pytest.mark.parametrize("zone", ["", "Mars/Olympus", "\x00", "posix/UTC"])
def test_sign_up_with_no_or_an_unknown_zone_is_utc(client, zone):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "joao",
            "password1": "tiles-of-rio-77",
            "password2": "tiles-of-rio-77",
            "time_zone": zone,
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="joao").time_zone == "UTC"


def test_the_time_zone_is_changed_in_settings(players, client_for):
    ana = players[0]
    client = client_for(ana)
    response = client.post(
        "/accounts/settings/", settings_post(ana, time_zone="America/Sao_Paulo")
    )
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.time_zone == "America/Sao_Paulo"
    refused = client.post(
        "/accounts/settings/", settings_post(ana, time_zone="Mars/Olympus")
    )
    assert refused.status_code == 200
    ana.refresh_from_db()
    assert ana.time_zone == "America/Sao_Paulo"
