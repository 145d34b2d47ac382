"""Content-Security-Policy and Permissions-Policy: the headers are sent, and no
page holds what the policy blocks (inline scripts, style attributes, on...=
handlers); the Summer Pavilion's space positions, moved to CSS classes, still
sit where games/pavilion/board.py puts them."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse

from games.pavilion.board import CORNER_POINTS, SPACE_GEOMETRY

pytestmark = pytest.mark.django_db


class Inline(HTMLParser):
    """Collects what a script-src/style-src 'self' policy blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
        names = dict(attrs)
        if tag == "script" and "src" not in names:
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style>")


def inline_parts(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.found


def test_space_classes_match_the_board_geometry():
    css = (settings.BASE_DIR / "static" / "css" / "pavilion-board.css").read_text()
    rules = dict(re.findall(r"\.(pv-[a-z0-9-]+) \{ ([^}]*) \}", css))
    for (star, number), geometry in SPACE_GEOMETRY.items():
        wanted = f"left: {geometry['x']}%; top: {geometry['y']}%;"
        assert rules[f"pv-at-{star}-{number}"] == wanted
    for i, (x, y) in enumerate(CORNER_POINTS):
        assert rules[f"pv-corner-{i}"] == f"left: {x}%; top: {y}%;"


@pytest.mark.parametrize("variant", ["classic", "classic-grey", "pavilion"])
def test_pages_hold_nothing_the_policy_blocks(variant, players, start_game, client_for):
    game = start_game(players[:2], variant=variant)
    seat = game.seats.get(number=game.seat_to_move)
    client = client_for(seat.user)
    urls = [
        reverse("games:home"),
        reverse("games:detail", args=[game.pk]),
        reverse("games:replay", args=[game.pk]),
        reverse("games:archive"),
        reverse("games:leaderboard", args=[game.family]),
        reverse("profile", args=[seat.user.username]),
        reverse("rules", args=[game.family]),
        reverse("settings"),
        reverse("games:new"),
        reverse("games:import"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert inline_parts(response.content.decode()) == [], url
    partial = client.get(reverse("games:detail", args=[game.pk]), HTTP_HX_REQUEST="1")
    assert inline_parts(partial.content.decode()) == []


def test_headers(client):
    response = client.get(reverse("games:home"))
    policy = dict(
        part.strip().split(" ", 1)
        for part in response["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert (
        "'self'" in policy["connect-src"] and "wss://localhost" in policy["connect-src"]
    )
    assert "unsafe" not in response["Content-Security-Policy"]
    permissions = response["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment"):
        assert f"{feature}=()" in permissions


def test_htmx_is_told_not_to_inject_styles(client):
    html = client.get(reverse("games:home")).content.decode()
    assert '<meta name="htmx-config"' in html
    assert html.index('name="htmx-config"') < html.index("django_htmx/htmx")
    assert '"includeIndicatorStyles": false' in html
