"""What every domain of the services shares: the refusal, the locked row, the
generator of live games and the news sent after commit."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _

from games import notifications
from games.models import Game, Seat
from games.selectors import seats_with_users


class GameActionError(Exception):
    """An action the site refuses; ``message`` is translated, for the player."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def system_rng() -> random.Random:
    """The generator for live games: the OS's, never a stored or guessable seed."""
    return random.SystemRandom()


def deals(rng: random.Random | None = None) -> random.Random:
    """The generator an action passes to the turn loop: ``rng`` when the caller
    gives one, else :func:`system_rng` (the tests and ``bench/`` seed the deals
    by replacing ``common.system_rng``)."""
    return rng if rng is not None else system_rng()


def locked_game(game_id: int, *, with_seats: bool = False) -> Game:
    """The game row, locked; ``with_seats`` prefetches its seats in order, with
    their users and current vacations."""
    games = Game.objects.select_for_update()
    if with_seats:
        games = games.prefetch_related(seats_with_users(vacations=True))
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise GameActionError(_("This game does not exist."), "no_game") from None


def announce(signal: Signal, **ids: Any) -> None:
    """Send ``signal`` (``games.signals``) once the change commits: notify's
    receivers queue their notices then (``notify/receivers.py``)."""
    transaction.on_commit(functools.partial(signal.send, sender=Game, **ids))


def notify_after_commit(
    game: Game, users: Mapping[int, int | None], *, redraw: bool = False
) -> None:
    """Ring the game's doorbell and those of ``users`` (seat number to user id)
    once the change commits (``notifications.game_updated``; ``redraw``: the
    pages draw the board again though the ply did not move)."""
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
            redraw=redraw,
        )
    )


def ring_rematched(rematch: Game) -> None:
    """A rematch was offered, accepted, started or called off: the finished
    game's open pages draw their "Play again" part again after commit."""
    if rematch.rematch_of_id is None:
        return
    old = rematch.rematch_of_id
    users = dict(Seat.objects.filter(game_id=old).values_list("number", "user_id"))
    notify_after_commit(Game.objects.get(pk=old), users, redraw=True)
