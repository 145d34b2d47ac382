"""Writes: create, join, accept/decline, cancel, play, resign, finish.

Every action runs in one transaction that locks the game row first
(``select_for_update``; on SQLite the IMMEDIATE transaction and the unique
``(game, ply)`` constraint are the guard), checks who may act, changes the rows and
registers its notifications with ``transaction.on_commit`` (STYLE.md, "One move").
A refused action raises :class:`GameActionError` and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine import record
from games.engine.common import EngineError, RecordError
from games.engine.common import Game as EngineGame

from . import notifications
from .engine_errors import engine_error_message
from .models import DAYS_PER_MOVE, Game, Move, Seat, Variant
from .ratings import ratings_update_for_game
from .selectors import game_engine


class GameActionError(Exception):
    """An action the site refuses; ``message`` is translated, for the player."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _system_rng() -> random.Random:
    """The generator for live games: the OS's, never a stored or guessable seed."""
    return random.SystemRandom()


def _locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameActionError(_("This game does not exist."), "no_game") from None


# ------------------------------------------------------------------ lobby


def game_create(
    *,
    creator: User,
    variant: str,
    players: int,
    days_per_move: int,
    rated: bool,
    invitees: Sequence[User] = (),
) -> Game:
    """Open a new game: the creator takes seat 0, invitees the next seats."""
    if variant not in Variant.values:
        raise GameActionError(_("Unknown variant."), "variant")
    if not 2 <= players <= 4:
        raise GameActionError(_("A game has 2 to 4 players."), "players")
    if days_per_move not in DAYS_PER_MOVE:
        raise GameActionError(_("Unknown time control."), "days_per_move")
    invitees = list(dict.fromkeys(invitees))
    if any(user.pk == creator.pk for user in invitees):
        raise GameActionError(_("You cannot invite yourself."), "invite_self")
    if len(invitees) > players - 1:
        raise GameActionError(_("More invitations than free seats."), "invites")
    with transaction.atomic():
        game = Game.objects.create(
            variant=variant,
            players=players,
            days_per_move=days_per_move,
            rated=rated,
            creator=creator,
        )
        seats = [Seat(game=game, number=0, user=creator, invite_status="joined")]
        for number in range(1, players):
            if number <= len(invitees):
                seats.append(
                    Seat(
                        game=game,
                        number=number,
                        user=invitees[number - 1],
                        invite_status=Seat.Invite.INVITED,
                    )
                )
            else:
                seats.append(Seat(game=game, number=number))
        Seat.objects.bulk_create(seats)
        for user in invitees:
            transaction.on_commit(
                lambda user_id=user.pk, game_id=game.pk: notifications.invited(
                    game_id=game_id, user_id=user_id
                )
            )
    return game


def game_join(*, game_id: int, user: User) -> Game:
    """Take the first open seat of an open game; start it when it is full."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameActionError(_("This game is not open any more."), "not_open")
        seats = list(game.seats.order_by("number"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is not None:
            if mine.invite_status == Seat.Invite.INVITED:
                return _accept(game, mine, seats)
            raise GameActionError(_("You already have a seat here."), "seated")
        seat = next((s for s in seats if s.invite_status == Seat.Invite.OPEN), None)
        if seat is None:
            raise GameActionError(_("There is no open seat left."), "full")
        seat.user = user
        seat.invite_status = Seat.Invite.JOINED
        seat.save(update_fields=["user", "invite_status"])
        _start_if_full(game, seats)
    return game


def game_invitation_respond(*, game_id: int, user: User, accept: bool) -> Game:
    """Accept (take the seat) or decline (the seat becomes open to anyone)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameActionError(_("This game is not open any more."), "not_open")
        seats = list(game.seats.order_by("number"))
        mine = next(
            (
                s
                for s in seats
                if s.user_id == user.pk and s.invite_status == Seat.Invite.INVITED
            ),
            None,
        )
        if mine is None:
            raise GameActionError(_("You have no invitation to this game."), "invite")
        if accept:
            return _accept(game, mine, seats)
        mine.user = None
        mine.invite_status = Seat.Invite.OPEN
        mine.save(update_fields=["user", "invite_status"])
    return game


