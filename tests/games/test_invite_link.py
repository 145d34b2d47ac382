"""Invite by link (issue #26 item 2; docs/together.md, "Invite by link"): a game
whose open seats go to whoever has its secret link; the link's page shows the
game and its seats, takes a seat in one click (a visitor signs up or logs in on
the way), and stops working once the game started, is full or called off."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import block_create
from games import clock, selectors, services
from games.models import Game, Seat
from tests.conftest import days_per_move_game

pytestmark = pytest.mark.django_db

PASSWORD = "tiles-and-patterns-9"
DEAD = "This invitation link no longer works"


def _link_game(creator, *, players: int = 2, **kwargs) -> Game:
    days_per_move = kwargs.pop("days_per_move", None)
    game = services.game_create(
        creator=creator,
        variant=kwargs.pop("variant", "classic"),
        players=players,
        rated=kwargs.pop("rated", False),
        invite_link=True,
        **kwargs,
    )
    if days_per_move is not None:  # a game created before the bank clock
        days_per_move_game(game, days_per_move)
    return game


def _link(game: Game) -> str:
    return reverse("games:link", kwargs={"token": game.invite_token})


def _words(html: str, start: str, end: str) -> str:
    """The text of ``html`` from the first ``start`` to the next ``end``, tags
    taken out, spaces folded."""
    part = html.split(start, 1)[1].split(end, 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", part.split(">", 1)[1]).split())


def _seats(game: Game) -> list[tuple[str | None, str]]:
    return [
        (seat.user.username if seat.user else None, seat.invite_status)
        for seat in Seat.objects.filter(game=game).order_by("number")
    ]


def _seat_items(html: str) -> list[str]:
    """The seat list's entries, as they read."""
    items = html.split('class="seats', 1)[1].split("</ol>", 1)[0]
    return [
        " ".join(re.sub(r"<[^>]+>", "", item).split())
        for item in re.findall(r"<li>(.*?)</li>", items, re.S)
    ]


