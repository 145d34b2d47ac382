"""The lists of games on the home page and the archive (issue #25, item 15):
the archive finds a player however their name is capitalised, open games say
whether they are rated and their days per move, recently finished games name
the winner and every player's score, and every date on a list reads in one
format (``SHORT_DATE_FORMAT``; a moment, ``SHORT_DATETIME_FORMAT``, the same
date and then the time).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from games import selectors, services
from tests.conftest import days_per_move_game

from .helpers import play_random_moves

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _section(html: str, heading_id: str) -> str:
    return html.split(f'id="{heading_id}"', 1)[1].split("</section>", 1)[0]


def _items(html: str) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", html, flags=re.S)


def test_the_archive_finds_bob_by_any_capitals(
    make_user: Any, start_game: Any, client_for: Any
) -> None:
    ana, bob = make_user("ana"), make_user("Bob")
    game = start_game([ana, bob])
    services.game_resign(game_id=game.pk, user=ana)
    other = start_game([ana, make_user("chloe")])
    services.game_resign(game_id=other.pk, user=ana)
    for typed in ("bob", "BOB", " Bob "):
        page = client_for(ana).get(reverse("games:archive"), {"player": typed})
        rows = _text(page.content.decode().split("<tbody>")[1].split("</tbody>")[0])
        assert f"#{game.pk} " in rows and f"#{other.pk} " not in rows, typed
        assert "No player is called" not in page.content.decode()
    nobody = client_for(ana).get(reverse("games:archive"), {"player": "bobby"})
    assert "No player is called bobby." in _text(nobody.content.decode())


def test_an_open_game_in_the_lobby_says_rated_and_its_days_per_move(
    make_user: Any, client_for: Any
) -> None:
    ana, binh = make_user("ana"), make_user("binh")
    rated = services.game_create(creator=ana, variant="classic", players=2, rated=True)
    unrated = services.game_create(
        creator=ana, variant="pavilion", players=3, rated=False
    )
    # open games created before the bank clock, which keep their days per move
    days_per_move_game(rated, 3)
    days_per_move_game(unrated, 1)
    page = client_for(binh).get("/").content.decode()
    rows = {
        int(re.search(r"#(\d+) ", _text(item)).group(1)): _text(item)
        for item in _items(_section(page, "h-open"))
    }
    assert "3 days per move, rated" in rows[rated.pk]
    assert "1 day per move, unrated" in rows[unrated.pk]
    assert "Join" in rows[rated.pk]
    # The same words for a visitor who is not signed in, without a Join button.
    visitor = _text(_section(Client().get("/").content.decode(), "h-open"))
    assert "3 days per move, rated" in visitor and "Join" not in visitor


def test_recently_finished_names_the_winner_and_every_score(
    make_user: Any, start_game: Any, client_for: Any
) -> None:
    ana, binh, chloe = make_user("ana"), make_user("binh"), make_user("chloe")
    game = play_random_moves(start_game([ana, binh, chloe]), random.Random(3), 40)
    services.game_resign(game_id=game.pk, user=chloe)
    services.game_resign(game_id=game.pk, user=binh)
    game = selectors.game_get(game_id=game.pk)
    assert game.status == "finished"
    seats = {seat.number: seat for seat in game.seats.all()}

    page = client_for(ana).get("/").content.decode()
    (item,) = _items(_section(page, "h-finished"))
    players = item.split('class="players">', 1)[1].split('<span class="meta">')[0]
    shown = re.split(r'<span class="seat" ', players)[1:]
    assert len(shown) == 3
    for part in shown:
        marks = re.match(r'data-seat="(\d)" data-rank="(\d)" data-score="(\d+)">', part)
        assert marks is not None, part
        seat = seats[int(marks.group(1))]
        assert (int(marks.group(2)), int(marks.group(3))) == (seat.rank, seat.score)
        words = _text(part[marks.end() :])
        assert words.startswith(f"{seat.user.username} {seat.score}")
        assert ("winner" in words) == (seat.rank == 1)
    assert {seat.rank for seat in seats.values()} == {1, 2, 3}
    assert seats[0].rank == 1
    assert f"ana {seats[0].score} winner" in _text(item)


@pytest.mark.parametrize("language", ["en", "vi", "pt-br", "ko"])
def test_every_date_on_the_home_page_reads_in_one_format(
    language: str, make_user: Any, start_game: Any, client_for: Any
) -> None:
    ana = make_user("ana", language=language, time_zone="Asia/Ho_Chi_Minh")
    binh = make_user("binh")
    waiting = start_game([ana, binh])
    finished = start_game([ana, make_user("chloe")])
    services.game_resign(game_id=finished.pk, user=ana)
    waiting = selectors.game_get(game_id=waiting.pk)
    finished = selectors.game_get(game_id=finished.pk)

    page = client_for(ana).get("/").content.decode()
    lists = _text(page.split('id="home-lists"', 1)[1].split('id="h-computer"')[0])
    with translation.override(language), timezone.override(ana.time_zone):
        deadline = timezone.localtime(waiting.turn_deadline)
        day = formats.date_format(deadline, "SHORT_DATE_FORMAT")
        moment = formats.date_format(deadline, "SHORT_DATETIME_FORMAT")
        ended = formats.date_format(
            timezone.localtime(finished.finished_at), "SHORT_DATE_FORMAT"
        )
        long_day = formats.date_format(deadline, "DATE_FORMAT")
    assert moment.startswith(day)  # the moment is the date, then the time
    assert f"{moment} (Asia/Ho Chi Minh)" in lists
    assert ended in lists
    assert long_day not in lists
