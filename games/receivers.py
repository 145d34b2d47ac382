"""What the game side does when the accounts side announces something
(``accounts.signals``), and the site's clock it hands down to accounts.
Connected in ``GamesConfig.ready()``."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.signals import user_logged_in

from accounts import services as account_services
from accounts import signals
from games import clock
from games.lobby import invite_links
from games.models import Game, Seat
from games.services import (
    GameActionError,
    game_deadlines_shift,
    game_invitation_respond,
)


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


def on_vacation_changed(
    *, user_id: int, delta: timedelta, nowait: bool = False, **_: Any
) -> None:
    """A vacation began or ended early (in Settings, or by a move:
    docs/clock.md, "A move ends a vacation"): the deadlines of the games where
    the player is to move move with it, in the vacation's transaction, and every
    open page of their games in progress draws its board again after commit."""
    game_deadlines_shift(user_id=user_id, delta=delta, nowait=nowait)


def _site_now() -> datetime:
    """``games.clock.now``, looked up when called (tests replace it)."""
    return clock.now()


def connect() -> None:
    """Subscribe to the accounts side's announcements (once: ``dispatch_uid``),
    and let accounts read the site's clock (its vacations)."""
    signals.block_created.connect(on_block_created, dispatch_uid="games.on_block")
    signals.vacation_changed.connect(
        on_vacation_changed, dispatch_uid="games.on_vacation"
    )
    account_services.clock_use(_site_now)
    # a visitor who asked for a seat through an invitation link gets it as
    # they sign up or log in
    user_logged_in.connect(
        invite_links.on_logged_in, dispatch_uid="games.invite_link_seat"
    )
