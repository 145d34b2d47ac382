"""Writes that end a seat's part in a game: resignation and timeout; and a
game decided from outside its play (an event's last day, ``game_decide``).

Every end goes through ``turns.game_finish``, the one place a game ends (lila's
``Finisher``): the normal end (the last move, from
``turns.append_events``), and a seat that leaves (``_seat_leaves``: resigning, or
the deadline passed) when nobody is left to play; with others still in, they
play on and the site plays the leaver's turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import VacationError, vacation_start
from games import clock, signals
from games.clock import time_control
from games.models import Game, Seat
from games.selectors import game_engine, seat_view
from games.services.common import (
    GameActionError,
    announce,
    deals,
    locked_game,
    notify_after_commit,
)
from games.services.turns import append_events, game_finish


def game_resign(*, game_id: int, user: User) -> Game:
    """Leave the game: the resigning player ranks last (after everyone still in).

    With two players (or when only one would be left, or only computer players)
    the game ends now. With three or four the others play on: from now on the
    site plays the resigner's turns with the easy computer level, as after a
    forfeit on time, so the table is not spoiled for the others.
    """
    with transaction.atomic():
        game = locked_game(game_id)
        seats = list(game.seats.order_by("number"))
        view = seat_view(game=game, user=user, seats=seats)
        seat = view.seat
        if seat is None:
            raise GameActionError(_("You are not playing in this game."), "seat")
        if game.status != Game.Status.ACTIVE:
            raise GameActionError(_("This game is not in progress."), "status")
        if view.left:
            raise GameActionError(_("You have already left this game."), "left")
        if game.play_stopped_at is not None:
            raise GameActionError(
                _(
                    "Play has stopped in this game: its season ended, and the game "
                    "is being decided."
                ),
                "stopped",
            )
        _seat_leaves(
            game, seat, reason=Game.EndReason.RESIGNED, seats=seats, now=clock.now()
        )
        game.save()
    return game


def game_timeout(*, game_id: int, expected_ply: int) -> bool:
    """Apply the passed deadline of the seat to move, once; False if not due.

    Two players: the late player loses. Three or four: they forfeit (ranked last)
    and the site plays their turns from now on (the easy computer level); when only
    one player is left in the game, it ends. The guarded UPDATE (same ply, still
    active, deadline passed) is what makes a second run, or a second process,
    do nothing: on PostgreSQL it waits for the first one's row lock and then
    matches no row; on SQLite the IMMEDIATE transaction serialises the two.
    """
    now = clock.now()
    with transaction.atomic():
        claimed = Game.objects.filter(
            pk=game_id,
            ply=expected_ply,
            status=Game.Status.ACTIVE,
            turn_deadline__lte=now,
        ).update(turn_deadline=None)
        if not claimed:
            return False
        game = locked_game(game_id)
        seats = list(game.seats.order_by("number"))
        late = next(s for s in seats if s.number == game.seat_to_move)
        _seat_leaves(game, late, reason=Game.EndReason.TIMEOUT, seats=seats, now=now)
        game.save()
    return True


def game_bank_ran_out(*, game_id: int, expected_ply: int) -> bool:
    """The bank of the seat to move ran out (its deadline passed): spend one
    vacation day of its player if the game lets it and they have one left this
    year (a one-day vacation from now: 24 hours more on every game of theirs
    waiting for them, docs/clock.md, "A bank runs out"); whether one was spent.
    Else the caller applies the timeout (``game_timeout``).

    Locks as a vacation does, the account, then the game, and reads the game
    again under its lock: a move accepted meanwhile (a new ply, a deadline not
    passed) spends nothing, and a move arriving now waits for the day spent."""
    due = Game.objects.filter(
        pk=game_id, ply=expected_ply, status=Game.Status.ACTIVE
    ).values_list("seat_to_move", "clock", "vacation_spends")
    found = due.first()
    if found is None:
        return False
    seat_to_move, clock_name, vacation_spends = found
    if seat_to_move is None or not (
        vacation_spends and time_control(clock_name).banked
    ):
        return False
    user = (
        User.objects.filter(seats__game_id=game_id, seats__number=seat_to_move)
        .exclude(computer_level__gt="")
        .first()
    )
    if user is None:
        return False
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        still_due = Game.objects.select_for_update().filter(
            pk=game_id,
            ply=expected_ply,
            status=Game.Status.ACTIVE,
            seat_to_move=seat_to_move,
            turn_deadline__lte=clock.now(),
        )
        if still_due.values_list("pk", flat=True).first() is None:
            return False
        try:
            vacation_start(user=user, days=1)
        except VacationError:  # none left this year (or on one already)
            return False
    announce(signals.vacation_day_spent, user_id=user.pk, game_id=game_id)
    return True


def _seat_leaves(
    game: Game,
    seat: Seat,
    *,
    reason: Game.EndReason,
    seats: Sequence[Seat],
    now: datetime,
) -> None:
    """``seat`` leaves the game at ``now``: it resigned (``reason`` RESIGNED) or
    its deadline passed (TIMEOUT, a forfeit on time).

    When nobody is left to play, the game ends with ``reason``
    (``game_finish``); else the others play on, the leaver's turns played by
    the site (``turns.append_events``), and if it was the leaver's turn the next
    live seat's clock starts afresh. ``seats`` are the game's seats in order,
    locked with it; the caller saves ``game``.
    """
    seat.forfeited_ply = game.ply  # when they left, for the ranks and the log
    seat.left_at = now
    if reason == Game.EndReason.RESIGNED:
        seat.resigned = True
        seat.save(update_fields=["resigned", "forfeited_ply", "left_at"])
    else:
        seat.forfeited_at = now
        seat.save(update_fields=["forfeited_at", "forfeited_ply", "left_at"])
    announce(
        signals.seat_left,
        game_id=game.pk,
        seat=seat.number,
        user_id=seat.user_id,
        reason=str(reason),
    )
    engine = game_engine(game)
    if _nobody_left_to_play(seats):
        game_finish(game=game, engine=engine, reason=reason, seats=seats)
        notify_after_commit(game, {s.number: s.user_id for s in seats})
        return
    if game.seat_to_move == seat.number:
        game.seat_to_move = None  # the next live seat's clock starts afresh
    append_events(game, engine, engine.events(), rng=deals(), seats=seats)


def _nobody_left_to_play(seats: Sequence[Seat]) -> bool:
    """Only one player is still in, or no person is: the game ends now (computer
    players do not play a game out among themselves)."""
    still_playing = [s for s in seats if s.forfeited_at is None and not s.resigned]
    people = [s for s in still_playing if s.user is None or not s.user.computer_level]
    return len(still_playing) <= 1 or not people


def game_stop_play(*, game_id: int) -> bool:
    """Stop play in a game in progress that an event ended before it did
    (``leagues``: a season's last day): from now on no move, resignation or
    timeout, and no computer's turn, until its verdict (``game_decide``);
    its open pages draw it again. Whether it was in progress."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.ACTIVE or game.play_stopped_at is not None:
            return game.status == Game.Status.ACTIVE
        game.play_stopped_at = clock.now()
        game.turn_deadline = None
        game.computer_turn_since = None
        game.save(
            update_fields=["play_stopped_at", "turn_deadline", "computer_turn_since"]
        )
        notify_after_commit(
            game, {s.number: s.user_id for s in game.seats.all()}, redraw=True
        )
    return True


def game_decide(*, game_id: int, ranks: Sequence[int]) -> Game | None:
    """End a game in progress with ``ranks`` by seat (1 the best; equal ranks
    share a place), decided from outside its play: a league's season ended
    before it did (``leagues``, docs/leagues.md, "The last day"). The scores
    stay as they stand, the game is unrated (nobody's rating moves on a
    verdict) and marked ``EndReason.DECIDED``; its players are not told game
    by game. None when the game is not in progress any more (it ended
    meanwhile), else the game."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.ACTIVE:
            return None
        seats = list(game.seats.order_by("number"))
        if len(ranks) != len(seats):
            raise ValueError(f"{len(ranks)} ranks for {len(seats)} seats")
        game.rated = False
        game_finish(
            game=game,
            engine=game_engine(game),
            reason=Game.EndReason.DECIDED,
            seats=seats,
            ranks=list(ranks),
        )
        game.save()
        notify_after_commit(game, {s.number: s.user_id for s in seats})
    return game
