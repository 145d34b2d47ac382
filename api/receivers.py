"""Each account's event log (``api.models.ApiEvent``), written when the game
side announces something (``games.signals``, after its commit): what a
program reads from ``GET /api/events`` and the stream."""

from __future__ import annotations

import logging
from typing import Any

from accounts.models import User
from api import ladder, services
from api.models import LadderGame
from api.stream import ring_events
from games import signals
from games.models import Game, Seat

logger = logging.getLogger(__name__)


def _log(user_ids: list[int], kind: str, data: dict[str, Any]) -> None:
    """Log the event for each account, then wake their open streams."""
    services.event_add(user_ids=user_ids, kind=kind, data=data)
    ring_events(user_ids)


def _people(game_id: int) -> list[int]:
    return list(
        Seat.objects.filter(game_id=game_id, user__isnull=False)
        .exclude(user__computer_level__gt="")
        .values_list("user_id", flat=True)
    )


def on_turn_started(*, game_id: int, ply: int, **_: Any) -> None:
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.ACTIVE).first()
    if game is None or game.seat_to_move is None:
        return
    seat = Seat.objects.filter(game=game, number=game.seat_to_move).first()
    if seat is None or seat.user_id is None:
        return
    deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
    _log(
        [seat.user_id], "yourTurn", {"game": game_id, "ply": ply, "deadline": deadline}
    )


def on_game_started(*, game_id: int, **_: Any) -> None:
    services.event_add(
        user_ids=_people(game_id), kind="gameStart", data={"game": game_id}
    )


def on_game_finished(*, game_id: int, **_: Any) -> None:
    _log(_people(game_id), "gameFinish", {"game": game_id})
    ladder.game_ended(game_id=game_id)


def on_invitation_declined(*, game_id: int, user_id: int, **_: Any) -> None:
    """To the creator and the players seated or invited: who declined."""
    others = [
        uid
        for uid in Seat.objects.filter(game_id=game_id, user__isnull=False)
        .exclude(user_id=user_id)
        .values_list("user_id", flat=True)
    ]
    name = User.objects.filter(pk=user_id).values_list("username", flat=True).first()
    _log(others, "challengeDeclined", {"game": game_id, "by": name})


def on_game_cancelled(*, game_id: int, **_: Any) -> None:
    """To the players invited or seated, the creator apart: it is off."""
    creator = Game.objects.filter(pk=game_id).values_list("creator_id", flat=True)
    invited = (
        Seat.objects.filter(game_id=game_id, user__isnull=False)
        .exclude(user_id__in=creator)
        .exclude(user__computer_level__gt="")
        .values_list("user_id", flat=True)
    )
    _log(list(invited), "challengeCanceled", {"game": game_id})


def on_deadline_pass(**_: Any) -> None:
    """The ladder's pairing, on each pass of the deadline job; and the ladder
    games over that a lost receiver did not rate."""
    try:
        ladder.ladder_pass()
        for game_id in LadderGame.objects.filter(
            counted=False, game__status=Game.Status.FINISHED
        ).values_list("game_id", flat=True):
            ladder.game_ended(game_id=game_id)
    except Exception:
        logger.exception("the bot ladder's pass failed")


def on_invited(*, game_id: int, user_id: int, **_: Any) -> None:
    _log([user_id], "challenge", {"game": game_id})


def connect() -> None:
    for signal, receiver in (
        (signals.turn_started, on_turn_started),
        (signals.game_started, on_game_started),
        (signals.game_finished, on_game_finished),
        (signals.invited, on_invited),
        (signals.deadline_pass, on_deadline_pass),
        (signals.invitation_declined, on_invitation_declined),
        (signals.game_cancelled, on_game_cancelled),
    ):
        signal.connect(receiver, dispatch_uid=f"api.{receiver.__name__}")
