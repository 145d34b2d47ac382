"""What the game side does when the accounts side announces something
(``accounts.signals``). Connected in ``GamesConfig.ready()``."""

from __future__ import annotations

import contextlib
from typing import Any

from accounts import signals

from .models import Game, Seat
from .services import GameActionError, game_invitation_respond


def on_block_created(*, blocker: Any, blocked: Any, **_: Any) -> None:
    """The invitations of ``blocked`` to ``blocker`` still waiting for an answer
    are declined, as if ``blocker`` had declined each: the seat opens to anyone,
    and they are told nothing else (issue #23)."""
    pending = Game.objects.filter(
        status=Game.Status.OPEN,
        creator=blocked,
        seats__user=blocker,
        seats__invite_status=Seat.Invite.INVITED,
    ).values_list("pk", flat=True)
    for game_id in list(pending):
        # Answered or started meanwhile: nothing left to decline.
        with contextlib.suppress(GameActionError):
            game_invitation_respond(game_id=game_id, user=blocker, accept=False)


def connect() -> None:
    """Subscribe to the accounts side's announcements (once: ``dispatch_uid``)."""
    signals.block_created.connect(on_block_created, dispatch_uid="games.on_block")
