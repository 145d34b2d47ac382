"""What a player sees of the bank clock (issue #37 item 3; docs/clock.md): every
seat's time left on the board, the viewer's first, each marked with its seat's
``data-seat`` and ``data-bank-seconds``; the seat to move's "until" its
deadline in the viewer's time zone; an opponent on vacation with the days left
this year; the home page's lists by time left with it shown; the replay's time
of each move; the game's time control in words where the days per move were."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.services import vacation_start
from accounts.templatetags.zones import zoned
from games import emails, selectors, services
from games.models import Game, Move
from games.play import banks

from .helpers import move_event

pytestmark = pytest.mark.django_db

JUNE = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
HANOI = "Asia/Ho_Chi_Minh"
DAY = 86400
HOUR = 3600


@pytest.fixture
def june(fake_clock):
    fake_clock.now = JUNE
    return fake_clock


class _Banks(HTMLParser):
    """Each element marked ``data-bank-seconds``: its marks and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.banks: list[dict[str, str]] = []
        self.depth = 0  # inside the current bank's element

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if self.depth:
            self.depth += 1
        elif "data-bank-seconds" in values:
            self.banks.append({**values, "text": ""})
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.banks[-1]["text"] += data


def _banks(html: str, start: str = "", end: str = "") -> list[dict[str, str]]:
    if start:
        html = html[html.index(start) :]
    if end:
        html = html[: html.index(end)]
    parser = _Banks()
    parser.feed(html)
    for bank in parser.banks:
        bank["text"] = " ".join(bank["text"].split())
    return parser.banks


def _mover(game: Game):
    game.refresh_from_db()
    return game.seats.get(number=game.seat_to_move).user


def _play(game: Game):
    mover = _mover(game)
    services.game_play_move(
        game_id=game.pk,
        user=mover,
        move=move_event(selectors.game_engine(game).legal_moves()[0]),
        expected_ply=game.ply,
    )
    game.refresh_from_db()
    return mover


# ------------------------------------------------------------------ the board


def test_the_board_shows_both_banks_the_viewers_first(
    june, players, start_game, client_for
):
    ana, binh = players[:2]
    game = start_game([ana, binh])  # Daily: 3 days to start with
    mover = _mover(game)
    waiting = binh if mover == ana else ana
    moving_seat = game.seat_to_move
    waiting_seat = 1 - moving_seat
    june.advance(hours=2)

    seen_by_waiting = _banks(client_for(waiting).get(f"/games/{game.pk}/").text)
    assert [(b["data-seat"], b["data-bank-seconds"]) for b in seen_by_waiting] == [
        (str(waiting_seat), str(3 * DAY)),  # not moved yet: the preset's start
        (str(moving_seat), str(3 * DAY - 2 * HOUR)),  # its deadline less now
    ]
    running = seen_by_waiting[1]
    assert running.get("data-running") == "true"
    assert "data-running" not in seen_by_waiting[0]
    assert "3 days left" in seen_by_waiting[0]["text"]

    seen_by_mover = _banks(client_for(mover).get(f"/games/{game.pk}/").text)
    assert [(b["data-seat"], b["data-bank-seconds"]) for b in seen_by_mover] == [
        (str(moving_seat), str(3 * DAY - 2 * HOUR)),
        (str(waiting_seat), str(3 * DAY)),
    ]


def test_a_finished_turn_shows_the_bank_it_left(june, players, start_game, client_for):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    june.advance(hours=10)
    first = _play(game)  # 3 days - 10 hours + 1 day
    first_seat = game.seats.get(user=first).number
    june.advance(hours=1)
    page = client_for(first).get(f"/games/{game.pk}/").text
    marks = {b["data-seat"]: b["data-bank-seconds"] for b in _banks(page)}
    assert marks[str(first_seat)] == str(4 * DAY - 10 * HOUR)
    assert "3 days 14 hours left" in page
    # the seat now to move is running, from its own start (3 days, 1 hour gone)
    assert marks[str(game.seat_to_move)] == str(3 * DAY - HOUR)


def test_the_seat_to_move_reads_until_its_deadline_in_the_viewers_zone(
    june, players, start_game, client_for
):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    mover = _mover(game)
    waiting = binh if mover == ana else ana
    waiting.time_zone = HANOI
    waiting.save(update_fields=["time_zone"])
    page = client_for(waiting).get(f"/games/{game.pk}/").text
    running = next(b for b in _banks(page) if b.get("data-running"))
    with timezone.override(ZoneInfo(HANOI)):
        expected = zoned(game.turn_deadline)
    assert "until " + expected in running["text"]
    # 9:00 UTC on 4 June is 16:00 in Hanoi, and the zone is named
    assert "4 p.m." in running["text"] and "Asia/Ho Chi Minh" in running["text"]


