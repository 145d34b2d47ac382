"""Writes of play: a player's decision, and what follows it in the same
transaction (chance events, the turns of seats that left, decisions the rules
leave alone, the next clock, a computer's turn queued), and the deadlines a
vacation moves.

A move runs guard → apply → save → publish
(docs/style.md, "One move, end to end"); a game that is over ends through
``turns.game_finish``; the turn loop after it is ``turns.append_events``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any, NamedTuple

from django.db import DatabaseError, IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts import services as account_services
from accounts.models import User
from games.engine.common import EngineError
from games.engine.common import Game as EngineGame
from games.families import family_for
from games.models import Game, Seat
from games.selectors import SeatView, game_engine, seat_view
from games.services.common import (
    GameActionError,
    deals,
    locked_game,
    notify_after_commit,
)
from games.services.turns import append_events, vacation_given

# -------------------------------------------------------------- a move

# What a move changes on a game that goes on.
_MOVE_FIELDS = [
    "ply",
    "state",
    "seat_to_move",
    "turn_deadline",
    "turn_started_at",
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


def _may_move(game: Game, view: SeatView, expected_ply: int) -> int:
    """The seat ``view``'s player moves from, if they may move now (else the
    refusal): seated, the game in progress, the page current, their turn."""
    seat = view.number
    if seat is None:
        raise GameActionError(_("You are not playing in this game."), "seat")
    if game.status != Game.Status.ACTIVE:
        raise GameActionError(_("This game is not in progress."), "status")
    if game.play_stopped_at is not None:
        raise GameActionError(
            _(
                "Play has stopped in this game: its season ended, and the game "
                "is being decided."
            ),
            "stopped",
        )
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
    game_id: int, user: User, move: Mapping[str, Any], expected_ply: int
) -> PlayedMove:
    """The one transaction of ``game_play_move``.

    A mover on vacation (their seat carries ``vacation_until``, read with the
    locked game) ends it here once the move is known to be legal, before the
    move is stored. This transaction holds the game's lock already, and a
    vacation locks the account, then its games: so it takes those locks
    without waiting (``nowait``), and a lock another transaction holds (the
    player's settings page ending the vacation at the same moment, an
    opponent's move in another of their games) refuses the move, unplayed, for
    the player to send again, instead of two transactions waiting on each other.
    """
    with transaction.atomic():
        game = locked_game(game_id, with_seats=True)
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
        ended = False
        if getattr(mover, "vacation_until", None):
            try:
                ended = account_services.vacation_end_now(user=user, nowait=True)
            except DatabaseError:
                raise GameActionError(
                    _("Your other games were busy for a moment; play your move again."),
                    "busy",
                ) from None
            # the deadlines moved back, this game's too: read it as it now is,
            # and the seat the answer draws is back from its vacation
            setattr(mover, "vacation_until", None)  # noqa: B010  (an annotation)
            game.turn_deadline = (
                Game.objects.filter(pk=game.pk)
                .values_list("turn_deadline", flat=True)
                .get()
            )
        append_events(game, engine, events, rng=deals(), seats=seat_rows)
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
        return _move(game_id, user, move, expected_ply)
    except IntegrityError:
        # Another request appended the same ply first (SQLite's only guard).
        raise GameActionError(
            _("That move was already played; here is the current position."), "stale"
        ) from None


# ------------------------------------------------------------ vacations


def game_deadlines_shift(
    *, user_id: int, delta: timedelta, nowait: bool = False
) -> None:
    """A vacation of ``user_id`` began or ended (``games.receivers``, in the
    vacation's transaction): the deadlines of the games where they are to move
    move by ``delta``, and every open page of their games in progress draws its
    board again after commit, the note "… is on vacation until …" and the
    clocks as they now stand (a ring that asks for a redraw though the ply did
    not move: ``notifications.game_updated``). With ``nowait`` (a move's own
    transaction) a game another transaction holds raises instead of waiting."""
    games = (
        Game.objects.select_for_update(nowait=nowait)
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
        if mover == user_id and game.turn_deadline is not None and to_move:
            game.turn_deadline += vacation_given(to_move, delta)
            game.reminder_sent_at = None
            game.save(update_fields=["turn_deadline", "reminder_sent_at"])
        notify_after_commit(game, seats, redraw=True)
