"""The bank clock in play (issue #37 items 1, 2, 5; docs/clock.md): what a
seat's bank holds after its turns, the cap, a turn that spans a vacation,
forced decisions that cost nothing, the clock a rematch keeps, the new-game
form's choice and its pace line, and the games created before the bank.

Time is moved with ``fake_clock`` (``games.clock.now``), as in
``test_deadlines.py``."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from accounts.services import vacation_days_used, vacation_start
from games import clock, selectors, services
from games.engine import record
from games.models import Game, Move, Seat
from tests.conftest import days_per_move_game

from .helpers import move_event, pavilion_choose

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
"""Monday 2 March 2026, 9:00: the worked example's start (docs/clock.md)."""


def _seat(game: Game, user) -> Seat:
    return Seat.objects.get(game=game, user=user)


def _bank(game: Game, user) -> timedelta | None:
    seconds = _seat(game, user).bank_seconds
    return None if seconds is None else timedelta(seconds=seconds)


def _to_move(game: Game):
    game.refresh_from_db()
    return game.seats.get(number=game.seat_to_move).user


def _play(game: Game, rng: random.Random | None = None) -> None:
    """The seat to move plays a legal decision (the first, or a random one)."""
    game.refresh_from_db()
    engine = selectors.game_engine(game)
    legal = engine.legal_moves()
    if rng is None:
        move = legal[0]
    elif game.family == "pavilion":
        move = pavilion_choose(engine, rng)
    else:
        move = rng.choice(legal)
    services.game_play_move(
        game_id=game.pk,
        user=_to_move(game),
        move=move_event(move),
        expected_ply=game.ply,
    )
    game.refresh_from_db()


# ------------------------------------------------------------- the bank


def test_a_new_games_first_turn_has_three_days_and_a_move_banks_the_rest(
    players, start_game, fake_clock
):
    fake_clock.now = MONDAY
    game = start_game(players[:2])
    assert game.clock == "daily"
    # the first turn: the start of Daily, 3 days
    assert game.turn_started_at == MONDAY
    assert game.turn_deadline == MONDAY + 3 * DAY
    # no seat has a bank before its first turn is over
    assert [s.bank_seconds for s in game.seats.all()] == [None, None]
    mover = _to_move(game)
    fake_clock.advance(hours=12)
    _play(game)
    # 3 days - 12 hours + 1 day
    assert _bank(game, mover) == 3 * DAY + 12 * HOUR
    # the other seat's first turn starts now, with the whole start
    other = _to_move(game)
    assert other != mover and _bank(game, other) is None
    assert game.turn_started_at == fake_clock.now
    assert game.turn_deadline == fake_clock.now + 3 * DAY
    # its move an hour later: 3 days - 1 hour + 1 day
    fake_clock.advance(hours=1)
    _play(game)
    assert _bank(game, other) == 4 * DAY - HOUR
    # and the first seat's next turn may take its bank
    assert _to_move(game) == mover
    assert game.turn_deadline == fake_clock.now + 3 * DAY + 12 * HOUR


def test_a_bank_never_grows_above_its_cap(players, start_game, fake_clock, monkeypatch):
    """Brisk (1 day, +4 hours, at most 3 days): players who answer at once
    reach the cap after a dozen turns, and stay there."""
    deals = random.Random(11)
    monkeypatch.setattr(services.common, "system_rng", lambda: deals)
    brisk = clock.time_control("brisk")
    game = start_game(players[:2], time_control="brisk")
    assert game.turn_deadline == fake_clock.now + DAY
    rng = random.Random(11)
    seen: list[int] = []
    for _ in range(80):
        if game.status != Game.Status.ACTIVE:
            break
        mover = _to_move(game)
        before = game.turn_deadline - fake_clock.now - timedelta(seconds=1)
        started = game.turn_started_at
        fake_clock.advance(seconds=1)
        _play(game, rng)
        if game.turn_started_at != started:  # the mover's turn is over
            assert _bank(game, mover) == min(brisk.cap, before + brisk.increment)
        banks = [s.bank_seconds for s in game.seats.all() if s.bank_seconds]
        assert all(bank <= brisk.cap.total_seconds() for bank in banks)
        seen.extend(banks)
        if banks.count(int(brisk.cap.total_seconds())) == 2:
            break
    # both reached the cap, and a turn begun there may take no more
    assert [s.bank_seconds for s in game.seats.all()] == [3 * 24 * 3600] * 2
    assert game.turn_deadline == fake_clock.now + brisk.cap
    assert max(seen) == brisk.cap.total_seconds()


