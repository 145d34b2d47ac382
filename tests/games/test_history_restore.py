"""htmx's history restore (Back after its history cache missed) gets whole pages.

htmx 2 sends ``HX-Request`` with ``HX-History-Restore-Request`` and swaps the answer
into ``<body>``: a partial there would be the page without its header. The answers
carry ``Vary`` on both headers, so no cache serves a partial for a page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import selectors

from .helpers import classic_zones
from .marks import zones

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
RESTORE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}
PAGES = {
    "game": lambda game: reverse("games:detail", args=[game.pk]),
    "replay": lambda game: reverse("games:replay", args=[game.pk]),
}


def _vary(response) -> set[str]:
    return {name.strip().lower() for name in response.get("Vary", "").split(",")}


@pytest.mark.parametrize("page", PAGES)
def test_history_restore_gets_the_whole_page_with_the_board(
    client_for, players, start_game, page
):
    game = start_game(players[:2])
    response = client_for(players[0]).get(PAGES[page](game), **RESTORE)
    text = response.text
    assert response.status_code == 200
    assert text.lstrip().lower().startswith("<!doctype html>")
    assert text.count("<html") == 1
    assert text.count('class="site-header"') == 1
    assert zones(text) == classic_zones(selectors.game_engine(game))


@pytest.mark.parametrize("page", PAGES)
def test_an_htmx_request_still_gets_the_partial(client_for, players, start_game, page):
    game = start_game(players[:2])
    response = client_for(players[0]).get(PAGES[page](game), **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert 'class="site-header"' not in response.text
    assert zones(response.text) == classic_zones(selectors.game_engine(game))


def test_history_restore_of_home_gets_the_whole_page(client_for, players):
    client = client_for(players[0])
    partial = client.get(reverse("games:home"), **HTMX).text
    page = client.get(reverse("games:home"), **RESTORE).text
    assert "<html" not in partial and 'id="home-lists"' in partial
    assert page.count("<html") == 1
    assert page.count('class="site-header"') == 1
    assert page.count('id="home-lists"') == 1


@pytest.mark.parametrize("page", [*PAGES, "home"])
@pytest.mark.parametrize(
    "headers", [{}, HTMX, RESTORE], ids=["plain", "htmx", "restore"]
)
def test_pages_with_a_partial_vary_on_the_htmx_headers(
    client_for, players, start_game, page, headers
):
    game = start_game(players[:2])
    url = reverse("games:home") if page == "home" else PAGES[page](game)
    response = client_for(players[0]).get(url, **headers)
    assert response.status_code == 200
    assert {"hx-request", "hx-history-restore-request"} <= _vary(response)