def _accept(game: Game, seat: Seat, seats: list[Seat]) -> Game:
    seat.invite_status = Seat.Invite.JOINED
    seat.save(update_fields=["invite_status"])
    _start_if_full(game, seats)
    return game


def game_cancel(*, game_id: int, user: User) -> Game:
    """The creator calls off a game that has not started."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.creator_id != user.pk:
            raise GameActionError(_("Only the creator can cancel a game."), "creator")
        if game.status != Game.Status.OPEN:
            raise GameActionError(
                _("Only a game that has not started can be cancelled."), "not_open"
            )
        game.status = Game.Status.CANCELLED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
    return game


def _start_if_full(game: Game, seats: list[Seat]) -> None:
    """All seats joined: pick the first player at random and deal round 1."""
    if any(s.invite_status != Seat.Invite.JOINED for s in seats):
        return
    rng = _system_rng()
    game.first_seat = rng.randrange(game.players)
    engine = record.new_game(game.variant, game.players, game.first_seat)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    _append_events(
        game, engine, [], rng=rng, users={s.number: s.user_id for s in seats}
    )
    game.save()


# -------------------------------------------------------------------- play


def _append_events(
    game: Game,
    engine: EngineGame,
    events: list[dict[str, Any]],
    *,
    rng: random.Random,
    users: Mapping[int, int | None],
    mover_id: int | None = None,
) -> None:
    """Run any pending chance events, append the new Move rows, update the cache.

    ``events`` is the engine's event list before the action; the rows appended are
    the events after it. The caller saves ``game``.
    """
    while engine.needs_chance():
        engine.chance(rng)
    new_events = engine.events()[len(events) :]
    previous_seat = game.seat_to_move
    rows = [
        Move(
            game=game,
            ply=game.ply + index,
            event=event,
            user_id=mover_id if "seat" in event else None,
        )
        for index, event in enumerate(new_events)
    ]
    Move.objects.bulk_create(rows)
    game.ply += len(rows)
    game.state = {"events": events + new_events}
    game.seat_to_move = engine.to_move()
    dealt = any("deal" in event for event in new_events)
    if game.seat_to_move is not None and (game.seat_to_move != previous_seat or dealt):
        game.turn_deadline = timezone.now() + timedelta(days=game.days_per_move)
    if engine.is_over():
        game_finish(game=game, engine=engine, reason=Game.EndReason.NORMAL)
    user_to_move = (
        users.get(game.seat_to_move) if game.seat_to_move is not None else None
    )
    game_id, ply = game.pk, game.ply
    transaction.on_commit(
        lambda: notifications.game_updated(
            game_id=game_id, ply=ply, user_to_move_id=user_to_move
        )
    )


def game_play_move(
    *, game_id: int, user: User, move: Mapping[str, Any], expected_ply: int
) -> Game:
    """Play one decision of ``user`` in game ``game_id``.

    ``move`` is a record event without its ``seat`` (``spec/record.md``: a take
    ``{"from", "colour", "to"}`` or a grey-wall ``{"wall": {"line", "column"}}``);
    ``expected_ply`` is the ply the player's page was drawn at, so a stale page or
    a second click refuses instead of playing twice.
    """
    try:
        with transaction.atomic():
            game = _locked_game(game_id)
            seats = {s.number: s.user_id for s in game.seats.all()}
            seat = next((n for n, uid in seats.items() if uid == user.pk), None)
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
            if game.seat_to_move != seat:
                raise GameActionError(_("It is not your turn."), "turn")
            engine = game_engine(game)
            events = engine.events()
            event = {**move, "seat": seat}
            try:
                engine.apply_event(event)
            except EngineError as error:
                raise GameActionError(engine_error_message(error), error.code) from None
            _append_events(
                game, engine, events, rng=_system_rng(), users=seats, mover_id=user.pk
            )
            game.save()
    except IntegrityError:
        # Another request appended the same ply first (SQLite's only guard).
        raise GameActionError(
            _("That move was already played; here is the current position."), "stale"
        ) from None
    return game


def game_resign(*, game_id: int, user: User) -> Game:
    """End the game now: the resigning player ranks last (after everyone else)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise GameActionError(_("You are not playing in this game."), "seat")
        if game.status != Game.Status.ACTIVE:
            raise GameActionError(_("This game is not in progress."), "status")
        seat.resigned = True
        seat.save(update_fields=["resigned"])
        game_finish(game=game, engine=game_engine(game), reason=Game.EndReason.RESIGNED)
        game.save()
        game_id, ply = game.pk, game.ply
        transaction.on_commit(
            lambda: notifications.game_updated(
                game_id=game_id, ply=ply, user_to_move_id=None
            )
        )
    return game