def test_an_unknown_preset_is_refused_by_the_form_and_the_service(players, client_for):
    answer = client_for(players[0]).post(
        reverse("games:new"),
        {"variant": "classic", "players": "2", "time_control": "bullet"},
    )
    assert answer.status_code == 200
    page = unescape(answer.content.decode())
    assert "Select a valid choice. bullet is not one of the available choices." in (
        page
    )
    with pytest.raises(services.GameActionError) as refused:
        services.game_create(
            creator=players[0],
            variant="classic",
            players=2,
            rated=False,
            time_control="bullet",
        )
    assert refused.value.code == "clock"
    assert refused.value.message == "Unknown time control."
    # "days" is kept for the games created before the bank, never offered
    with pytest.raises(services.GameActionError) as refused:
        services.game_create(
            creator=players[0],
            variant="classic",
            players=2,
            rated=False,
            time_control="days",
        )
    assert refused.value.code == "clock"
    assert not Game.objects.exists() and not Seat.objects.exists()


def test_the_form_creates_a_game_with_the_chosen_preset_and_no_vacation(
    players, client_for
):
    answer = client_for(players[0]).post(
        reverse("games:new"),
        {
            "variant": "pavilion",
            "players": "3",
            "time_control": "brisk",
            "no_vacation": "on",
        },
    )
    game = Game.objects.get()
    assert answer["Location"] == reverse("games:detail", args=[game.pk])
    # "No vacation days" ticked: none spent when a bank runs out (events)
    assert (game.clock, game.vacation_spends) == ("brisk", False)
    client_for(players[1]).post(
        reverse("games:new"),
        {"variant": "classic", "players": "2", "time_control": "fast"},
    )
    second = Game.objects.exclude(pk=game.pk).get()
    assert (second.clock, second.vacation_spends) == ("fast", True)


# ------------------------------------------------- a turn and a vacation


def test_a_turn_that_spans_a_vacation_spends_none_of_the_bank(
    players, start_game, fake_clock
):
    """docs/clock.md's worked example, step by step."""
    fake_clock.now = MONDAY
    game = start_game(players[:2])
    ana = _to_move(game)  # the example's Ana: the first to move
    # Ana moves Monday 21:00: 3 d - 12 h + 1 d = 3 d 12 h
    fake_clock.now = MONDAY + 12 * HOUR
    _play(game)
    assert _bank(game, ana) == 3 * DAY + 12 * HOUR
    # her opponent moves Wednesday 8:00: Ana's turn starts, deadline Saturday 20:00
    wednesday_8 = MONDAY + 2 * DAY - HOUR
    fake_clock.now = wednesday_8
    _play(game)
    assert _to_move(game) == ana
    assert game.turn_started_at == wednesday_8
    saturday_20 = MONDAY + 5 * DAY + 11 * HOUR
    assert game.turn_deadline == saturday_20
    # Wednesday 10:00 she starts a 2-day vacation: the deadline is Monday 20:00
    fake_clock.now = wednesday_8 + 2 * HOUR
    vacation = vacation_start(user=ana, days=2)
    game.refresh_from_db()
    assert game.turn_deadline == saturday_20 + 2 * DAY
    assert game.turn_deadline == MONDAY + 7 * DAY + 11 * HOUR
    # Thursday 12:00 she moves, which ends the vacation then: the 22 hours it
    # had left come off again (deadline Sunday 22:00), and her turn spent the
    # 2 hours before the vacation only: 3 d 10 h left, + 1 d
    thursday_12 = MONDAY + 3 * DAY + 3 * HOUR
    fake_clock.now = thursday_12
    _play(game)
    vacation.refresh_from_db()
    assert vacation.ends_at == thursday_12
    assert vacation_days_used(user=ana) == 2  # 26 hours, rounded up
    assert _bank(game, ana) == 4 * DAY + 10 * HOUR
    # her opponent's bank did not pay for her vacation either
    opponent = _to_move(game)
    assert opponent != ana
    assert _bank(game, opponent) == 4 * DAY - (wednesday_8 - (MONDAY + 12 * HOUR))


def test_a_turn_that_starts_during_a_vacation_starts_at_its_end(
    players, start_game, fake_clock
):
    fake_clock.now = MONDAY
    game = start_game(players[:2])
    mover = _to_move(game)
    other = next(p for p in players[:2] if p != mover)
    vacation = vacation_start(user=other, days=3)
    fake_clock.advance(hours=1)
    _play(game)
    # the other's first turn: 3 days from the end of the vacation
    assert game.turn_started_at == vacation.ends_at
    assert game.turn_deadline == vacation.ends_at + 3 * DAY
    # the mover's bank knows nothing of it
    assert _bank(game, mover) == 4 * DAY - HOUR


