"""A computer's name in its reader's language (issue #25, item 12).

The account keeps its English name, "Computer (medium)", and so does the game
record (``docs/record.md``); what people read is ``User.shown_name``, the
catalog's translation for the page's, e-mail's or push's reader. These tests
read the Korean name from the catalog, so they hold whatever words the
translators choose, and refuse the English one.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from accounts.services import computer_player
from games import emails, selectors, services, tasks
from games.models import Game
from notify.services import push_payload

from .helpers import play_random_moves

pytestmark = pytest.mark.django_db

ACCOUNT = "Computer (medium)"


def _korean(message: str) -> str:
    with translation.override("ko"):
        name = translation.gettext(message)
    assert name != message, f"the Korean catalog has no {message!r}"
    return name


def _text(html: str) -> str:
    """The words a reader sees: tags dropped, spaces joined."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _part(html: str, start: str, end: str) -> str:
    """From the element that ``start`` (a tag, or an attribute in one) opens,
    its content up to ``end``."""
    rest = html.split(start, 1)[1]
    if not start.endswith(">"):
        rest = rest.split(">", 1)[1]
    return rest.split(end, 1)[0]


@pytest.fixture
def min_ji(make_user: Any) -> Any:
    return make_user("minji", language="ko")


@pytest.fixture(autouse=True)
def _quick_strong(settings: Any) -> None:
    settings.COMPUTER_STRONG_SECONDS = 0.02


def _against_the_computer(user: Any) -> Game:
    game = services.game_create(
        creator=user,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "medium"},
    )
    return selectors.game_get(game_id=game.pk)


def _computer_to_move(game: Game) -> Game:
    """The game with the computer (seat 1) to move: the person's first take
    played if the draw gave them the first move (the round goes on after it)."""
    if game.seat_to_move == 0:
        game = play_random_moves(game, random.Random(1), 1)
    assert game.seat_to_move == 1
    return game


def test_a_korean_player_reads_the_computer_in_korean_on_the_game_page(
    min_ji: Any, client_for: Any
) -> None:
    korean = _korean(ACCOUNT)
    game = _computer_to_move(_against_the_computer(min_ji))
    client = client_for(min_ji)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    status = _text(_part(page, 'class="status"', "</p>"))
    assert korean in status and ACCOUNT not in status
    players = _text(_part(page, 'class="meta players"', "</p>"))
    assert korean in players and ACCOUNT not in players

    # The computer moves: the log names it in Korean.
    assert tasks.computer_move.call(game.pk, game.ply) == "played"
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    log = _text(_part(page, 'id="h-log"', "</section>"))
    assert korean in log and ACCOUNT not in log

    # She resigns: the standings name the computer in Korean.
    services.game_resign(game_id=game.pk, user=min_ji)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    standings = _part(page, 'class="results final-results"', "</table>")
    row = _text(_part(standings, 'data-seat="1"', "</tr>"))
    assert korean in row and ACCOUNT not in row

    # The record keeps the account's name, in any reader's language.
    record = json.loads(client.get(reverse("games:record", args=[game.pk])).content)
    assert ACCOUNT in json.dumps(record, ensure_ascii=False)
    assert korean not in json.dumps(record, ensure_ascii=False)


def test_the_computer_keeps_its_english_name_for_english_readers(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    game = _against_the_computer(ana)
    page = client_for(ana).get(reverse("games:detail", args=[game.pk])).content
    players = _text(_part(page.decode(), 'class="meta players"', "</p>"))
    assert players.startswith("Players: ")
    assert ACCOUNT in players


def test_the_home_page_offers_the_computers_by_their_korean_names(
    min_ji: Any, client_for: Any
) -> None:
    names = [_korean(f"Computer ({level})") for level in ("easy", "medium", "strong")]
    page = client_for(min_ji).get("/").content.decode()
    level = _part(page, 'name="level"', "</select>")
    offered = re.findall(r"<option[^>]*>([^<]*)</option>", level)
    assert offered == names
    new_game = client_for(min_ji).get(reverse("games:new")).content.decode()
    seat = _part(new_game, 'name="seat_1"', "</select>")
    assert re.findall(r"<option[^>]*>([^<]*)</option>", seat)[1:] == names


def test_profile_leaderboard_and_lists_name_the_computer_in_korean(
    min_ji: Any, client_for: Any
) -> None:
    korean = _korean(ACCOUNT)
    game = _against_the_computer(min_ji)
    client = client_for(min_ji)
    computer = computer_player(level="medium")
    profile = client.get(reverse("profile", args=[computer.username])).content
    heading = _text(_part(profile.decode(), "<h1>", "</h1>"))
    assert heading.startswith(korean)

    home = client.get("/").content.decode()
    lists = _text(_part(home, 'id="home-lists"', 'id="h-computer"'))
    assert korean in lists and ACCOUNT not in lists

    services.game_resign(game_id=game.pk, user=min_ji)
    archive = client.get(reverse("games:archive")).content.decode()
    row = _text(_part(archive, "<tbody>", "</tbody>"))
    assert korean in row and ACCOUNT not in row


def test_the_finished_e_mail_and_push_name_the_computer_in_korean(
    min_ji: Any,
) -> None:
    korean = _korean(ACCOUNT)
    game = _against_the_computer(min_ji)
    services.game_resign(game_id=game.pk, user=min_ji)
    game = Game.objects.get(pk=game.pk)

    emails.send_finished(user=min_ji, game=game)
    (message,) = mail.outbox
    assert korean in message.body and ACCOUNT not in message.body

    seats = emails.final_seats(game)
    push = push_payload(min_ji, game, "finished", {"seats": seats, "mine": None})
    assert korean in push["body"] and ACCOUNT not in push["body"]