def game_finish(*, game: Game, engine: EngineGame, reason: str) -> None:
    """The one place a game ends: final scores and ranks on the seats.

    Normal end: the engine's outcome (``rules/classic.md §7``). Resignation: the
    current scores; resigned seats rank after all others, the others by score and
    then complete wall rows. Totals and ratings are updated here, in the same
    transaction (``ratings.ratings_update_for_game``). The caller holds the row lock
    and saves ``game``.
    """
    seats = list(game.seats.order_by("number"))
    outcome = engine.outcome()
    boards = getattr(engine, "boards", None)
    if reason == Game.EndReason.NORMAL and outcome is not None:
        scores, ranks = list(outcome.scores), list(outcome.ranks)
    else:
        scores = [b.score for b in boards] if boards else [0] * len(seats)
        rows = [b.complete_rows() for b in boards] if boards else [0] * len(seats)
        keys = [
            (0 if seat.resigned else 1, scores[seat.number], rows[seat.number])
            for seat in seats
        ]
        ranks = [1 + sum(1 for other in keys if other > key) for key in keys]
    for seat in seats:
        seat.score = scores[seat.number]
        seat.rank = ranks[seat.number]
    Seat.objects.bulk_update(seats, ["score", "rank"])
    game.status = Game.Status.FINISHED
    game.end_reason = reason
    game.finished_at = timezone.now()
    game.seat_to_move = None
    game.turn_deadline = None
    ratings_update_for_game(game=game)


# ------------------------------------------------------------------ records

RECORD_MAX_BYTES = 1_000_000
"""Largest record file accepted (a long 4-player game is ~15 kB)."""


def game_import(*, uploader: User, data: bytes | str) -> Game:
    """Store an uploaded record (``spec/record.md``) as an unrated imported game.

    Every event is checked by the engine (``record.load``); a bad record raises
    :class:`GameActionError` naming the event and the reason, and stores nothing.
    The record's names become the seats' display names (they need not be users);
    a finished record gets the engine's final scores and ranks.
    """
    if len(data) > RECORD_MAX_BYTES:
        raise GameActionError(_("This file is too large to be a game record."), "size")
    try:
        loaded = record.load(data)
    except RecordError as error:
        raise GameActionError(
            _("This record cannot be imported: %(reason)s") % {"reason": str(error)},
            "record",
        ) from None
    engine = loaded.game
    events = engine.events()
    outcome = engine.outcome()
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            variant=engine.variant,
            players=engine.players,
            rated=False,
            imported=True,
            creator=uploader,
            status=Game.Status.FINISHED if outcome else Game.Status.ACTIVE,
            end_reason=Game.EndReason.NORMAL if outcome else Game.EndReason.NONE,
            started_at=now,
            finished_at=now if outcome else None,
            first_seat=engine.first_seat,
            ply=len(events),
            state={"events": events},
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=number,
                invite_status=Seat.Invite.IMPORTED,
                display_name=(
                    name.strip()[:60] or _("Player %(n)s") % {"n": number + 1}
                ),
                score=outcome.scores[number] if outcome else None,
                rank=outcome.ranks[number] if outcome else None,
            )
            for number, name in enumerate(loaded.names)
        )
        Move.objects.bulk_create(
            Move(game=game, ply=ply, event=event) for ply, event in enumerate(events)
        )
    return game