def test_a_computer_has_no_bank(june, players, client_for):
    game = services.game_create(
        creator=players[0],
        variant="classic",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    marks = _banks(client_for(players[0]).get(f"/games/{game.pk}/").text)
    assert [b["data-seat"] for b in marks] == ["0"]


def test_an_opponent_on_vacation_shows_the_days_left_and_does_not_run(
    june, players, start_game, client_for
):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    mover = _mover(game)
    waiting = binh if mover == ana else ana
    vacation_start(user=mover, days=2)  # 12 days left this year
    june.advance(hours=5)
    game.refresh_from_db()
    page = client_for(waiting).get(f"/games/{game.pk}/").text
    mine, theirs = _banks(page)
    # the deadline moved two days; during the vacation nothing is spent
    assert theirs["data-bank-seconds"] == str(3 * DAY)
    assert "data-running" not in theirs
    assert "on vacation: 12 days left this year" in theirs["text"]
    assert "on vacation" not in mine["text"]
    # the player on vacation is not told their own days on the board
    own = _banks(client_for(mover).get(f"/games/{game.pk}/").text)
    assert "on vacation" not in own[0]["text"]


def test_a_game_under_days_per_move_shows_its_days_for_the_others(
    june, players, start_game, client_for
):
    game = start_game(players[:3], days_per_move=2)
    june.advance(hours=3)
    page = client_for(players[0]).get(f"/games/{game.pk}/").text
    marks = {b["data-seat"]: int(b["data-bank-seconds"]) for b in _banks(page)}
    assert marks.pop(str(game.seat_to_move)) == 2 * DAY - 3 * HOUR
    assert set(marks.values()) == {2 * DAY}
    assert "2 days per move" in page


def test_seat_banks_never_go_below_nothing(june, players, start_game):
    game = start_game(players[:2])
    june.advance(days=4)
    game.refresh_from_db()
    bank = banks.bank_to_move(game=game)
    assert bank is not None and bank.seconds == 0 and not bank.running
    assert bank.words == "no time left"


# ------------------------------------------------------------------ the lists


def test_the_your_move_list_is_ordered_by_time_left_and_shows_it(
    june, players, start_game, client_for
):
    ana, binh, chloe = players[:3]
    # three games where ana is to move, with 3 days, 1 day and 2 days left
    games = []
    for opponent, spent in ((binh, 0), (chloe, 2), (binh, 1)):
        game = start_game([ana, opponent])
        if _mover(game) != ana:
            _play(game)
        Game.objects.filter(pk=game.pk).update(
            turn_deadline=JUNE + timedelta(days=3 - spent)
        )
        games.append(game)
    june.advance(hours=4)
    page = client_for(ana).get("/").text
    awaiting = page[page.index('id="h-awaiting"') : page.index('id="h-waiting"')]
    order = [int(n) for n in re.findall(r'href="/games/(\d+)/"', awaiting)]
    assert order == [games[1].pk, games[2].pk, games[0].pk]
    shown = [b["data-bank-seconds"] for b in _banks(awaiting)]
    assert shown == [
        str(DAY - 4 * HOUR),
        str(2 * DAY - 4 * HOUR),
        str(3 * DAY - 4 * HOUR),
    ]
    assert "20 hours left, until" in awaiting
    assert "1 day 20 hours left, until" in awaiting
    assert "2 days 20 hours left, until" in awaiting


def test_the_lists_name_the_time_control(june, players, start_game, client_for):
    game = start_game(players[:2])
    page = client_for(players[0]).get("/").text
    assert "3 days, +1 day a turn, at most 7 days, unrated" in " ".join(page.split())
    detail = client_for(players[0]).get(f"/games/{game.pk}/").text
    assert "3 days, +1 day a turn, at most 7 days, unrated" in " ".join(detail.split())


# ------------------------------------------------------------------ the replay


def test_the_replay_shows_how_long_each_move_took(players, start_game, client_for):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    _play(game)
    _play(game)
    game.refresh_from_db()
    forced = set(game.forced_plies)
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    decisions = [m for m in moves if "seat" in m.event and m.ply not in forced]
    assert len(decisions) >= 2 and decisions[0].ply > 0
    # the record's times: the deal at 9:00, the first decision 3 h 5 min
    # later, the second 2 days 4 hours after that; the rest at once
    moment = JUNE
    for move in moves:
        if move.pk == decisions[0].pk:
            moment += timedelta(hours=3, minutes=5)
        elif move.pk == decisions[1].pk:
            moment += timedelta(days=2, hours=4)
        Move.objects.filter(pk=move.pk).update(created_at=moment)
    page = client_for(ana).get(reverse("games:replay", args=[game.pk])).text
    took = re.findall(r'<span class="took" data-seconds="(\d+)">([^<]*)</span>', page)
    assert took[:2] == [
        (str(3 * HOUR + 5 * 60), "took 3 h 5 min"),
        (str(2 * DAY + 4 * HOUR), "took 2 d 4 h"),
    ]
    # a deal, and a decision the site played, took no one's time
    assert len(took) == len(decisions)


def test_an_imported_record_shows_no_move_times(players, start_game):
    from games.history.replay import move_times

    game = start_game(players[:2])
    _play(game)
    game.imported = True
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    took = move_times(
        game=game,
        events=[m.event for m in moves],
        times=[m.created_at for m in moves],
    )
    assert took == [None] * len(moves)


# ------------------------------------------------------ the invitation's words


def test_the_invitation_email_names_the_time_control(players):
    ana, binh = players[:2]
    mail.outbox.clear()
    game = services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        time_control="brisk",
        rated=False,
        invitees=[binh],
    )
    emails.send_invited(user=binh, game=game)
    body = mail.outbox[-1].body
    assert "The clock: 1 day, +4 hours a turn, at most 3 days." in " ".join(
        body.split()
    )
    assert "Each move may take" not in body
