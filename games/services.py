"""Writes: create, join, accept/decline, cancel, play, resign, finish.

Every action runs in one transaction that locks the game row first
(``select_for_update``; on SQLite the IMMEDIATE transaction and the unique
``(game, ply)`` constraint are the guard), checks who may act, changes the rows and
registers its notifications with ``transaction.on_commit`` (docs/style.md, "One move").
A refused action raises :class:`GameActionError` and changes nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any, NamedTuple, cast

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef
from django.dispatch import Signal
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import VACATION_DAYS_PER_YEAR, User, Vacation
from accounts.selectors import blocked_ids
from accounts.services import computer_player
from games.engine import bots, record
from games.engine.common import EngineError, RecordError
from games.engine.common import Game as EngineGame
from games.engine.variants import find_variant

from . import clock, notifications, signals
from .families import family_for
from .models import DAYS_PER_MOVE, Game, Move, Seat, Variant
from .ratings import ratings_update_for_game
from .selectors import game_engine, seat_view, seats_with_users


def _announce(signal: Signal, **ids: Any) -> None:
    """Send ``signal`` (``games.signals``) once the change commits: notify's
    receivers queue their notices then (``notify/receivers.py``)."""
    transaction.on_commit(functools.partial(signal.send, sender=Game, **ids))


class GameActionError(Exception):
    """An action the site refuses; ``message`` is translated, for the player."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _system_rng() -> random.Random:
    """The generator for live games: the OS's, never a stored or guessable seed."""
    return random.SystemRandom()


def _locked_game(game_id: int, *, with_seats: bool = False) -> Game:
    """The game row, locked; ``with_seats`` prefetches its seats in order, with
    their users and current vacations."""
    games = Game.objects.select_for_update()
    if with_seats:
        games = games.prefetch_related(seats_with_users(vacations=True))
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise GameActionError(_("This game does not exist."), "no_game") from None


# ------------------------------------------------------------------ lobby


def _computer_games_allowed(*, creator: User, computers: Mapping[int, str]) -> None:
    """Refuse a new game with a computer seat beyond what one account may ask of
    the computers (issue #23): ``COMPUTER_GAMES_IN_PROGRESS`` such games of
    theirs not over (open or in progress), ``COMPUTER_GAMES_PER_HOUR`` created
    in the last hour. Called inside the creating transaction with the creator's
    row locked, so two creations at once are counted one after the other (on
    SQLite the IMMEDIATE transaction serialises them)."""
    if not computers:
        return
    User.objects.select_for_update().filter(pk=creator.pk).first()
    mine = Game.objects.filter(creator=creator).filter(
        Exists(Seat.objects.filter(game=OuterRef("pk"), user__computer_level__gt=""))
    )
    at_once = settings.COMPUTER_GAMES_IN_PROGRESS
    if mine.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).count() >= (
        at_once
    ):
        raise GameActionError(
            ngettext(
                "You already have %(count)s game against the computer that is not "
                "over. Finish or resign it before you start another.",
                "You already have %(count)s games against the computer that are not "
                "over. Finish or resign one before you start another.",
                at_once,
            )
            % {"count": at_once},
            "computer_games",
        )
    per_hour = settings.COMPUTER_GAMES_PER_HOUR
    now = clock.now()
    this_hour = mine.filter(created_at__gt=now - timedelta(hours=1))
    if this_hour.count() < per_hour:
        return
    oldest = this_hour.order_by("created_at").values_list("created_at", flat=True)
    free_at = (oldest.first() or now) + timedelta(hours=1)
    raise GameActionError(
        ngettext(
            "You can start %(count)s game against the computer an hour.",
            "You can start %(count)s games against the computer an hour.",
            per_hour,
        )
        % {"count": per_hour}
        + " "
        + _try_again_at(free_at, now),
        "computer_rate",
    )


