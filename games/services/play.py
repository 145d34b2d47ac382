"""Writes of play: a player's decision, and what follows it in the same
transaction (chance events, the turns of seats that left, decisions the rules
leave alone, the next clock, a computer's turn queued), and the deadlines a
vacation moves.

A move runs guard → apply → save → publish
(docs/style.md, "One move, end to end"); a game that is over ends through
``endings.game_finish``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from accounts import services as account_services
from accounts.models import User, Vacation
from games.engine import bots
from games.engine.common import EngineError
from games.engine.common import Game as EngineGame

from .. import clock, signals, tasks
from ..families import family_for
from ..models import Game, Move, Seat
from ..selectors import SeatView, game_engine, seat_view
from . import endings
from .common import (
    GameActionError,
    _announce,
    _locked_game,
    _notify_after_commit,
    _rng,
)

# ------------------------------------------------------------- the turns


def _turn_deadline(game: Game, seat: Seat | None) -> Any:
    """Now plus the game's days per move; a player on vacation starts at its end.

    A seat read with its vacation (``selectors.seats_with_users``, in this
    transaction) carries it as ``vacation_until``; others cost a query.
    """
    now = clock.now()
    start = now
    user_id = seat.user_id if seat is not None else None
    if user_id is not None and hasattr(seat, "vacation_until"):
        until = getattr(seat, "vacation_until", None)
        if until is not None and until > now:
            start = until
    elif user_id is not None:
        vacation_end = Vacation.objects.filter(
            user_id=user_id, starts_at__lte=now, ends_at__gt=now
        ).aggregate(end=Max("ends_at"))["end"]
        if vacation_end is not None:
            start = vacation_end
    return start + timedelta(days=game.days_per_move)


def _computer_seats(seats: Sequence[Seat]) -> dict[int, str]:
    """The seats computer players hold, and their levels."""
    return {
        s.number: s.user.computer_level
        for s in seats
        if s.user is not None and s.user.computer_level
    }


def _seats_that_left(seats: Sequence[Seat]) -> set[int]:
    """Seats that left (on time, or by resigning with others still playing)."""
    return {s.number for s in seats if s.forfeited_at is not None or s.resigned}


def _seats_that_play_forced(
    seats: Sequence[Seat], *, left: set[int], computers: Mapping[int, str]
) -> set[int]:
    """Seats whose players let the site play a decision the rules leave alone
    (``User.play_forced``; a computer plays even its only legal decision from
    its task)."""
    return {
        s.number
        for s in seats
        if s.user is not None
        and s.user.play_forced
        and s.number not in left
        and s.number not in computers
    }


def _play_for_left_seat(engine: EngineGame, rng: random.Random) -> None:
    """A decision for a player who left: the easy computer level (issue #16).

    Played here, in the move's transaction, as the site's forfeit policy was: the
    easy level is a one-move greedy choice (no search; measured p95 0.2 ms, max
    0.6 ms a decision over whole 2- and 4-player games of both families), and
    the table should not wait on a queue for a seat nobody plays.
    """
    engine.play(bots.choose(engine, "easy", seed=rng.randrange(2**32)))


def _play_only_decision(engine: EngineGame) -> bool:
    """Play the seat to move's decision if it is its only legal one."""
    moves = engine.legal_moves()
    if len(moves) != 1:
        return False
    engine.play(moves[0])
    return True


def _play_until_a_decision(
    engine: EngineGame,
    rng: random.Random,
    *,
    left: set[int],
    plays_forced: set[int],
) -> list[int]:
    """Run chance events, the turns of seats that ``left`` and the only legal
    decisions of seats that ``plays_forced``, until the game is over or a
    player has a choice to make; the plies of those only decisions."""
    forced: list[int] = []
    while True:
        while engine.needs_chance():
            engine.chance(rng)
        if engine.is_over():
            return forced
        seat = engine.to_move()
        if seat in left:
            _play_for_left_seat(engine, rng)
        elif seat in plays_forced and _play_only_decision(engine):
            forced.append(len(engine.events()) - 1)
        else:
            return forced


def _store_moves(
    game: Game,
    new_events: list[dict[str, Any]],
    *,
    seats: Sequence[Seat],
    left: set[int],
    forced: list[int],
) -> None:
    """Append the Move rows of ``new_events`` after the game's ply (a left
    seat's as ``auto`` rows, an only decision the site played as ``forced``)."""
    users = {s.number: s.user_id for s in seats}
    rows = [
        Move(
            game=game,
            ply=game.ply + index,
            event=event,
            user_id=users.get(event["seat"]) if "seat" in event else None,
            auto="seat" in event and event["seat"] in left,
            forced=game.ply + index in forced,
        )
        for index, event in enumerate(new_events)
    ]
    Move.objects.bulk_create(rows)
    game.ply += len(rows)


def _start_clock(game: Game, seats: Sequence[Seat]) -> None:
    """A new turn: the seat to move's deadline, no reminder or e-mail yet."""
    game.turn_deadline = _turn_deadline(
        game,
        next((s for s in seats if s.number == game.seat_to_move), None),
    )
    game.reminder_sent_at = None
    game.turn_email_sent = False


def _computer_turn(game: Game, computers: Mapping[int, str]) -> None:
    """When a computer is to move, its turn has no deadline and a task is
    queued after commit (``games.tasks.computer_move``)."""
    if game.status != Game.Status.ACTIVE or game.seat_to_move not in computers:
        game.computer_turn_since = None
        return
    # Computers never time out, get no reminder and no e-mail.
    game.turn_deadline = None
    game.reminder_sent_at = None
    game.turn_email_sent = True
    game.computer_turn_since = clock.now()
    transaction.on_commit(
        functools.partial(tasks.computer_turn_enqueue, game_id=game.pk, ply=game.ply)
    )


def _publish(game: Game, seats: Sequence[Seat], computers: Mapping[int, str]) -> None:
    """After commit: a person's "your move" (``signals.turn_started``) and the
    doorbells of people's pages (nobody reads a computer's)."""
    if game.status == Game.Status.ACTIVE and not game.turn_email_sent:
        _announce(signals.turn_started, game_id=game.pk, ply=game.ply)
    people = {s.number: s.user_id for s in seats if s.number not in computers}
    _notify_after_commit(game, people)


def _append_events(
    game: Game,
    engine: EngineGame,
    events: list[dict[str, Any]],
    *,
    rng: random.Random,
    seats: Sequence[Seat],
) -> None:
    """Run pending chance events and forfeited seats' turns, append the Move rows.

    ``events`` is the engine's event list before the action; the rows appended are
    the events after it. A seat that forfeited on time (or resigned while others
    play on) has its turns played by the easy computer level
    (``_play_for_left_seat``) here, in the same transaction, as ``auto`` Move rows; a
    player's only legal decision is played for them (``forced`` rows) when they
    let the site do so (``User.play_forced``). Starts
    the next turn's clock, ends the game if it is over, and rings the channel layer
    after commit. When a computer player is to move, its turn has no deadline and
    a task is queued after commit (``games.tasks.computer_move``): its decision is
    never computed here, in a request. The caller saves ``game``.
    """
    left = _seats_that_left(seats)
    computers = _computer_seats(seats)
    plays_forced = _seats_that_play_forced(seats, left=left, computers=computers)
    forced = _play_until_a_decision(engine, rng, left=left, plays_forced=plays_forced)
    new_events = engine.events_from(len(events))
    previous_seat = game.seat_to_move
    _store_moves(game, new_events, seats=seats, left=left, forced=forced)
    game.state = {"events": events + new_events, "forced": game.forced_plies + forced}
    game.seat_to_move = engine.to_move()
    dealt = any("deal" in event for event in new_events)
    if game.seat_to_move is not None and (game.seat_to_move != previous_seat or dealt):
        _start_clock(game, seats)
    if engine.is_over():
        endings.game_finish(
            game=game, engine=engine, reason=Game.EndReason.NORMAL, seats=seats
        )
    _computer_turn(game, computers)
    _publish(game, seats, computers)


# -------------------------------------------------------------- a move

# What a move changes on a game that goes on.
_MOVE_FIELDS = [
    "ply",
    "state",
    "seat_to_move",
    "turn_deadline",
    "reminder_sent_at",
    "turn_email_sent",
    "computer_turn_since",
]


class PlayedMove(NamedTuple):
    """What a move leaves: the game (its seats prefetched and current, final
    ranks and scores included), the engine after it, and whether the move
    ended its player's vacation (docs/clock.md, "A move ends a vacation")."""

    game: Game
    engine: EngineGame
    vacation_ended: bool = False


class _OnVacation(Exception):
    """The mover is on vacation: the move is made again, after their vacation
    ends, in one transaction that locks their account before the game."""


def _may_move(game: Game, view: SeatView, expected_ply: int) -> int:
    """The seat ``view``'s player moves from, if they may move now (else the
    refusal): seated, the game in progress, the page current, their turn."""
    seat = view.number
    if seat is None:
        raise GameActionError(_("You are not playing in this game."), "seat")
    if game.status != Game.Status.ACTIVE:
        raise GameActionError(_("This game is not in progress."), "status")
    if expected_ply != game.ply:
        raise GameActionError(
            _(
                "The board changed since your page was drawn; "
                "here is the current position."
            ),
            "stale",
        )
    if not view.my_turn:
        raise GameActionError(_("It is not your turn."), "turn")
    return seat


def _move(
    game_id: int,
    user: User,
    move: Mapping[str, Any],
    expected_ply: int,
    *,
    ending_vacation: bool,
) -> PlayedMove:
    """One transaction of ``game_play_move``. A mover on vacation
    (their seat carries ``vacation_until``, read with the locked game) raises
    ``_OnVacation`` once the move is known to be legal, unless
    ``ending_vacation``: then their vacation ends first, before the game is
    locked (the account, then its games, as a vacation locks them), so the
    deadlines it moves back are read here already moved."""
    with transaction.atomic():
        ended = ending_vacation and account_services.vacation_end_now(user=user)
        game = _locked_game(game_id, with_seats=True)
        seat_rows = list(game.seats.all())  # prefetched, in seat order
        view = seat_view(game=game, user=user, seats=seat_rows)
        seat = _may_move(game, view, expected_ply)
        engine = game_engine(game)
        events = engine.events()
        try:
            engine.apply_event({**move, "seat": seat})
        except EngineError as error:
            raise GameActionError(
                family_for(game.variant).error_message(error), error.code
            ) from None
        mover = next(s for s in seat_rows if s.number == seat)
        if not ending_vacation and getattr(mover, "vacation_until", None):
            raise _OnVacation
        _append_events(game, engine, events, rng=_rng(), seats=seat_rows)
        # game_finish changes more fields when the move ended the game.
        game.save(update_fields=_MOVE_FIELDS if game.status == "active" else None)
    return PlayedMove(game, engine, ended)


def game_play_move(
    *, game_id: int, user: User, move: Mapping[str, Any], expected_ply: int
) -> PlayedMove:
    """Play one decision of ``user`` in game ``game_id``.

    ``move`` is a record event without its ``seat`` (``docs/record.md``: a take
    ``{"from", "colour", "to"}`` or a grey-wall ``{"wall": {"line", "column"}}``);
    ``expected_ply`` is the ply the player's page was drawn at, so a stale page or
    a second click refuses instead of playing twice.

    A move made during the player's vacation ends it at that moment, as coming
    back early does (docs/clock.md, "A move ends a vacation"), in the move's
    transaction: a refused move leaves the vacation as it was.

    The caller draws its answer from the returned game and engine, without
    another query or replay.
    """
    try:
        try:
            return _move(game_id, user, move, expected_ply, ending_vacation=False)
        except _OnVacation:
            return _move(game_id, user, move, expected_ply, ending_vacation=True)
    except IntegrityError:
        # Another request appended the same ply first (SQLite's only guard).
        raise GameActionError(
            _("That move was already played; here is the current position."), "stale"
        ) from None


# ------------------------------------------------------------ vacations


def game_deadlines_shift(*, user_id: int, delta: timedelta) -> None:
    """A vacation of ``user_id`` began or ended (``games.receivers``, in the
    vacation's transaction): the deadlines of the games where they are to move
    move by ``delta``, and every open page of their games in progress draws its
    board again after commit, the note "… is on vacation until …" and the
    clocks as they now stand (a ring that asks for a redraw though the ply did
    not move: ``notifications.game_updated``)."""
    games = (
        Game.objects.select_for_update()
        .filter(
            status=Game.Status.ACTIVE,
            pk__in=Seat.objects.filter(user_id=user_id).values("game_id"),
        )
        .order_by("pk")
    )
    for game in games:
        rows = list(game.seats.all())
        seats = {s.number: s.user_id for s in rows}
        to_move = seat_view(game=game, user=None, seats=rows).to_move_seat
        mover = to_move.user_id if to_move is not None else None
        if mover == user_id and game.turn_deadline is not None:
            game.turn_deadline += delta
            game.reminder_sent_at = None
            game.save(update_fields=["turn_deadline", "reminder_sent_at"])
        _notify_after_commit(game, seats, redraw=True)