def _shown_link(html: str) -> str | None:
    found = re.search(r'id="invite-link-url"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else None


def _messages(html: str) -> list[str]:
    block = html.split('class="messages"', 1)
    if len(block) < 2:
        return []
    items = re.findall(r"<li[^>]*>(.*?)</li>", block[1].split("</ul>", 1)[0], re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", item).split()) for item in items]


def _signup_data(username: str, **extra: str) -> dict[str, str]:
    return {
        "username": username,
        "email": f"{username}@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }


# creating


def test_the_new_game_form_makes_a_link_game_only_its_creator_sees_the_link(
    players, client_for
):
    ana, binh = players[:2]
    answer = client_for(ana).post(
        reverse("games:new"),
        {
            "variant": "classic",
            "players": 3,
            "time_control": "daily",
            "rated": "on",
            "invite": "binh",
            "invite_link": "on",
        },
    )
    game = Game.objects.get()
    assert answer["Location"] == reverse("games:detail", args=[game.pk])
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", game.invite_token)
    assert _seats(game) == [("ana", "joined"), ("binh", "invited"), (None, "open")]

    page = client_for(ana).get(reverse("games:detail", args=[game.pk])).text
    assert _shown_link(page) == f"http://testserver/join/{game.invite_token}/"
    assert "js/copy.js" in page
    # nobody else sees it: not an invitee, not another player, not a visitor
    for client in (client_for(binh), client_for(players[2]), Client()):
        other = client.get(reverse("games:detail", args=[game.pk])).text
        assert _shown_link(other) is None
        assert game.invite_token not in other


def test_a_game_without_a_link_has_no_token(players):
    game = services.game_create(
        creator=players[0], variant="classic", players=2, rated=False
    )
    assert game.invite_token is None


def test_two_link_games_get_different_tokens(players):
    first, second = _link_game(players[0]), _link_game(players[1])
    assert first.invite_token != second.invite_token


def test_a_link_with_no_seat_left_for_it_is_refused_and_nothing_is_made(
    players, client_for
):
    answer = client_for(players[0]).post(
        reverse("games:new"),
        {
            "variant": "classic",
            "players": 2,
            "time_control": "daily",
            "invite": "binh",
            "invite_link": "on",
        },
    )
    assert answer.status_code == 200
    assert answer.context["form"].non_field_errors() == [
        "No seat is left open for the invitation link: invite fewer players, "
        "take a computer out, or choose more players."
    ]
    assert not Game.objects.exists()


def test_a_link_game_is_not_in_the_lobby(players, client_for):
    ana, binh = players[:2]
    hidden = _link_game(ana)
    listed = services.game_create(
        creator=ana, variant="classic", players=2, rated=False
    )
    assert list(selectors.game_list_open(user=binh)) == [listed]
    home = client_for(binh).get(reverse("games:home")).text
    assert reverse("games:detail", args=[listed.pk]) in home
    assert reverse("games:detail", args=[hidden.pk]) not in home
    assert hidden.invite_token not in home


# the link's page


def test_the_link_page_shows_the_settings_and_who_is_in(players):
    ana, binh = players[:2]
    game = _link_game(ana, players=3, days_per_move=5, rated=True, invitees=[binh])
    page = Client().get(_link(game))
    assert page.status_code == 200
    html = page.text
    assert _words(html, "<h1", "</h1>") == "ana invites you to play"
    assert _words(html, 'id="h-invitation"', "</h2>") == "Azul (coloured wall)"
    assert _words(html, '<p class="meta"', "</p>") == (
        "3 players, 5 days per move, rated — How to play"
    )
    assert _seat_items(html) == [
        "ana",
        "binh — invited, not answered yet",
        "open seat",
    ]
    # a visitor: sign up (or log in) on the way to the seat
    buttons = re.findall(r"<button[^>]*>([^<]*)</button>", html.split("<main", 1)[1])
    assert buttons == ["Sign up and take the seat", "Log in and take the seat"]


def test_a_signed_in_player_takes_the_seat_and_the_game_starts_when_full(
    players, client_for
):
    ana, binh = players[:2]
    game = _link_game(ana)
    page = client_for(binh).get(_link(game)).text
    buttons = re.findall(r"<button[^>]*>([^<]*)</button>", page.split("<main", 1)[1])
    assert buttons == ["Take the seat"]

    client = client_for(binh)
    answer = client.post(_link(game))
    assert answer["Location"] == reverse("games:detail", args=[game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert _seats(game) == [("ana", "joined"), ("binh", "joined")]
    shown = client.get(answer["Location"])
    assert _messages(shown.text) == ["You took the seat."]


def test_the_link_seats_one_player_at_a_time_until_the_game_is_full(
    players, client_for
):
    ana, binh, chloe, dae = players
    game = _link_game(ana, players=3)
    client_for(binh).post(_link(game))
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    assert _seat_items(Client().get(_link(game)).text) == ["ana", "binh", "open seat"]
    # binh, seated, is led to the game page; chloe takes the last seat
    again = client_for(binh).get(_link(game))
    assert again["Location"] == reverse("games:detail", args=[game.pk])
    client_for(chloe).post(_link(game))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert _seats(game) == [("ana", "joined"), ("binh", "joined"), ("chloe", "joined")]
    # full: dae finds the link dead, and his POST changes nothing
    dead = client_for(dae).get(_link(game))
    assert dead.status_code == 410 and DEAD in dead.text
    refused = client_for(dae).post(_link(game))
    assert refused.status_code == 410
    assert _seats(game)[-1] == ("chloe", "joined")


def test_the_creator_opening_the_link_is_led_to_the_game_page(players, client_for):
    game = _link_game(players[0])
    answer = client_for(players[0]).get(_link(game))
    assert answer["Location"] == reverse("games:detail", args=[game.pk])


# a visitor without an account


def test_a_visitor_signs_up_and_is_seated_in_one_flow(players):
    ana = players[0]
    game = _link_game(ana)
    visitor = Client()
    answer = visitor.post(_link(game), {"then": "signup"})
    signup = f"{reverse('signup')}?next=%2Fjoin%2F{game.invite_token}%2F"
    assert (answer.status_code, answer["Location"]) == (303, signup)
    form = visitor.get(signup).text
    assert f'name="next" value="/join/{game.invite_token}/"' in form
    assert _seats(game)[1] == (None, "open")  # not before the account exists

    answer = visitor.post(
        reverse("signup"), _signup_data("eun", next=_link(game)), follow=True
    )
    assert answer.redirect_chain == [
        (_link(game), 302),
        (reverse("games:detail", args=[game.pk]), 302),
    ]
    assert _seats(game) == [("ana", "joined"), ("eun", "joined")]
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert _messages(answer.text) == ["You took the seat."]


def test_a_visitor_with_an_account_logs_in_and_is_seated(players, make_user):
    ana = players[0]
    make_user("eun", password=PASSWORD)
    game = _link_game(ana, players=3)
    visitor = Client()
    answer = visitor.post(_link(game), {"then": "login"})
    assert (answer.status_code, answer["Location"]) == (
        303,
        f"{reverse('login')}?next=%2Fjoin%2F{game.invite_token}%2F",
    )
    answer = visitor.post(
        reverse("login"),
        {"username": "eun", "password": PASSWORD, "next": _link(game)},
        follow=True,
    )
    assert answer.redirect_chain[-1] == (
        reverse("games:detail", args=[game.pk]),
        302,
    )
    assert _seats(game) == [("ana", "joined"), ("eun", "joined"), (None, "open")]


def test_a_sign_up_without_the_wish_takes_no_seat(players):
    """Only the link page's POST asks for the seat: a sign-up that merely comes
    back to the link (``next``) shows it, with its button."""
    game = _link_game(players[0])
    visitor = Client()
    answer = visitor.post(
        reverse("signup"), _signup_data("eun", next=_link(game)), follow=True
    )
    assert answer.redirect_chain == [(_link(game), 302)]
    assert _seats(game)[1] == (None, "open")
    assert "Take the seat" in answer.text


def test_a_wish_an_hour_old_takes_no_seat(players, monkeypatch):
    game = _link_game(players[0])
    visitor = Client()
    visitor.post(_link(game), {"then": "signup"})
    later = timezone.now() + timedelta(hours=1, minutes=1)
    monkeypatch.setattr(clock, "now", lambda: later)
    visitor.post(reverse("signup"), _signup_data("eun", next=_link(game)))
    assert _seats(game)[1] == (None, "open")


def test_a_seat_taken_meanwhile_is_told_after_sign_up(players, client_for):
    ana, binh = players[:2]
    game = _link_game(ana)
    visitor = Client()
    visitor.post(_link(game), {"then": "signup"})
    client_for(binh).post(_link(game))  # binh is quicker
    answer = visitor.post(
        reverse("signup"), _signup_data("eun", next=_link(game)), follow=True
    )
    assert answer.status_code == 410 and DEAD in answer.text
    assert User.objects.filter(username="eun").exists()  # the account stands
    assert _messages(answer.text) == ["This game is not open any more."]
    assert _seats(game) == [("ana", "joined"), ("binh", "joined")]


@pytest.mark.parametrize(
    ("next_page", "onward"),
    [
        ("https://evil.example/", "/"),
        ("//evil.example/", "/"),
        ("/games/archive/", "/games/archive/"),
        # an address, not a view's name to look up (a server error once)
        ("9223372036854775808", "9223372036854775808"),
    ],
)
def test_sign_up_goes_to_a_next_on_this_site_only(client, next_page, onward):
    answer = client.post(reverse("signup"), _signup_data("eun", next=next_page))
    assert answer.status_code == 302 and answer["Location"] == onward
    assert User.objects.filter(username="eun").exists()


# a link that no longer works


@pytest.mark.parametrize(
    "token",
    ["AAAAAAAAAAAAAAAAAAAAAA", "x" * 400, "no%20such", "%00", "a.b", "é"],
)
def test_an_unknown_or_malformed_token_gets_the_dead_link_page(token, players):
    _link_game(players[0])
    answer = Client().get(f"/join/{token}/")
    assert answer.status_code == 404
    assert _words(answer.text, "<h1", "</h1>") == DEAD


def test_the_dead_link_page_tells_nothing_of_the_game(players, client_for):
    ana, binh = players[:2]
    game = _link_game(ana, variant="pavilion")
    services.game_cancel(game_id=game.pk, user=ana)
    for client in (Client(), client_for(binh)):
        answer = client.get(_link(game))
        assert answer.status_code == 410
        main = answer.text.split("<main", 1)[1]
        assert DEAD in main
        assert "ana" not in main and "Pavilion" not in main
        assert f"/games/{game.pk}/" not in main


def test_a_cancelled_game_s_link_seats_nobody(players, client_for):
    ana, binh = players[:2]
    game = _link_game(ana)
    services.game_cancel(game_id=game.pk, user=ana)
    assert client_for(binh).post(_link(game)).status_code == 410
    assert _seats(game)[1] == (None, "open")
    # nor does the creator's own link lead to the called-off game
    assert client_for(ana).get(_link(game)).status_code == 410


# refusals


def test_a_player_blocked_by_the_creator_is_refused_and_nothing_changes(
    players, client_for
):
    ana, binh = players[:2]
    game = _link_game(ana)
    block_create(blocker=ana, blocked=binh)
    answer = client_for(binh).post(_link(game), follow=True)
    assert answer.redirect_chain == [(_link(game), 302)]
    assert _messages(answer.text) == [
        "You cannot join this game: there is a block between you and one of "
        "its players."
    ]
    assert _seats(game)[1] == (None, "open")


def test_a_player_who_blocks_the_creator_is_refused_too(players, client_for):
    ana, binh = players[:2]
    game = _link_game(ana)
    block_create(blocker=binh, blocked=ana)
    client_for(binh).post(_link(game))
    assert _seats(game)[1] == (None, "open")


def test_a_block_with_a_seated_player_refuses_too(players, client_for):
    ana, binh, chloe = players[:3]
    game = _link_game(ana, players=3)
    client_for(binh).post(_link(game))
    block_create(blocker=binh, blocked=chloe)
    client_for(chloe).post(_link(game))
    assert _seats(game) == [("ana", "joined"), ("binh", "joined"), (None, "open")]


def test_the_game_page_offers_no_join_and_the_plain_join_is_refused(
    players, client_for
):
    """Knowing the game's number is not having the link: the game page has no
    "Join this game" for it, and a forged join changes nothing."""
    ana, binh = players[:2]
    game = _link_game(ana)
    page = client_for(binh).get(reverse("games:detail", args=[game.pk])).text
    assert "Join this game" not in page
    answer = client_for(binh).post(reverse("games:join", args=[game.pk]), follow=True)
    assert _messages(answer.text) == [
        "The open seats of this game go to those who have its invitation link."
    ]
    assert _seats(game)[1] == (None, "open")


def test_the_join_service_wants_the_very_token(players):
    ana, binh = players[:2]
    game = _link_game(ana)
    for token in (None, "", game.invite_token[:-1], game.invite_token + "x"):
        with pytest.raises(services.GameActionError) as refused:
            services.game_join(game_id=game.pk, user=binh, invite_token=token)
        assert refused.value.code == "invite_link"
    assert _seats(game)[1] == (None, "open")


def test_a_forged_post_changes_nothing(players, make_user):
    ana, binh = players[:2]
    game = _link_game(ana)
    # without the form's CSRF token
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(binh)
    assert forged.post(_link(game)).status_code == 403
    # to a token no game has
    other = Client()
    other.force_login(binh)
    assert other.post("/join/AAAAAAAAAAAAAAAAAAAAAA/").status_code == 404
    assert other.post("/join/%00/", {"then": "signup"}).status_code == 404
    assert _seats(game)[1] == (None, "open")


def test_the_invited_player_is_led_to_the_game_page_to_answer(players, client_for):
    ana, binh = players[:2]
    game = _link_game(ana, players=3, invitees=[binh])
    answer = client_for(binh).get(_link(game))
    assert answer["Location"] == reverse("games:detail", args=[game.pk])


# hidden information


def test_the_token_is_in_no_record_list_or_admin_page(players, client_for, make_user):
    ana, binh = players[:2]
    game = _link_game(ana)
    client_for(binh).post(_link(game))
    game.refresh_from_db()
    token = game.invite_token
    assert game.status == Game.Status.ACTIVE
    record = client_for(binh).get(reverse("games:record", args=[game.pk]))
    assert record.status_code == 200 and token not in record.content.decode()
    # started: not even its creator's page shows the link any more
    page = client_for(ana).get(reverse("games:detail", args=[game.pk])).text
    assert token not in page and _shown_link(page) is None
    admin = make_user("root", is_staff=True, is_superuser=True)
    for url in (
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
    ):
        shown = client_for(admin).get(url)
        assert shown.status_code == 200 and token not in shown.text
