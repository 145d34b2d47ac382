"""An HTMX action whose session has ended goes to the log-in page as a whole page
(accounts.middleware.HtmxLoginRedirectMiddleware), instead of htmx swapping the
log-in page into the board."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Move

pytestmark = pytest.mark.django_db

MOVE = {"expected_ply": "1", "kind": "take", "source": "0", "colour": "red"}


def test_htmx_move_without_a_session_redirects_the_page(client, players, start_game):
    game = start_game(players[:2])
    page = reverse("games:detail", args=[game.pk])
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {**MOVE, "line": "0"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver{page}?group=0:red",
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == (
        f"{reverse('login')}?next=%2Fgames%2F{game.pk}%2F%3Fgroup%3D0%3Ared"
    )
    assert not response.content
    assert Move.objects.filter(game=game).count() == game.ply


def test_a_page_on_another_site_is_not_the_next_page(client, players, start_game):
    game = start_game(players[:2])
    action = reverse("games:resign", args=[game.pk])
    response = client.post(
        action,
        {},
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="https://elsewhere.example/games/1/",
    )
    assert response.status_code == 200
    # Not the action either: it only takes POSTs.
    assert response["HX-Redirect"] == reverse("login")


def test_a_plain_form_post_logs_in_back_to_its_page(client, players, start_game):
    game = start_game(players[:2])
    page = reverse("games:detail", args=[game.pk])
    move = reverse("games:move", args=[game.pk])
    plain = client.post(
        move, {**MOVE, "line": "0"}, HTTP_REFERER=f"http://testserver{page}"
    )
    assert plain.status_code == 302
    assert plain["Location"] == f"{reverse('login')}?next=%2Fgames%2F{game.pk}%2F"
    assert "HX-Redirect" not in plain
    # Without a page of this site to go back to, no next at all.
    elsewhere = client.post(
        move, {**MOVE, "line": "0"}, HTTP_REFERER="https://elsewhere.example/"
    )
    assert elsewhere["Location"] == reverse("login")
    assert Move.objects.filter(game=game).count() == game.ply


def test_other_redirects_are_unchanged(client, client_for, players):
    # A page that needs a login keeps its own URL as next.
    settings_page = client.get(reverse("settings"))
    assert settings_page["Location"] == (
        f"{reverse('login')}?next={reverse('settings')}"
    )
    # A signed-in lobby action answers its own redirect, HTMX or not.
    open_game = client_for(players[0]).post(
        reverse("games:new"),
        {"variant": "classic", "players": "2", "time_control": "daily"},
        HTTP_HX_REQUEST="true",
    )
    assert open_game.status_code == 302
    assert "HX-Redirect" not in open_game
