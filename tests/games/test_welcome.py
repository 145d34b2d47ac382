"""A welcome (issue #35 item 8): after sign-up the home page says what to do
first — play the computer, start a game with a friend by link, how to play —
until the player's first game has started; then it is gone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services

pytestmark = pytest.mark.django_db


def _welcome(html: str) -> tuple[str, list[str]] | None:
    """The welcome on a home page: its words and its links, or None."""
    if 'class="welcome"' not in html:
        return None
    part = html.split('class="welcome"', 1)[1].split("</section>", 1)[0]
    words = " ".join(re.sub(r"<[^>]+>", " ", part.split(">", 1)[1]).split())
    return words.replace(" :", ":").replace(" ,", ",").replace(" .", "."), re.findall(
        r'<a href="([^"]+)"', part
    )


def test_a_new_player_is_welcomed_until_their_first_game(make_user, client_for):
    ana, binh = make_user("ana"), make_user("binh")
    client = client_for(ana)
    home = client.get(reverse("games:home")).text
    words, links = _welcome(home)
    assert words == (
        "Welcome, ana! Where to start "
        "Play the computer: the game starts at once, and the computer answers "
        "each move within seconds. "
        "Start a game with a friend: you get a link to send them in any messenger. "
        "Learn the rules: How to play Azul, How to play Azul: Summer Pavilion."
    )
    assert links == [
        "#h-computer",
        reverse("games:new") + "?invite_link",
        reverse("rules", args=["classic"]),
        reverse("rules", args=["pavilion"]),
    ]
    assert 'id="h-computer"' in home  # where the first link leads
    # the link game's form comes with "Invite by link" ticked
    form = client.get(links[1]).text
    box = re.search(r'<input type="checkbox" name="invite_link"[^>]*>', form)
    assert box is not None and "checked" in box.group(0)
    box = re.search(
        r'<input type="checkbox" name="invite_link"[^>]*>',
        client.get(reverse("games:new")).text,
    )
    assert box is not None and "checked" not in box.group(0)
    for link in links[2:]:
        assert client.get(link).status_code == 200

    # a game created and not started yet is not a first game
    game = services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        invite_link=True,
    )
    assert _welcome(client.get(reverse("games:home")).text) is not None
    # once it has started (binh joins by its link), the welcome is gone
    services.game_join(game_id=game.pk, user=binh, invite_token=game.invite_token)
    home = client.get(reverse("games:home")).text
    assert _welcome(home) is None
    assert "Where to start" not in home and "?invite_link" not in home


def test_the_welcome_is_gone_after_a_game_against_the_computer(make_user, client_for):
    chloe = make_user("chloe")
    client = client_for(chloe)
    assert _welcome(client.get(reverse("games:home")).text) is not None
    client.post(reverse("games:play_computer"), {"level": "easy", "variant": "classic"})
    assert _welcome(client.get(reverse("games:home")).text) is None


def test_a_visitor_gets_no_welcome(client):
    assert _welcome(client.get(reverse("games:home")).text) is None
