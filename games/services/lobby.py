"""Writes of the lobby: create a game, join it, answer an invitation, cancel it,
and start it when its last seat is taken (dealing round 1), with the limits one
account has on invitations and games against the computer (issue #23)."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.selectors import blocked_ids
from accounts.services import computer_player
from games import clock, notifications, signals
from games.engine import record
from games.engine.variants import find_variant
from games.models import Game, Invitation, Seat, Variant
from games.selectors import seat_view
from games.services.common import (
    GameActionError,
    announce,
    deals,
    locked_game,
    notify_after_commit,
    ring_rematched,
)
from games.services.turns import append_events


def computer_games_allowed(*, creator: User, computers: Mapping[int, str]) -> None:
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
    (``Invitation``) and answered since, each (game, player) once."""
    made = {
        (game_id, user_id): created
        for game_id, user_id, created in Seat.objects.filter(
            invite_status=Seat.Invite.INVITED,
            game__creator=creator,
            game__created_at__gt=since,
        ).values_list("game_id", "user_id", "game__created_at")
    }
    for game_id, user_id, created in Invitation.objects.filter(
        game__creator=creator, game__created_at__gt=since
    ).values_list("game_id", "user_id", "game__created_at"):
        made.setdefault((game_id, user_id), created)
    return sorted(made.values())


