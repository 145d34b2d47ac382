"""Who hears of what, and how: push, e-mail, both or neither (issue #18).

Each kind of notification has its own choice on the account (``User.notify_turn``,
``notify_game``, ``notify_reminder``, ``notify_finished``). E-mail also follows
``User.email_notifications``: "never" sends no e-mail at all, and a player on
the daily digest gets no e-mail on each move. Push goes to every browser the
player turned it on in (``PushSubscription``), except about a game whose page
that player has open right now (``notify.presence``): the board already says it.
Computer players and inactive accounts hear nothing.

These functions send; they run in the task worker (``notify.tasks``) or the
deadline job (``games.jobs``), never in a request. The callers claim each
occasion first (a guarded UPDATE or a :class:`Notice` row), so nothing goes twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from accounts.models import Channel, User
from games import clock, emails
from games.models import Game

from . import presence
from .models import Notice, PushSubscription
from .push import send_push

logger = logging.getLogger(__name__)

KIND_FIELDS = {
    "turn": "notify_turn",
    "invited": "notify_game",
    "started": "notify_game",
    "reminder": "notify_reminder",
    "finished": "notify_finished",
}


@dataclass
class Sent:
    emails: int = 0
    pushes: int = 0

    def __iadd__(self, other: Sent) -> Sent:
        self.emails += other.emails
        self.pushes += other.pushes
        return self


def channels(user: User | None, kind: str) -> tuple[bool, bool]:
    """(by e-mail, by push) for a notification of ``kind`` to ``user``."""
    if user is None or not user.is_active or user.is_computer:
        return False, False
    choice = getattr(user, KIND_FIELDS[kind])
    push = choice in (Channel.BOTH, Channel.PUSH)
    frequency = user.email_notifications
    email = (
        choice in (Channel.BOTH, Channel.EMAIL)
        and bool(user.email)
        and frequency != User.EmailNotifications.NEVER
        and (kind != "turn" or frequency == User.EmailNotifications.EACH_MOVE)
    )
    return email, push


def claim(*, user: User, game: Game, kind: str, key: str = "") -> bool:
    """Record that this notice goes out now; False if it already went."""
    try:
        with transaction.atomic():
            Notice.objects.create(
                user=user, game=game, kind=kind, key=key, sent_at=clock.now()
            )
    except IntegrityError:
        return False
    return True


def _safely(action: str, send: Any) -> bool:
    try:
        send()
    except Exception:
        logger.exception("could not send the %s e-mail", action)
        return False
    return True


def push_payload(
    user: User, game: Game, template: str, context: dict[str, Any]
) -> dict[str, Any]:
    """The message the service worker shows (``templates/notify/sw.js``): its
    title is the e-mail's subject, its text a line of its own, both in the
    player's language and time zone; a click opens the game's page."""
    with emails.for_recipient(user):
        context = {**context, "game": game, "user": user}
        title = emails.render_subject(user, template, context)
        body = render_to_string(f"notify/push/{template}.txt", context)
    return {
        "title": title,
        "body": " ".join(body.split()),
        "url": emails.game_path(game),
        "tag": f"game-{game.pk}",
        "kind": template,
    }


def push_to_user(
    user: User, game: Game, template: str, context: dict[str, Any], *, ttl: int
) -> int:
    """Push to each of ``user``'s browsers (none while they have the game's page
    open); how many push services took it."""
    subscriptions = list(PushSubscription.objects.filter(user=user))
    if not subscriptions or presence.watching(user_id=user.pk, game_id=game.pk):
        return 0
    payload = push_payload(user, game, template, context)
    return sum(send_push(s, payload, ttl=ttl) for s in subscriptions)


def _notify(
    user: User,
    game: Game,
    kind: str,
    send_email: Any,
    context: dict[str, Any] | None = None,
    *,
    ttl: int = 86400,
) -> Sent:
    by_email, by_push = channels(user, kind)
    sent = Sent()
    if by_email and _safely(kind, send_email):
        sent.emails += 1
    if by_push:
        try:
            sent.pushes += push_to_user(user, game, kind, context or {}, ttl=ttl)
        except Exception:
            logger.exception("could not push the %s notification", kind)
    return sent


def _seconds_to_deadline(game: Game) -> int:
    if game.turn_deadline is None:
        return 86400
    return max(60, int((game.turn_deadline - clock.now()).total_seconds()))


def notify_turn(*, user: User, game: Game) -> Sent:
    """It is ``user``'s move in ``game`` (the caller claimed the turn)."""
    return _notify(
        user,
        game,
        "turn",
        lambda: emails.send_turn(user=user, game=game),
        ttl=_seconds_to_deadline(game),
    )


def notify_reminder(*, user: User, game: Game, hours: int) -> Sent:
    """The reminder ``hours`` before the deadline of ``user``'s move."""
    return _notify(
        user,
        game,
        "reminder",
        lambda: emails.send_reminder(user=user, game=game, hours=hours),
        {"hours": hours},
        ttl=_seconds_to_deadline(game),
    )


def notify_invited(*, user: User, game: Game) -> Sent:
    return _notify(
        user,
        game,
        "invited",
        lambda: emails.send_invited(user=user, game=game),
        {"creator": game.creator.username},
    )


def notify_game_started(*, user: User, game: Game) -> Sent:
    return _notify(
        user, game, "started", lambda: emails.send_started(user=user, game=game)
    )


def notify_finished(*, user: User, game: Game) -> Sent:
    seats = emails.final_seats(game)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    return _notify(
        user,
        game,
        "finished",
        lambda: emails.send_finished(user=user, game=game),
        {"seats": seats, "mine": mine},
    )