# ------------------------------------------------------ forced decisions


@pytest.mark.parametrize(
    ("variant", "seed"), [("classic-grey", 1), ("pavilion", 2), ("pavilion-grey", 3)]
)
def test_forced_decisions_cost_their_seat_nothing(
    players, start_game, fake_clock, monkeypatch, variant, seed
):
    """A decision the site plays for a seat (its only legal one: a Summer
    Pavilion pass, a classic take with nowhere else to go) leaves that seat's
    bank as it was, however long the game has been waiting."""
    deals = random.Random(seed)
    monkeypatch.setattr(services.common, "system_rng", lambda: deals)
    game = start_game(players[:2], variant=variant)
    rng = random.Random(seed)
    checked: list[dict] = []
    while game.status == Game.Status.ACTIVE:
        mover = game.seat_to_move
        banks = {s.number: s.bank_seconds for s in game.seats.all()}
        ply = game.ply
        fake_clock.advance(hours=5)
        _play(game, rng)
        new_banks = {s.number: s.bank_seconds for s in game.seats.all()}
        for move in Move.objects.filter(game=game, ply__gt=ply, forced=True):
            seat = move.event["seat"]
            if seat != mover:  # the mover's own turn settles its bank
                assert new_banks[seat] == banks[seat], move.event
                checked.append(move.event)
    assert checked, "no forced decision of the other seat in the whole game"
    if variant == "pavilion":  # this game's forced decisions include passes
        assert any("pass" in event for event in checked), checked


# -------------------------------------------------------------- rematches


def test_a_rematch_keeps_the_finished_games_preset(players, start_game):
    game = start_game(players[:2], time_control="fast")
    Game.objects.filter(pk=game.pk).update(vacation_spends=False)
    services.game_resign(game_id=game.pk, user=players[1])
    rematch = services.game_rematch(game_id=game.pk, user=players[0])
    assert (rematch.clock, rematch.vacation_spends) == ("fast", False)
    services.game_invitation_respond(game_id=rematch.pk, user=players[1], accept=True)
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE
    # Fast starts with 3 days
    assert rematch.turn_deadline - rematch.turn_started_at == 3 * DAY


def test_a_rematch_of_a_days_per_move_game_gets_the_default_bank(players, start_game):
    game = start_game(players[:2], days_per_move=7)
    assert (game.clock, game.days_per_move) == ("days", 7)
    assert game.turn_deadline - game.turn_started_at == 7 * DAY
    services.game_resign(game_id=game.pk, user=players[1])
    rematch = services.game_rematch(game_id=game.pk, user=players[0])
    assert rematch.clock == "daily"
    services.game_invitation_respond(game_id=rematch.pk, user=players[1], accept=True)
    rematch.refresh_from_db()
    assert rematch.turn_deadline - rematch.turn_started_at == 3 * DAY


# ------------------------------------------------- a game under days per move


def test_a_days_per_move_game_gives_every_turn_its_days_and_keeps_no_bank(
    players, start_game, fake_clock
):
    game = start_game(players[:2], days_per_move=2)
    fake_clock.advance(hours=30)
    mover = _to_move(game)
    _play(game)
    assert game.turn_deadline == fake_clock.now + 2 * DAY
    assert _bank(game, mover) is None


# ------------------------------------------------------- the new-game page


def _pace(html: str) -> str:
    found = re.search(r'<p id="clock-pace"[^>]*>(.*?)</p>', html, re.S)
    assert found is not None, "no pace line"
    return " ".join(unescape(found.group(1)).split())


def test_the_new_game_page_says_what_the_default_clock_means(players, client_for):
    page = client_for(players[0]).get(reverse("games:new")).content.decode()
    # Daily is chosen, and the line says what it means for a 2-player Azul game
    assert re.search(
        r'<input type="radio" name="time_control" value="daily"[^>]*checked', page
    )
    assert _pace(page) == (
        "Azul, 2 players: about 24 turns each; at this pace a game takes about "
        "3 weeks, at most 52 days if everyone uses all their time."
    )
    for words in (
        "Brisk: 1 day, +4 hours a turn, at most 3 days",
        "Fast: 3 days, +12 hours a turn, at most 5 days",
        "Daily: 3 days, +1 day a turn, at most 7 days",
        "Slow: 3 days, +36 hours a turn, at most 10 days",
    ):
        assert words in page


