"""Play again: a finished game's player offers its players a rematch (issue #26).

The rematch is a new open game with the finished one's settings (variant, player
count, days per move, rated or not) and the same players, the computers
included, seated one place on: the player who moved second moves first
(``docs/together.md``, "Play again"). The one who offers it has joined, the
computers too; every other player is invited and accepts or declines it as any
invitation (``lobby.game_invitation_respond``). It starts when the last of them
accepts; one who declines calls it off for all, and then any of the players may
offer another. A game has one rematch at a time (the ``game_one_rematch``
constraint); the two games link to each other (``Game.rematch_of``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import clock
from games.models import Game, Seat
from games.selectors import seat_view
from games.services.common import GameActionError, locked_game, ring_rematched
from games.services.lobby import (
    computer_games_allowed,
    game_invitation_respond,
    invitations_allowed,
    start_if_full,
    tell_invited,
)


def rematch_seating(game: Game, seats: list[Seat]) -> list[Seat]:
    """``game``'s seats in the order they sit in its rematch: the one who moved
    second first, then on round the table, so the first player changes and the
    turn order stays."""
    first = game.first_seat or 0
    count = len(seats)
    return [seats[(first + 1 + place) % count] for place in range(count)]


def game_rematch(*, game_id: int, user: User) -> Game:
    """Offer the players of finished game ``game_id`` a rematch, as its player
    ``user``; if one is already on (offered and not called off), it is
    returned unchanged: two players who press "Play again" at once get one
    rematch, and the second's press accepts it where they are invited."""
    with transaction.atomic():
        game = locked_game(game_id)
        seats = list(game.seats.select_related("user").order_by("number"))
        view = seat_view(game=game, user=user, seats=seats)
        if view.number is None or game.imported:
            raise GameActionError(
                _("Only the players of a game can play it again."), "rematch_player"
            )
        if not view.may_offer_rematch:
            raise GameActionError(
                _("A game can be played again once it is over."), "rematch_not_over"
            )
        current = _current_rematch(game)
        if current is None:
            return _offer(game, seats, user)
    if seat_view(game=current, user=user).may_answer_invitation:
        return game_invitation_respond(game_id=current.pk, user=user, accept=True)
    return current


def _current_rematch(game: Game) -> Game | None:
    return game.rematches.exclude(status=Game.Status.CANCELLED).first()


def _offer(game: Game, seats: list[Seat], user: User) -> Game:
    order = rematch_seating(game, seats)
    people = [s.user for s in order if s.user is not None]
    computers = {
        number: seat.user.computer_level
        for number, seat in enumerate(order)
        if seat.user is not None and seat.user.computer_level
    }
    invitees = [u for u in people if u.pk != user.pk and not u.computer_level]
    computer_games_allowed(creator=user, computers=computers)
    silent = invitations_allowed(creator=user, invitees=invitees)
    # (a second offer at once waits on the finished game's lock, then finds
    # this one: the constraint game_one_rematch is the data's own guard)
    rematch = Game.objects.create(
        variant=game.variant,
        players=game.players,
        # the finished game's bank; after a game under days per move, the default
        clock=game.clock if game.time_control.banked else clock.DEFAULT.name,
        vacation_spends=game.vacation_spends,
        rated=game.rated,
        creator=user,
        rematch_of=game,
    )
    new_seats = [
        Seat(
            game=rematch,
            number=number,
            user=seat.user,
            invite_status=(
                Seat.Invite.INVITED if seat.user in invitees else Seat.Invite.JOINED
            ),
        )
        for number, seat in enumerate(order)
    ]
    Seat.objects.bulk_create(new_seats)
    start_if_full(rematch, new_seats, by=user.pk)
    tell_invited(rematch, invitees, silent=silent)
    ring_rematched(rematch)
    return rematch
