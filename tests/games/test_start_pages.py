"""Starting a game, as a new player meets it (issue #25 items 6, 8, 10, 11): the
new-game form's seats, the status line's computer mark, the "Game created."
message, and rated play against the computer with its provisional section."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.services import computer_player
from games import selectors, services
from games.models import Game, PlayerStats
from games.ratings.ratings import rating_points

from .helpers import move_event

pytestmark = pytest.mark.django_db

NEW_GAME = reverse("games:new")


def _text(html: str) -> str:
    """What a reader sees of ``html``: the words, tags out, spaces folded."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _element(html: str, pattern: str) -> str:
    """The first element whose opening tag matches ``pattern``, as HTML."""
    found = re.search(pattern + r".*?</(p|section|ul)>", html, re.S)
    assert found, pattern
    return found.group(0)


def game_round(game: Game) -> int:
    return selectors.game_engine(game).round


def _rating(user) -> int:
    return rating_points(PlayerStats.objects.get(user=user, family="classic").mu)


# ---------------------------------------------------------------- item 6


def test_a_computer_beyond_the_player_count_is_refused_and_creates_nothing(
    make_user, client_for
):
    client = client_for(make_user("ana"))
    answer = client.post(
        NEW_GAME,
        {
            "variant": "classic",
            "players": "2",
            "time_control": "daily",
            "seat_2": "easy",
        },
    )
    assert answer.status_code == 200
    page = answer.content.decode()
    # The refusal stands next to seat 3, the seat that does not exist.
    seat_3 = page.split('for="id_seat_2"')[1].split("</div>")[0]
    assert (
        "A game of 2 players has no seat 3: choose more players or take the "
        "computer out of that seat." in _text(seat_3)
    )
    assert not Game.objects.exists()


def test_a_computer_in_the_last_seat_of_a_game_that_has_it_takes_that_seat(
    make_user, client_for
):
    ana = make_user("ana")
    answer = client_for(ana).post(
        NEW_GAME,
        {
            "variant": "classic",
            "players": "3",
            "time_control": "daily",
            "seat_2": "easy",
        },
    )
    assert answer.status_code == 302
    game = Game.objects.get()
    seats = [seat.user for seat in game.seats.order_by("number")]
    assert seats == [ana, None, computer_player(level="easy")]


def test_the_seats_are_marked_for_the_script_that_follows_the_player_count(
    make_user, client_for
):
    page = client_for(make_user("ana")).get(NEW_GAME).content.decode()
    assert "<form" in page and "data-seat-form" in page and "js/seats.js" in page
    for number in (1, 2, 3):
        assert re.search(
            rf'<select name="seat_{number}"[^>]* data-seat="{number}"', page
        )


# ---------------------------------------------------------------- item 8


def test_the_status_line_names_the_computer_once(make_user, client_for):
    """The computer's name says it is the computer: no badge after it says it
    again, in any language ("Máy (dễ) MÁY", issue #35 item 7)."""
    ana = make_user("ana")
    game = services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "medium"},
    )
    if game.seat_to_move == 0:  # ana opens: her move, then the computer's turn
        engine = selectors.game_engine(game)
        services.game_play_move(
            game_id=game.pk,
            user=ana,
            move=move_event(engine.legal_moves()[0]),
            expected_ply=game.ply,
        )
    game.refresh_from_db()
    assert game.seat_to_move == 1 and game.status == Game.Status.ACTIVE
    round_ = game_round(game)
    for language, expected in [
        ("en", f"Computer (medium) to move. Round {round_}."),
        ("vi", f"Lượt của Máy (vừa). Vòng {round_}."),
        ("pt-br", f"Vez de Computador (médio). Rodada {round_}."),
        ("ko", f"컴퓨터 (보통) 님의 차례입니다. {round_}라운드."),
    ]:
        User.objects.filter(pk=ana.pk).update(language=language)
        page = client_for(ana).get(reverse("games:detail", args=[game.pk]))
        status = _element(page.content.decode(), r'<p class="status"')
        assert _text(status).startswith(expected), (language, _text(status))
        assert 'class="bot"' not in status


# ---------------------------------------------------------------- item 10


def test_game_created_shows_once_and_not_on_the_next_visit_or_the_partial(
    make_user, client_for
):
    client = client_for(make_user("ana"))
    answer = client.post(
        NEW_GAME,
        {
            "variant": "classic",
            "players": "3",
            "time_control": "daily",
            "seat_1": "easy",
            "seat_2": "medium",
        },
        follow=True,
    )
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE  # a board under the message
    first = answer.content.decode()
    assert 'id="board"' in first
    messages = _element(first, r'<ul class="messages"')
    assert _text(messages) == "Game created."
    assert first.count("Game created.") == 1

    url = reverse("games:detail", args=[game.pk])
    partial = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'id="board"' in partial and "Game created." not in partial
    again = client.get(url).content.decode()
    assert 'id="board"' in again
    assert "Game created." not in again and 'class="messages"' not in again


def test_the_game_page_loads_the_script_that_clears_old_messages(client):
    home = client.get(reverse("games:home")).content.decode()
    assert "js/messages.js" in home


# ---------------------------------------------------------------- item 11


def test_a_rated_game_from_the_home_page_lists_the_player_as_provisional(
    make_user, client_for, client
):
    ana = make_user("ana")
    me = client_for(ana)
    home = me.get(reverse("games:home")).content.decode()
    block = home.split('id="h-computer"')[1].split("</section>")[0]
    assert re.search(r'<button type="submit" name="rated" value="on"', block)
    assert "Start a rated game" in block and "Start an unrated game" in block
    assert "The leaderboard ranks players with 10 rated games" in _text(block)

    # The rated button posts rated=on; the unrated one posts no "rated".
    me.post(
        reverse("games:play_computer"),
        {"level": "medium", "variant": "classic", "rated": "on"},
    )
    game = Game.objects.get()
    assert game.rated and game.status == Game.Status.ACTIVE
    me.post(reverse("games:play_computer"), {"level": "easy", "variant": "classic"})
    unrated = Game.objects.exclude(pk=game.pk).get()
    assert not unrated.rated

    url = reverse("games:leaderboard", args=["classic"])
    assert 'id="h-provisional"' not in client.get(url).content.decode()

    services.game_resign(game_id=game.pk, user=ana)  # ends it (two players)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    page = client.get(url).content.decode()
    ranked = page.split("<tbody>")[1].split("</tbody>")[0]
    assert "ana" not in ranked and "Nobody is eligible yet." in _text(ranked)
    provisional = page.split('<section aria-labelledby="h-provisional"')[1]
    provisional = provisional.split("</section>")[0]
    heading = re.search(r"<h2[^>]*>(.*?)</h2>", provisional)
    assert heading and heading.group(1) == "Provisional"
    rows = re.findall(r"<tr data-rated-games=\"(\d+)\">(.*?)</tr>", provisional, re.S)
    assert [(games, _text(row)) for games, row in rows] == [
        ("1", f"ana {_rating(ana)} ? 1 rated game")  # "1374?"
    ]
    # The computer has its own list, with its own provisional section.
    computers = client.get(url, {"computers": "1"}).content.decode()
    section = computers.split('id="h-provisional"')[1]
    assert "Computer (medium)" in section and ">ana<" not in section