def test_the_pace_line_follows_the_choices_with_htmx(players, client_for):
    answer = client_for(players[0]).get(
        reverse("games:new") + "?pace&variant=pavilion&players=4&time_control=slow",
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    # the line alone, to swap in place of the old one
    assert html.strip().startswith('<p id="clock-pace"') and "<form" not in html
    line = _pace(html)
    assert line.startswith("Azul: Summer Pavilion, 4 players: about 47 turns each")
    assert "at most 288 days" in line
    # Brisk at 4 players: under a week's pace is "about 1 week" (singular), and
    # "at most" rounds up (4 x (1 day + 19 x 4 hours) = 16 days 16 hours)
    brisk = client_for(players[0]).get(
        reverse("games:new") + "?pace&variant=classic&players=4&time_control=brisk",
        HTTP_HX_REQUEST="true",
    )
    assert _pace(brisk.content.decode()) == (
        "Azul, 4 players: about 20 turns each; at this pace a game takes about "
        "1 week, at most 17 days if everyone uses all their time."
    )
    # a choice the form refuses: the line for the default instead
    odd = client_for(players[0]).get(
        reverse("games:new") + "?pace&variant=chess&players=9&time_control=bullet",
        HTTP_HX_REQUEST="true",
    )
    assert odd.status_code == 200
    assert _pace(odd.content.decode()).startswith("Azul, 2 players: about 24 turns")


# ------------------------------------------------------------ the migration


@pytest.mark.django_db(transaction=True)
def test_games_that_existed_keep_days_per_move_and_new_ones_get_daily(players):
    """Migration 0019: the games in the database keep their days per move
    (``clock`` 'days'), their running turn began its days before its deadline,
    and a game created afterwards is on the default bank."""
    executor = MigrationExecutor(connection)
    before = [("games", "0018_invitation")]
    after = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    old_apps = executor.loader.project_state(before).apps
    OldGame = old_apps.get_model("games", "Game")
    deadline = MONDAY + 2 * DAY
    old = OldGame.objects.create(
        variant="classic",
        players=2,
        days_per_move=5,
        creator_id=players[0].pk,
        status="active",
        seat_to_move=0,
        turn_deadline=deadline,
    )
    waiting = OldGame.objects.create(
        variant="pavilion", players=3, days_per_move=1, creator_id=players[0].pk
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    old_game = Game.objects.get(pk=old.pk)
    assert (old_game.clock, old_game.days_per_move) == ("days", 5)
    assert old_game.turn_started_at == deadline - 5 * DAY
    assert old_game.time_control.allowance(bank=None, days_per_move=5) == 5 * DAY
    assert Game.objects.get(pk=waiting.pk).clock == "days"
    assert Game.objects.get(pk=waiting.pk).turn_started_at is None
    new = Game.objects.create(variant="classic", players=2, creator=players[0])
    assert new.clock == "daily"
    # the conftest helper makes a game of the old kind, as the migration left them
    days_per_move_game(new, 2)
    assert (new.clock, new.days_per_move) == ("days", 2)


# ------------------------------------------------------------- the record


def test_the_record_keeps_the_clock_and_each_events_time(
    players, start_game, fake_clock
):
    fake_clock.now = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    game = start_game(players[:2], time_control="fast")
    fake_clock.now += timedelta(hours=5, seconds=7)
    mover = game.seats.get(number=game.seat_to_move).user
    services.game_play_move(
        game_id=game.pk,
        user=mover,
        move=move_event(selectors.game_engine(game).legal_moves()[0]),
        expected_ply=game.ply,
    )
    game.refresh_from_db()
    exported = selectors.game_record(game)
    assert exported["clock"] == {
        "control": "fast",
        "start": 3 * 86400,
        "increment": 12 * 3600,
        "cap": 5 * 86400,
    }
    # one time per event: the deal at the start, the decision five hours later
    assert len(exported["times"]) == len(exported["events"]) == game.ply
    assert exported["times"][0] == "2026-06-01T09:00:00Z"
    assert exported["times"][-1] == "2026-06-01T14:00:07Z"
    # the record reads back, and a record without the two fields (older) too
    assert record.load(json.dumps(exported)).game.events() == exported["events"]
    older = {k: v for k, v in exported.items() if k not in ("clock", "times")}
    assert record.load(json.dumps(older)).game.events() == exported["events"]


def test_the_record_of_a_days_game_keeps_its_days_per_move(players, start_game):
    game = start_game(players[:2], days_per_move=5)
    assert selectors.game_record(game)["clock"] == {
        "control": "days",
        "days_per_move": 5,
    }