def invitations_allowed(*, creator: User, invitees: Sequence[User]) -> set[int]:
    """Refuse invitations that would flood a player (issue #23): to a player
    ``creator`` blocks (they know it: issue #35 item 2), to one ``creator``
    already invited to a game not started yet, or beyond
    ``INVITATIONS_PER_HOUR`` invitations of ``creator`` in the last hour.
    (The invitee's side, ``INVITATION_NOTICES_PER_HOUR``, is
    ``notify.services.channels``: beyond it the invitation stands, untold.)
    Returns the ids of the invitees who block ``creator``: their invitation
    stands for ``creator`` as any unanswered one, but they are never told nor
    shown it (``tell_invited``; ``selectors.SeatView.may_answer_invitation``),
    so that nothing reveals the block.
    Called inside the creating transaction with the creator's row locked, so two
    creations at once are counted one after the other."""
    if not invitees:
        return set()
    User.objects.select_for_update().filter(pk=creator.pk).first()
    among = [u.pk for u in invitees]
    silent = blocked_ids(user=creator, among=among)
    blocked = blocked_ids(user=creator, among=among, either_way=True) - silent
    if blocked:
        names = [u.username for u in invitees if u.pk in blocked]
        raise GameActionError(
            ngettext(
                "You block %(names)s: unblock them first to invite them.",
                "You block %(names)s: unblock them first to invite them.",
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
        return silent
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


def _game_settings_check(*, variant: str, players: int, time_control: str) -> None:
    """Refuse a variant, player count or time control the site does not offer
    (a new game has one of the bank presets: ``clock.PRESETS``)."""
    if variant not in Variant.values:
        raise GameActionError(_("Unknown variant."), "variant")
    if players not in find_variant(variant).players:
        raise GameActionError(_("A game has 2 to 4 players."), "players")
    if time_control not in {c.name for c in clock.PRESETS}:
        raise GameActionError(_("Unknown time control."), "clock")


def _seating_check(
    *,
    creator: User,
    players: int,
    invitees: Sequence[User],
    computers: Mapping[int, str],
) -> None:
    """Refuse seats the new game cannot give: the creator invited, a computer
    on seat 0 or past the last, an unknown or repeated level, more invitations
    than seats left."""
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


INVITE_TOKEN_BYTES = 16
"""The randomness of an invitation link's secret (``secrets.token_urlsafe``:
22 URL-safe characters)."""


def _invite_link_check(
    *, players: int, invitees: Sequence[User], computers: Mapping[int, str]
) -> None:
    """Refuse an invitation link for a game with no seat left open for it."""
    if len(invitees) >= players - 1 - len(computers):
        raise GameActionError(
            _(
                "No seat is left open for the invitation link: invite fewer "
                "players, take a computer out, or choose more players."
            ),
            "invite_link",
        )


def _new_seats(
    game: Game, *, creator: User, robots: Mapping[int, User], invitees: list[User]
) -> list[Seat]:
    """The new game's seats, in order: the creator's, the computers' (joined),
    the invitees' in the next free seats (invited), then open ones."""
    seats = [Seat(game=game, number=0, user=creator, invite_status="joined")]
    waiting = iter(invitees)
    for number in range(1, game.players):
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
    return seats


def game_create(
    *,
    creator: User,
    variant: str,
    players: int,
    rated: bool,
    time_control: str = clock.DEFAULT.name,
    vacation_spends: bool = True,
    invitees: Sequence[User] = (),
    computers: Mapping[int, str] = {},  # noqa: B006  (read, never changed)
    invite_link: bool = False,
) -> Game:
    """Open a new game: the creator takes seat 0, ``computers`` (seat number to
    level) their seats, invitees the next free seats. A game whose seats are all
    taken (the creator and computers) starts at once. With ``invite_link`` the
    open seats go to whoever has the game's secret link
    (``Game.invite_token``; docs/together.md, "Invite by link"). Its clock is
    the bank ``time_control`` (docs/clock.md); with ``vacation_spends`` off, a
    bank that runs out loses the game without spending a vacation day."""
    _game_settings_check(variant=variant, players=players, time_control=time_control)
    invitees = list(dict.fromkeys(invitees))
    _seating_check(
        creator=creator, players=players, invitees=invitees, computers=computers
    )
    if invite_link:
        _invite_link_check(players=players, invitees=invitees, computers=computers)
    with transaction.atomic():
        computer_games_allowed(creator=creator, computers=computers)
        silent = invitations_allowed(creator=creator, invitees=invitees)
        robots = {
            number: computer_player(level=level) for number, level in computers.items()
        }
        game = Game.objects.create(
            variant=variant,
            players=players,
            clock=time_control,
            vacation_spends=vacation_spends,
            rated=rated,
            creator=creator,
            invite_token=(
                secrets.token_urlsafe(INVITE_TOKEN_BYTES) if invite_link else None
            ),
        )
        seats = _new_seats(game, creator=creator, robots=robots, invitees=invitees)
        Seat.objects.bulk_create(seats)
        start_if_full(game, seats, by=creator.pk)
        tell_invited(game, invitees, silent=silent)
    return game


def tell_invited(game: Game, invitees: Sequence[User], *, silent: set[int]) -> None:
    """Tell each of ``invitees`` of their invitation to ``game`` (their pages
    after commit; e-mail and push by ``signals.invited``), but none in
    ``silent``, who block its creator (issue #35 item 2: nothing tells them)."""
    for user in invitees:
        if user.pk in silent:
            continue
        Invitation.objects.get_or_create(game=game, user=user)
        transaction.on_commit(
            functools.partial(notifications.invited, game_id=game.pk, user_id=user.pk)
        )
        announce(signals.invited, game_id=game.pk, user_id=user.pk)


def game_join(*, game_id: int, user: User, invite_token: str | None = None) -> Game:
    """Take the first open seat of an open game; start it when it is full.
    The open seats of a game with an invitation link go only to those who give
    its token (``link_views``); nobody sits at a table with a player they
    block or who blocks them."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameActionError(_("This game is not open any more."), "not_open")
        seats = list(game.seats.order_by("number"))
        view = seat_view(game=game, user=user, seats=seats)
        mine = view.seat
        if mine is not None:
            if view.may_answer_invitation:
                return _accept(game, mine, seats)
            raise GameActionError(_("You already have a seat here."), "seated")
        if game.invite_token is not None and not (
            invite_token is not None
            and secrets.compare_digest(invite_token, game.invite_token)
        ):
            raise GameActionError(
                _(
                    "The open seats of this game go to those who have its "
                    "invitation link."
                ),
                "invite_link",
            )
        seated = [s.user_id for s in seats if s.user_id is not None]
        if blocked_ids(user=user, among=seated, either_way=True):
            raise GameActionError(
                _(
                    "You cannot join this game: there is a block between you and "
                    "one of its players."
                ),
                "blocked",
            )
        seat = next((s for s in seats if s.invite_status == Seat.Invite.OPEN), None)
        if seat is None:
            raise GameActionError(_("There is no open seat left."), "full")
        seat.user = user
        seat.invite_status = Seat.Invite.JOINED
        seat.save(update_fields=["user", "invite_status"])
        start_if_full(game, seats, by=user.pk)
        _ring_if_waiting(game)
    return game


def game_invitation_respond(*, game_id: int, user: User, accept: bool) -> Game:
    """Accept (take the seat) or decline (the seat becomes open to anyone)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameActionError(_("This game is not open any more."), "not_open")
        seats = list(game.seats.order_by("number"))
        view = seat_view(game=game, user=user, seats=seats)
        mine = view.seat
        # One who blocks the creator never sees the invitation, and may only
        # decline it (``games.receivers.on_block_created`` does, at the block).
        if mine is None or not (
            view.may_answer_invitation or (view.invited and not accept)
        ):
            raise GameActionError(_("You have no invitation to this game."), "invite")
        if accept:
            return _accept(game, mine, seats)
        announce(signals.invitation_declined, game_id=game.pk, user_id=user.pk)
        if game.rematch_of_id is not None:
            _rematch_declined(game, mine)
            return game
        mine.user = None
        mine.invite_status = Seat.Invite.OPEN
        mine.save(update_fields=["user", "invite_status"])
        _ring_if_waiting(game)
    return game


def _rematch_declined(game: Game, seat: Seat) -> None:
    """A rematch is among the same players: one who declines calls it off
    for all (``rematches``); the seat keeps who declined, for the pages."""
    seat.invite_status = Seat.Invite.DECLINED
    seat.save(update_fields=["invite_status"])
    announce(signals.game_cancelled, game_id=game.pk)
    game.status = Game.Status.CANCELLED
    game.finished_at = clock.now()
    game.save(update_fields=["status", "finished_at"])
    notify_after_commit(game, {})
    ring_rematched(game)


def _accept(game: Game, seat: Seat, seats: list[Seat]) -> Game:
    seat.invite_status = Seat.Invite.JOINED
    seat.save(update_fields=["invite_status"])
    start_if_full(game, seats, by=seat.user_id)
    _ring_if_waiting(game)
    ring_rematched(game)
    return game


def _ring_if_waiting(game: Game) -> None:
    """A seat of a game still waiting for players changed: its open pages
    redraw their seats (starting the game rings through ``append_events``)."""
    if game.status == Game.Status.OPEN:
        notify_after_commit(game, {})


def game_cancel(*, game_id: int, user: User) -> Game:
    """The creator calls off a game that has not started."""
    with transaction.atomic():
        game = locked_game(game_id)
        if not seat_view(game=game, user=user, seats=()).is_creator:
            raise GameActionError(_("Only the creator can cancel a game."), "creator")
        if game.status != Game.Status.OPEN:
            raise GameActionError(
                _("Only a game that has not started can be cancelled."), "not_open"
            )
        game.status = Game.Status.CANCELLED
        game.finished_at = clock.now()
        game.save(update_fields=["status", "finished_at"])
        notify_after_commit(game, {})
        ring_rematched(game)
        announce(signals.game_cancelled, game_id=game.pk)
    return game


def _bots_with_people(seats: Sequence[Seat]) -> bool:
    """A bot account (issue #39) and a person at the same table."""
    users = [s.user for s in seats if s.user is not None]
    bots = any(u.is_bot for u in users)
    people = any(not u.is_bot and not u.is_computer for u in users)
    return bots and people


def start_if_full(game: Game, seats: list[Seat], *, by: int | None = None) -> None:
    """All seats joined: pick the first player at random and deal round 1.
    ``by``: whose action filled the last seat (told nothing of the start)."""
    if any(s.invite_status != Seat.Invite.JOINED for s in seats):
        return
    if game.rated and _bots_with_people(seats):
        game.rated = False  # a bot and a person: unrated (docs/api.md)
    rng = deals()
    # a rematch is seated in its turn order (rematches.rematch_seating)
    game.first_seat = 0 if game.rematch_of_id else rng.randrange(game.players)
    engine = record.new_game(game.variant, game.players, game.first_seat)
    game.status = Game.Status.ACTIVE
    game.started_at = clock.now()
    append_events(game, engine, [], rng=rng, seats=seats)
    game.opening = record.opening_key(game.variant, game.cached_events)
    game.save()
    announce(signals.game_started, game_id=game.pk, started_by=by)


def game_start_seated(
    *,
    variant: str,
    users: Sequence[User],
    first_seat: int,
    time_control: str,
    rated: bool = True,
    vacation_spends: bool = False,
    vacation_cap: timedelta | None = None,
    quiet: bool = True,
) -> Game:
    """A game started at once with ``users`` in its seats, in order, and seat
    ``first_seat`` to play first: an event's game (``leagues``), whose
    players were seated by the event, not invited. Its players are not told
    of it, nor of its first turn: the event tells each of them once of all
    its games (issue #38: never one message per game created); with
    ``quiet`` off, its first turn is told as any (a ladder's game). With
    ``vacation_cap``, its players' vacations stop each seat's clock for at
    most that long in all (``Seat.vacation_left_seconds``). The caller's
    transaction, if any, holds it; the first deal is made here."""
    players = len(users)
    _game_settings_check(variant=variant, players=players, time_control=time_control)
    if not 0 <= first_seat < players:
        raise GameActionError(_("No such seat."), "seat")
    with transaction.atomic():
        game = Game.objects.create(
            variant=variant,
            players=players,
            clock=time_control,
            vacation_spends=vacation_spends,
            rated=rated,
            creator=users[0],
            first_seat=first_seat,
        )
        seats = [
            Seat(
                game=game,
                number=number,
                user=user,
                invite_status=Seat.Invite.JOINED,
                vacation_left_seconds=(
                    None if vacation_cap is None else int(vacation_cap.total_seconds())
                ),
            )
            for number, user in enumerate(users)
        ]
        Seat.objects.bulk_create(seats)
        engine = record.new_game(variant, players, first_seat)
        game.status = Game.Status.ACTIVE
        game.started_at = clock.now()
        append_events(game, engine, [], rng=deals(), seats=seats, quiet=quiet)
        game.opening = record.opening_key(game.variant, game.cached_events)
        game.save()
    return game