def _try_again_at(free_at: Any, now: Any) -> str:
    """ "Try again in 12 minutes.": the wait until ``free_at``, rounded up."""
    minutes = max(1, -(-int((free_at - now).total_seconds()) // 60))
    return ngettext(
        "Try again in %(minutes)s minute.",
        "Try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}


def _invitations_since(creator: User, since: Any) -> list[Any]:
    """When each invitation ``creator`` sent since ``since`` was made (its
    game's creation), oldest first: the seats still invited, and those told
    (``signals.invitations_told``: notify's notices) and answered since, each
    (game, player) once."""
    made = {
        (game_id, user_id): created
        for game_id, user_id, created in Seat.objects.filter(
            invite_status=Seat.Invite.INVITED,
            game__creator=creator,
            game__created_at__gt=since,
        ).values_list("game_id", "user_id", "game__created_at")
    }
    for _receiver, told in signals.invitations_told.send(
        sender=Game, creator=creator, since=since
    ):
        for game_id, user_id, created in cast("list[tuple[int, int, Any]]", told):
            made.setdefault((game_id, user_id), created)
    return sorted(made.values())


def _invitations_allowed(*, creator: User, invitees: Sequence[User]) -> None:
    """Refuse invitations that would flood a player (issue #23): to a player who
    blocks ``creator`` (the message does not say why), to one ``creator``
    already invited to a game not started yet, or beyond
    ``INVITATIONS_PER_HOUR`` invitations of ``creator`` in the last hour.
    (The invitee's side, ``INVITATION_NOTICES_PER_HOUR``, is
    ``notify.services.channels``: beyond it the invitation stands, untold.)
    Called inside the creating transaction with the creator's row locked, so two
    creations at once are counted one after the other."""
    if not invitees:
        return
    User.objects.select_for_update().filter(pk=creator.pk).first()
    blockers = blocked_ids(user=creator, among=[u.pk for u in invitees])
    if blockers:
        names = [u.username for u in invitees if u.pk in blockers]
        raise GameActionError(
            ngettext(
                "You cannot invite %(names)s. Invite someone else, or leave the "
                "seat open.",
                "You cannot invite %(names)s. Invite someone else, or leave the "
                "seats open.",
                len(names),
            )
            % {"names": ", ".join(names)},
            "invite_blocked",
        )
    waiting = set(
        Seat.objects.filter(
            game__creator=creator,
            game__status=Game.Status.OPEN,
            invite_status=Seat.Invite.INVITED,
            user__in=invitees,
        ).values_list("user_id", flat=True)
    )
    if waiting:
        names = [u.username for u in invitees if u.pk in waiting]
        raise GameActionError(
            ngettext(
                "You already invited %(names)s, who has not answered yet: wait "
                "for an answer before you invite them again.",
                "You already invited %(names)s, who have not answered yet: wait "
                "for their answers before you invite them again.",
                len(names),
            )
            % {"names": ", ".join(names)},
            "invite_pending",
        )
    per_hour = settings.INVITATIONS_PER_HOUR
    now = clock.now()
    sent = _invitations_since(creator, now - timedelta(hours=1))
    over = len(sent) + len(invitees) - per_hour
    if over <= 0:
        return
    # Enough of this hour's invitations must age out first.
    free_at = sent[over - 1] + timedelta(hours=1) if over <= len(sent) else None
    message = ngettext(
        "You can send %(count)s invitation an hour.",
        "You can send %(count)s invitations an hour.",
        per_hour,
    ) % {"count": per_hour}
    if free_at is not None:
        message += " " + _try_again_at(free_at, now)
    raise GameActionError(message, "invite_rate")


def game_create(
    *,
    creator: User,
    variant: str,
    players: int,
    days_per_move: int,
    rated: bool,
    invitees: Sequence[User] = (),
    computers: Mapping[int, str] = {},  # noqa: B006  (read, never changed)
) -> Game:
    """Open a new game: the creator takes seat 0, ``computers`` (seat number to
    level) their seats, invitees the next free seats. A game whose seats are all
    taken (the creator and computers) starts at once."""
    if variant not in Variant.values:
        raise GameActionError(_("Unknown variant."), "variant")
    if players not in find_variant(variant).players:
        raise GameActionError(_("A game has 2 to 4 players."), "players")
    if days_per_move not in DAYS_PER_MOVE:
        raise GameActionError(_("Unknown time control."), "days_per_move")
    invitees = list(dict.fromkeys(invitees))
    if any(user.pk == creator.pk for user in invitees):
        raise GameActionError(_("You cannot invite yourself."), "invite_self")
    if any(not 1 <= number < players for number in computers):
        raise GameActionError(_("A computer can take any seat but yours."), "seat")
    levels = list(computers.values())
    if any(level not in User.ComputerLevel.values for level in levels):
        raise GameActionError(_("Unknown computer level."), "level")
    if len(set(levels)) < len(levels):
        raise GameActionError(
            _("Each computer level can take only one seat in a game."), "level"
        )
    if len(invitees) > players - 1 - len(computers):
        raise GameActionError(_("More invitations than free seats."), "invites")
    with transaction.atomic():
        _computer_games_allowed(creator=creator, computers=computers)
        _invitations_allowed(creator=creator, invitees=invitees)
        robots = {
            number: computer_player(level=level) for number, level in computers.items()
        }
        game = Game.objects.create(
            variant=variant,
            players=players,
            days_per_move=days_per_move,
            rated=rated,
            creator=creator,
        )
        seats = [Seat(game=game, number=0, user=creator, invite_status="joined")]
        waiting = iter(invitees)
        for number in range(1, players):
            invitee = None if number in robots else next(waiting, None)
            if number in robots:
                seat = Seat(
                    game=game,
                    number=number,
                    user=robots[number],
                    invite_status=Seat.Invite.JOINED,
                )
            elif invitee is not None:
                seat = Seat(
                    game=game,
                    number=number,
                    user=invitee,
                    invite_status=Seat.Invite.INVITED,
                )
            else:
                seat = Seat(game=game, number=number)
            seats.append(seat)
        Seat.objects.bulk_create(seats)
        _start_if_full(game, seats, by=creator.pk)
        for user in invitees:
            transaction.on_commit(
                functools.partial(
                    notifications.invited, game_id=game.pk, user_id=user.pk
                )
            )
            _announce(signals.invited, game_id=game.pk, user_id=user.pk)
    return game


def game_join(*, game_id: int, user: User) -> Game:
    """Take the first open seat of an open game; start it when it is full."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameActionError(_("This game is not open any more."), "not_open")
        seats = list(game.seats.order_by("number"))
        view = seat_view(game=game, user=user, seats=seats)
        mine = view.seat
        if mine is not None:
            if view.may_answer_invitation:
                return _accept(game, mine, seats)
            raise GameActionError(_("You already have a seat here."), "seated")
        seat = next((s for s in seats if s.invite_status == Seat.Invite.OPEN), None)
        if seat is None:
            raise GameActionError(_("There is no open seat left."), "full")
        seat.user = user
        seat.invite_status = Seat.Invite.JOINED
        seat.save(update_fields=["user", "invite_status"])
        _start_if_full(game, seats, by=user.pk)
        _ring_if_waiting(game)
    return game


def game_invitation_respond(*, game_id: int, user: User, accept: bool) -> Game:
    """Accept (take the seat) or decline (the seat becomes open to anyone)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameActionError(_("This game is not open any more."), "not_open")
        seats = list(game.seats.order_by("number"))
        view = seat_view(game=game, user=user, seats=seats)
        mine = view.seat
        if mine is None or not view.may_answer_invitation:
            raise GameActionError(_("You have no invitation to this game."), "invite")
        if accept:
            return _accept(game, mine, seats)
        mine.user = None
        mine.invite_status = Seat.Invite.OPEN
        mine.save(update_fields=["user", "invite_status"])
        _ring_if_waiting(game)
    return game


def _accept(game: Game, seat: Seat, seats: list[Seat]) -> Game:
    seat.invite_status = Seat.Invite.JOINED
    seat.save(update_fields=["invite_status"])
    _start_if_full(game, seats, by=seat.user_id)
    _ring_if_waiting(game)
    return game


def _ring_if_waiting(game: Game) -> None:
    """A seat of a game still waiting for players changed: its open pages
    redraw their seats (starting the game rings through ``_append_events``)."""
    if game.status == Game.Status.OPEN:
        _notify_after_commit(game, {})


def game_cancel(*, game_id: int, user: User) -> Game:
    """The creator calls off a game that has not started."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if not seat_view(game=game, user=user, seats=()).is_creator:
            raise GameActionError(_("Only the creator can cancel a game."), "creator")
        if game.status != Game.Status.OPEN:
            raise GameActionError(
                _("Only a game that has not started can be cancelled."), "not_open"
            )
        game.status = Game.Status.CANCELLED
        game.finished_at = clock.now()
        game.save(update_fields=["status", "finished_at"])
        _notify_after_commit(game, {})
    return game


def _start_if_full(game: Game, seats: list[Seat], *, by: int | None = None) -> None:
    """All seats joined: pick the first player at random and deal round 1.
    ``by``: whose action filled the last seat (told nothing of the start)."""
    if any(s.invite_status != Seat.Invite.JOINED for s in seats):
        return
    rng = _system_rng()
    game.first_seat = rng.randrange(game.players)
    engine = record.new_game(game.variant, game.players, game.first_seat)
    game.status = Game.Status.ACTIVE
    game.started_at = clock.now()
    _append_events(game, engine, [], rng=rng, seats=seats)
    game.save()
    _announce(signals.game_started, game_id=game.pk, started_by=by)


# -------------------------------------------------------------------- play


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


def _play_for_left_seat(engine: EngineGame, rng: random.Random) -> None:
    """A decision for a player who left: the easy computer level (issue #16).

    Played here, in the move's transaction, as the site's forfeit policy was: the
    easy level is a one-move greedy choice (no search; measured p95 0.2 ms, max
    0.6 ms a decision over whole 2- and 4-player games of both families), and
    the table should not wait on a queue for a seat nobody plays.
    """
    engine.play(bots.choose(engine, "easy", seed=rng.randrange(2**32)))


def _computer_turn_enqueue(game_id: int, ply: int) -> None:
    from .tasks import computer_turn_enqueue  # tasks.py imports this module

    computer_turn_enqueue(game_id=game_id, ply=ply)


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
    users = {s.number: s.user_id for s in seats}
    # Seats that left (on time, or by resigning with others still playing).
    forfeited = {s.number for s in seats if s.forfeited_at is not None or s.resigned}
    computers = _computer_seats(seats)
    # Seats whose players let the site play a decision the rules leave alone
    # (a computer plays even its only legal decision from its task).
    plays_forced = {
        s.number
        for s in seats
        if s.user is not None
        and s.user.play_forced
        and s.number not in forfeited
        and s.number not in computers
    }
    forced: list[int] = []  # the plies of those decisions
    while True:
        while engine.needs_chance():
            engine.chance(rng)
        if engine.is_over():
            break
        seat = engine.to_move()
        if seat in forfeited:
            _play_for_left_seat(engine, rng)
            continue
        if seat in plays_forced:
            moves = engine.legal_moves()
            if len(moves) == 1:
                engine.play(moves[0])
                forced.append(len(engine.events()) - 1)
                continue
        break
    new_events = engine.events_from(len(events))
    previous_seat = game.seat_to_move
    rows = [
        Move(
            game=game,
            ply=game.ply + index,
            event=event,
            user_id=users.get(event["seat"]) if "seat" in event else None,
            auto="seat" in event and event["seat"] in forfeited,
            forced=game.ply + index in forced,
        )
        for index, event in enumerate(new_events)
    ]
    Move.objects.bulk_create(rows)
    game.ply += len(rows)
    game.state = {"events": events + new_events, "forced": game.forced_plies + forced}
    game.seat_to_move = engine.to_move()
    dealt = any("deal" in event for event in new_events)
    if game.seat_to_move is not None and (game.seat_to_move != previous_seat or dealt):
        game.turn_deadline = _turn_deadline(
            game,
            next((s for s in seats if s.number == game.seat_to_move), None),
        )
        game.reminder_sent_at = None
        game.turn_email_sent = False
    if engine.is_over():
        game_finish(game=game, engine=engine, reason=Game.EndReason.NORMAL, seats=seats)
    if game.status == Game.Status.ACTIVE and game.seat_to_move in computers:
        # Computers never time out, get no reminder and no e-mail.
        game.turn_deadline = None
        game.reminder_sent_at = None
        game.turn_email_sent = True
        game.computer_turn_since = clock.now()
        transaction.on_commit(
            functools.partial(_computer_turn_enqueue, game.pk, game.ply)
        )
    else:
        game.computer_turn_since = None
    if game.status == Game.Status.ACTIVE and not game.turn_email_sent:
        _announce(signals.turn_started, game_id=game.pk, ply=game.ply)  # "your move"
    # Doorbells for people's pages only: nobody reads a computer's.
    people = {n: uid for n, uid in users.items() if n not in computers}
    _notify_after_commit(game, people)


def _notify_after_commit(game: Game, users: Mapping[int, int | None]) -> None:
    user_to_move = (
        users.get(game.seat_to_move) if game.seat_to_move is not None else None
    )
    game_id, ply, status = game.pk, game.ply, str(game.status)
    seated = [uid for uid in users.values() if uid is not None]
    transaction.on_commit(
        lambda: notifications.game_updated(
            game_id=game_id,
            ply=ply,
            user_to_move_id=user_to_move,
            status=status,
            seated_user_ids=seated,
        )
    )


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
    ranks and scores included) and the engine after it."""

    game: Game
    engine: EngineGame


def game_play_move(
    *, game_id: int, user: User, move: Mapping[str, Any], expected_ply: int
) -> PlayedMove:
    """Play one decision of ``user`` in game ``game_id``.

    ``move`` is a record event without its ``seat`` (``docs/record.md``: a take
    ``{"from", "colour", "to"}`` or a grey-wall ``{"wall": {"line", "column"}}``);
    ``expected_ply`` is the ply the player's page was drawn at, so a stale page or
    a second click refuses instead of playing twice.

    The caller draws its answer from the returned game and engine, without
    another query or replay.
    """
    try:
        with transaction.atomic():
            game = _locked_game(game_id, with_seats=True)
            seat_rows = list(game.seats.all())  # prefetched, in seat order
            view = seat_view(game=game, user=user, seats=seat_rows)
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
            engine = game_engine(game)
            events = engine.events()
            try:
                engine.apply_event({**move, "seat": seat})
            except EngineError as error:
                raise GameActionError(
                    family_for(game.variant).error_message(error), error.code
                ) from None
            _append_events(game, engine, events, rng=_system_rng(), seats=seat_rows)
            # game_finish changes more fields when the move ended the game.
            game.save(update_fields=_MOVE_FIELDS if game.status == "active" else None)
    except IntegrityError:
        # Another request appended the same ply first (SQLite's only guard).
        raise GameActionError(
            _("That move was already played; here is the current position."), "stale"
        ) from None
    return PlayedMove(game, engine)


def game_resign(*, game_id: int, user: User) -> Game:
    """Leave the game: the resigning player ranks last (after everyone still in).

    With two players (or when only one would be left, or only computer players)
    the game ends now. With three or four the others play on: from now on the
    site plays the resigner's turns with the easy computer level, as after a
    forfeit on time, so the table is not spoiled for the others.
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        seats = list(game.seats.order_by("number"))
        view = seat_view(game=game, user=user, seats=seats)
        seat = view.seat
        if seat is None:
            raise GameActionError(_("You are not playing in this game."), "seat")
        if game.status != Game.Status.ACTIVE:
            raise GameActionError(_("This game is not in progress."), "status")
        if view.left:
            raise GameActionError(_("You have already left this game."), "left")
        seat.resigned = True
        seat.forfeited_ply = game.ply  # when they left, for the ranks and the log
        seat.left_at = clock.now()
        seat.save(update_fields=["resigned", "forfeited_ply", "left_at"])
        engine = game_engine(game)
        if _nobody_left_to_play(seats):
            game_finish(
                game=game, engine=engine, reason=Game.EndReason.RESIGNED, seats=seats
            )
            _notify_after_commit(game, {s.number: s.user_id for s in seats})
        else:
            if game.seat_to_move == seat.number:
                game.seat_to_move = None  # the next live seat's clock starts afresh
            _append_events(
                game, engine, engine.events(), rng=_system_rng(), seats=seats
            )
        game.save()
    return game


def _nobody_left_to_play(seats: Sequence[Seat]) -> bool:
    """Only one player is still in, or no person is: the game ends now (computer
    players do not play a game out among themselves)."""
    still_playing = [s for s in seats if s.forfeited_at is None and not s.resigned]
    people = [s for s in still_playing if s.user is None or not s.user.computer_level]
    return len(still_playing) <= 1 or not people


def _left_at(seat: Seat, game: Game) -> tuple[int, float] | None:
    """When a seat left the game (forfeit or resignation): the ply, then the
    time (two can leave at the same ply); None if it is still in."""
    if seat.forfeited_ply is None and not seat.resigned:
        return None
    ply = game.ply if seat.forfeited_ply is None else seat.forfeited_ply
    return ply, seat.left_at.timestamp() if seat.left_at is not None else 0.0


def game_finish(
    *, game: Game, engine: EngineGame, reason: str, seats: Sequence[Seat]
) -> None:
    """The one place a game ends: final scores and ranks on the seats.

    Players still in the game rank first: at a normal end by the engine's outcome
    (``docs/rules/azul.md §7``; Summer Pavilion shares ties,
    ``docs/rules/summer-pavilion.md §7``), else by their current score and then
    complete wall rows. Seats that resigned or forfeited on time rank after all
    of them, the one that left later above the one that left earlier. Totals and
    ratings are updated here, in the same transaction
    (``ratings.ratings_update_for_game``).
    ``seats`` are the game's seats in order; they get their final score and rank
    (so a caller that drew them from the same objects shows the result). The
    caller holds the row lock and saves ``game``.
    """
    outcome = engine.outcome()
    if reason == Game.EndReason.NORMAL and outcome is not None:
        scores = list(outcome.scores)
        strength: list[tuple[int, ...]] = [(-rank,) for rank in outcome.ranks]
    else:
        scores = list(engine.scores)
        strength = engine.standing_keys()
    keys: list[tuple[float, ...]] = []
    for seat in seats:
        left = _left_at(seat, game)
        still_in = (1, 0, 0.0) if left is None else (0, *left)
        keys.append((*still_in, *strength[seat.number]))
    ranks = [1 + sum(1 for other in keys if other > key) for key in keys]
    table = Seat.score_table_of(game)
    for seat in seats:
        seat.score = scores[seat.number]
        seat.rank = ranks[seat.number]
        seat.score_table = table
    Seat.objects.bulk_update(seats, ["score", "rank", "score_table"])
    game.status = Game.Status.FINISHED
    game.end_reason = reason
    game.finished_at = clock.now()
    game.seat_to_move = None
    game.turn_deadline = None
    game.computer_turn_since = None
    ratings_update_for_game(game=game)
    if not game.imported:
        _announce(signals.game_finished, game_id=game.pk)


# -------------------------------------------------------------- deadlines


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
        game = _locked_game(game_id)
        seats = list(game.seats.order_by("number"))
        late = next(s for s in seats if s.number == game.seat_to_move)
        late.forfeited_at = late.left_at = now
        late.forfeited_ply = game.ply
        late.save(update_fields=["forfeited_at", "forfeited_ply", "left_at"])
        engine = game_engine(game)
        if _nobody_left_to_play(seats):
            game_finish(
                game=game, engine=engine, reason=Game.EndReason.TIMEOUT, seats=seats
            )
            _notify_after_commit(game, {s.number: s.user_id for s in seats})
        else:
            game.seat_to_move = None  # the next live seat's clock starts afresh
            _append_events(
                game, engine, engine.events(), rng=_system_rng(), seats=seats
            )
        game.save()
    return True


# --------------------------------------------------------------- vacation


def _year_bounds(when: Any) -> tuple[Any, Any]:
    start = when.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return start, start.replace(year=start.year + 1)


def _days_charged(vacation: Vacation) -> int:
    seconds = (vacation.ends_at - vacation.starts_at).total_seconds()
    return max(1, -(-int(seconds) // 86400))


def vacation_days_used(*, user: User) -> int:
    """Whole days (rounded up) of the vacations ``user`` started this year."""
    start, end = _year_bounds(clock.now())
    return sum(
        _days_charged(v)
        for v in Vacation.objects.filter(
            user=user, starts_at__gte=start, starts_at__lt=end
        )
    )


def vacation_current(*, user: User) -> Vacation | None:
    now = clock.now()
    return (
        Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .first()
    )


def _shift_my_deadlines(user: User, delta: timedelta) -> None:
    """Move the deadlines of the games where ``user`` is to move by ``delta``."""
    games = (
        Game.objects.select_for_update()
        .filter(status=Game.Status.ACTIVE, turn_deadline__isnull=False)
        .filter(seats__user=user)
    )
    for game in games:
        if game.turn_deadline is None or game.seat_to_move is None:
            continue
        if not game.seats.filter(user=user, number=game.seat_to_move).exists():
            continue
        game.turn_deadline += delta
        game.reminder_sent_at = None
        game.save(update_fields=["turn_deadline", "reminder_sent_at"])
        _notify_after_commit(game, {s.number: s.user_id for s in game.seats.all()})


def vacation_start(*, user: User, days: int) -> Vacation:
    """Stop ``user``'s clocks for ``days`` days (of 14 a calendar year)."""
    if days < 1:
        raise GameActionError(_("A vacation lasts at least one day."), "days")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        if vacation_current(user=user) is not None:
            raise GameActionError(_("You are already on vacation."), "on_vacation")
        left = VACATION_DAYS_PER_YEAR - vacation_days_used(user=user)
        if days > left:
            raise GameActionError(
                ngettext(
                    "You have %(left)s vacation day left this year.",
                    "You have %(left)s vacation days left this year.",
                    left,
                )
                % {"left": left},
                "too_long",
            )
        now = clock.now()
        vacation = Vacation.objects.create(
            user=user, starts_at=now, ends_at=now + timedelta(days=days)
        )
        _shift_my_deadlines(user, timedelta(days=days))
    return vacation


def vacation_end(*, user: User) -> None:
    """Come back early: the clocks run again and the unused whole days return."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        vacation = vacation_current(user=user)
        if vacation is None:
            raise GameActionError(_("You are not on vacation."), "not_on_vacation")
        now = clock.now()
        unused = vacation.ends_at - now
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
        _shift_my_deadlines(user, -unused)


# ------------------------------------------------------------------ records

RECORD_MAX_BYTES = 1_000_000
"""Largest record file accepted (a long 4-player game is ~15 kB)."""


def _record_name(name: str) -> str:
    """A record's player name as a seat may store it: no control characters
    (PostgreSQL refuses ``\\u0000``) and no lone surrogates (no database can
    encode them), trimmed to 60 characters."""
    return "".join(
        char for char in name if unicodedata.category(char) not in ("Cc", "Cs")
    ).strip()[:60]


class ImportedRecord(NamedTuple):
    """The game a record was stored as, and whether this upload stored it."""

    game: Game
    created: bool


def _record_digest(variant: str, names: Sequence[str], events: Any) -> str:
    canonical = json.dumps(
        {"variant": variant, "names": list(names), "events": events},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def game_import(*, uploader: User, data: bytes | str) -> ImportedRecord:
    """Store an uploaded record (``docs/record.md``) as an unrated imported game.

    Every event is checked by the engine (``record.load``); a bad record raises
    :class:`GameActionError` naming the event and the reason, and stores nothing.
    The record's names become the seats' display names (they need not be users);
    a finished record gets the engine's final scores and ranks. A record that
    was imported before (the same variant, names and events, whoever uploaded
    it) is not stored again: the first import is returned.
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
    names = [
        _record_name(name) or _("Player %(n)s") % {"n": number + 1}
        for number, name in enumerate(loaded.names)
    ]
    digest = _record_digest(engine.variant, names, events)
    earlier = Game.objects.filter(record_digest=digest).first()
    if earlier is not None:
        return ImportedRecord(earlier, created=False)
    now = clock.now()
    try:
        with transaction.atomic():
            game = _store_import(uploader, engine, names, digest, now)
    except IntegrityError:  # the same record, uploaded at the same moment
        return ImportedRecord(Game.objects.get(record_digest=digest), created=False)
    return ImportedRecord(game, created=True)


def _store_import(
    uploader: User, engine: EngineGame, names: list[str], digest: str, now: Any
) -> Game:
    """The rows of an imported game: the game, its seats and its moves."""
    events = engine.events()
    outcome = engine.outcome()
    game = Game.objects.create(
        record_digest=digest,
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
            display_name=name,
            score=outcome.scores[number] if outcome else None,
            rank=outcome.ranks[number] if outcome else None,
        )
        for number, name in enumerate(names)
    )
    Move.objects.bulk_create(
        Move(game=game, ply=ply, event=event) for ply, event in enumerate(events)
    )
    return game
