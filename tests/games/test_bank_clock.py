"""The bank clock's arithmetic (issue #37 item 1; docs/clock.md): each preset's
start, increment and cap, and the one rule a deadline follows for both kinds
of time control."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import clock

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


@pytest.mark.parametrize(
    ("preset", "start", "increment", "cap"),
    [
        ("brisk", DAY, 4 * HOUR, 3 * DAY),
        ("fast", 3 * DAY, 12 * HOUR, 5 * DAY),
        ("daily", 3 * DAY, DAY, 7 * DAY),
        ("slow", 3 * DAY, 36 * HOUR, 10 * DAY),
    ],
)
def test_each_preset_starts_full_adds_its_increment_and_stops_at_its_cap(
    preset, start, increment, cap
):
    control = clock.time_control(preset)
    # A seat's first turn has the whole starting bank.
    assert control.allowance(bank=None, days_per_move=3) == start
    # Answering at once: the bank grows by the increment a turn...
    bank = start
    turns = 0
    while bank < cap:
        bank = control.after_turn(left=bank - 5 * 60 * timedelta(seconds=1))
        turns += 1
        assert bank <= cap
    # ...until it is full, and stays there.
    assert bank == cap
    assert control.after_turn(left=cap) == cap
    assert turns >= 1
    # Spending all of it leaves the increment for the next turn.
    assert control.after_turn(left=timedelta(0)) == increment
    # Running over (a move accepted after a vacation day spent) never goes
    # below nothing.
    assert control.after_turn(left=-HOUR) == increment


def test_a_once_a_day_player_never_loses_time_on_daily():
    daily = clock.time_control("daily")
    bank = daily.allowance(bank=None, days_per_move=3)
    for _ in range(60):  # a move every 24 hours: a whole long game
        bank = daily.after_turn(left=bank - DAY)
    assert bank == 3 * DAY


def test_a_player_who_vanishes_on_daily_runs_out_within_a_week():
    daily = clock.time_control("daily")
    bank = daily.allowance(bank=None, days_per_move=3)
    # At best they had filled the bank to its cap: a week, no more.
    for _ in range(10):
        bank = daily.after_turn(left=bank)
    assert bank == 7 * DAY


def test_days_per_move_gives_every_turn_its_days_afresh_and_keeps_no_bank():
    days = clock.time_control("days")
    assert not days.banked
    assert days.allowance(bank=None, days_per_move=5) == 5 * DAY
    assert days.allowance(bank=HOUR, days_per_move=5) == 5 * DAY
    assert days.after_turn(left=2 * DAY) is None


def test_the_default_for_a_new_game_is_daily_and_presets_run_fastest_first():
    assert clock.DEFAULT.name == "daily"
    names = [c.name for c in clock.PRESETS]
    assert names == ["brisk", "fast", "daily", "slow"]
    increments = [c.increment for c in clock.PRESETS]
    assert increments == sorted(increments)


def test_an_unknown_time_control_is_refused():
    with pytest.raises(KeyError):
        clock.time_control("bullet")


def test_pace_and_longest_game_for_the_new_game_form():
    daily = clock.time_control("daily")
    # Azul, 2 players, about 25 turns each: about 25 days at a move a day...
    assert daily.pace(25) == 25 * DAY
    # ...and at most each player's starting bank plus 24 increments, in turn.
    assert daily.longest(turns_each=25, players=2) == 2 * (3 * DAY + 24 * DAY)
    assert clock.time_control("days").longest(turns_each=25, players=2) is None
