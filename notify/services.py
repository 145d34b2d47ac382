"""Who hears of what, and how: push, e-mail, both or neither (issue #18).

Each kind of notification has its own choice on the account (``User.notify_turn``,
``notify_game``, ``notify_reminder``, ``notify_finished``; a vacation day spent
when a bank ran out is told as a reminder, a league season that starts as a
game that starts, one that ends as a game that finished: ``notify.seasons``).
E-mail also follows ``User.email_notifications``: "never" sends no e-mail at
all, and a player on the daily digest gets no e-mail on each move. Push goes to
every browser the player turned it on in (``PushSubscription``), except about
a game whose page that player has open right now (``games.people.presence``):
the board already says it. Computer players and inactive accounts hear nothing.

No floods (issue #23): one player hears of at most
``INVITATION_NOTICES_PER_HOUR`` invitations an hour, from everyone together
(later ones wait in their list, untold); "your move" comes by e-mail only in
games with another person in them, unless the player asked for it in games
against the computer too (``User.email_computer_turns``); and the e-mail waits
while the player has the game's page open or moved in it a moment ago
(:func:`turn_email_waits`): the deadline job sends it once they have left.

These functions send; they run in the task worker (``notify.tasks``) or the
deadline job (``games.jobs``), never in a request. The callers claim each
occasion first (a guarded UPDATE or a :class:`Notice` row), so nothing goes twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import Channel, User
from games import clock, emails
from games.models import Game, Move, Seat
from games.people import presence

from .models import Notice, PushSubscription
from .push import send_push

logger = logging.getLogger(__name__)

KIND_FIELDS = {
    "turn": "notify_turn",
    "invited": "notify_game",
    "started": "notify_game",
    "reminder": "notify_reminder",
    "finished": "notify_finished",
    "chat": "notify_chat",
    "vacation": "notify_reminder",
    "season_started": "notify_game",
    "season_ended": "notify_finished",
}


@dataclass
class Sent:
    emails: int = 0
    pushes: int = 0

    def __iadd__(self, other: Sent) -> Sent:
        self.emails += other.emails
        self.pushes += other.pushes
        return self


def _against_computers(user: User, game: Game) -> bool:
    """Every other seat of ``game`` is a computer's."""
    others = Seat.objects.filter(game=game).exclude(user=user)
    return not others.filter(user__computer_level="").exists()


def _invitations_told_lately(user: User) -> int:
    """Invitations to ``user`` claimed in the last hour (this one included:
    ``notify.tasks.invited`` claims before it sends), told or not."""
    since = clock.now() - timedelta(hours=1)
    return Notice.objects.filter(
        user=user, kind=Notice.Kind.INVITED, sent_at__gt=since
    ).count()


def channels(
    user: User | None, kind: str, game: Game | None = None
) -> tuple[bool, bool]:
    """(by e-mail, by push) for a notification of ``kind`` to ``user``, about
    ``game`` when given: no "your move" e-mail in a game against computers
    unless chosen, no word of an invitation beyond the hour's cap."""
    if user is None or not user.is_active or user.is_computer:
        return False, False
    if kind == "invited" and (
        _invitations_told_lately(user) > settings.INVITATION_NOTICES_PER_HOUR
    ):
        return False, False
    choice = getattr(user, KIND_FIELDS[kind])
    push = choice in (Channel.BOTH, Channel.PUSH)
    frequency = user.email_notifications
    email = (
        choice in (Channel.BOTH, Channel.EMAIL)
        and bool(user.email)
        and frequency != User.EmailNotifications.NEVER
        and (
            kind not in ("turn", "chat")
            or frequency == User.EmailNotifications.EACH_MOVE
        )
    )
    if email and kind == "turn" and game is not None:
        email = user.email_computer_turns or not _against_computers(user, game)
    return email, push


def turn_email_waits(*, user: User, game: Game) -> bool:
    """The "your move" e-mail of ``game`` is not needed yet: ``user`` would get
    one (:func:`channels`) but has the game's page open, or made a move of
    their own in it (not one the site played for them) less than
    ``TURN_EMAIL_QUIET_MINUTES`` ago. The turn stays untold meanwhile; the
    deadline job (``notify.jobs.process_turn_emails``) sends it once neither
    holds and they still have not moved."""
    if not channels(user, "turn", game)[0]:
        return False
    if presence.watching(user_id=user.pk, game_id=game.pk):
        return True
    quiet = timedelta(minutes=settings.TURN_EMAIL_QUIET_MINUTES)
    if not quiet:
        return False
    now = clock.now()
    # Between then and now on the site's clock (games.clock), which tests move.
    return Move.objects.filter(
        game=game,
        user=user,
        auto=False,
        forced=False,
        created_at__gt=now - quiet,
        created_at__lte=now,
    ).exists()


def claim(*, user: User, game: Game | None, kind: str, key: str = "") -> bool:
    """Record that this notice goes out now; False if it already went. One
    about no game (a league season's) is told apart by its ``key`` alone."""
    try:
        with transaction.atomic():
            Notice.objects.create(
                user=user, game=game, kind=kind, key=key, sent_at=clock.now()
            )
    except IntegrityError:
        return False
    return True


def _safely(action: str, send: Callable[[], object]) -> bool:
    try:
        send()
    except Exception:
        logger.exception("could not send the %s e-mail", action)
        return False
    return True


def push_payload(
    user: User,
    game: Game,
    template: str,
    context: dict[str, Any],
    *,
    path: str | None = None,
) -> dict[str, str]:
    """The message the service worker shows (``templates/notify/sw.js``): its
    title is the e-mail's subject, its text a line of its own, both in the
    player's language and time zone; a click opens ``path``, by default the
    game's page."""
    with emails.for_recipient(user):
        context = {**context, "game": game, "user": user}
        title = emails.render_subject(user, template, context)
        body = render_to_string(f"notify/push/{template}.txt", context)
    return {
        "title": title,
        "body": " ".join(body.split()),
        "url": path or emails.game_path(game),
        "tag": f"game-{game.pk}",
        "kind": template,
    }


def push_to_user(
    user: User,
    game: Game,
    template: str,
    context: dict[str, Any],
    *,
    ttl: int,
    path: str | None = None,
) -> int:
    """Push to each of ``user``'s browsers (none while they have the game's page
    open), opening ``path`` (by default the game's page); how many push
    services took it. Each send is on its own: one that fails, however, is
    logged and the next browser still hears."""
    subscriptions = list(PushSubscription.objects.filter(user=user))
    if not subscriptions or presence.watching(user_id=user.pk, game_id=game.pk):
        return 0
    payload = push_payload(user, game, template, context, path=path)
    return push_each(subscriptions, payload, ttl=ttl)


def push_each(
    subscriptions: Iterable[PushSubscription], payload: dict[str, str], *, ttl: int
) -> int:
    """Push ``payload`` to each of ``subscriptions``; how many push services
    took it. Each send is on its own: one that fails is logged and the next
    browser still hears."""
    taken = 0
    for subscription in subscriptions:
        try:
            taken += send_push(subscription, payload, ttl=ttl)
        except Exception:
            logger.exception("could not push to subscription %s", subscription.pk)
    return taken


class SubscriptionTaken(Exception):
    """The endpoint is another account's, and the keys posted are not its."""


def push_subscription_save(
    *, user: User, endpoint: str, p256dh: str, auth: str, device: str
) -> tuple[PushSubscription, bool]:
    """Store this browser's subscription for ``user``; (it, whether it is new).

    An endpoint already stored for ``user`` is updated. One stored for another
    account stays that account's (:class:`SubscriptionTaken`) unless the same
    keys come with it: then it is the same browser, now signed in as ``user``
    (only that browser and this site know its auth secret), and it moves.
    ``user`` keeps at most ``PUSH_MAX_SUBSCRIPTIONS``: the oldest go."""
    with transaction.atomic():
        # One account's subscribes in turn, so the count below holds.
        list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
        fields = {"user": user, "p256dh": p256dh, "auth": auth, "user_agent": device}
        subscription, created = (
            PushSubscription.objects.select_for_update().get_or_create(
                endpoint=endpoint, defaults=fields
            )
        )
        if not created:
            if subscription.user_id != user.pk:
                if (subscription.p256dh, subscription.auth) != (p256dh, auth):
                    raise SubscriptionTaken(endpoint)
                # new to this account; Django's clock, as auto_now_add (not game time)
                subscription.created_at = timezone.now()
            for name, value in fields.items():
                setattr(subscription, name, value)
            subscription.save()
        mine = PushSubscription.objects.filter(user=user)
        kept = list(
            mine.order_by("-created_at", "-pk").values_list("pk", flat=True)[
                : max(1, settings.PUSH_MAX_SUBSCRIPTIONS)
            ]
        )
        mine.exclude(pk__in=kept).delete()
    return subscription, created


def push_subscription_delete(
    *,
    user: User,
    endpoints: Collection[str] = (),
    subscription_id: int | None = None,
) -> int:
    """Remove ``user``'s subscription at any of ``endpoints`` (a browser's own,
    turned off there) or the one numbered ``subscription_id`` (from the
    settings page); how many rows went. Another account's are never touched."""
    mine = PushSubscription.objects.filter(user=user)
    if subscription_id is not None:
        mine = mine.filter(pk=subscription_id)
    else:
        mine = mine.filter(endpoint__in=set(endpoints))
    deleted, _rows = mine.delete()
    return deleted


def _notify(
    user: User,
    game: Game,
    kind: str,
    send_email: Callable[[], object] | None,
    context: dict[str, Any] | None = None,
    *,
    ttl: int = 86400,
    path: str | None = None,
) -> Sent:
    by_email, by_push = channels(user, kind, game)
    sent = Sent()
    if by_email and send_email is not None and _safely(kind, send_email):
        sent.emails += 1
    if by_push:
        try:
            sent.pushes += push_to_user(
                user, game, kind, context or {}, ttl=ttl, path=path
            )
        except Exception:
            logger.exception("could not push the %s notification", kind)
    return sent


def _seconds_to_deadline(game: Game) -> int:
    if game.turn_deadline is None:
        return 86400
    return max(60, int((game.turn_deadline - clock.now()).total_seconds()))


def notify_turn(*, user: User, game: Game, email: bool = True) -> Sent:
    """It is ``user``'s move in ``game`` (the caller claimed the turn); without
    ``email``, the push alone (the e-mail waits: :func:`turn_email_waits`)."""
    return _notify(
        user,
        game,
        "turn",
        (lambda: emails.send_turn(user=user, game=game)) if email else None,
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


def notify_vacation_day(
    *, user: User, game: Game, until: datetime, days_left: int
) -> Sent:
    """``user``'s bank ran out in ``game`` and one of their vacation days was
    spent (their clocks stop until ``until``): told as their reminders are
    (``User.notify_reminder``)."""
    return _notify(
        user,
        game,
        "vacation",
        lambda: emails.send_vacation_day(
            user=user, game=game, until=until, days_left=days_left
        ),
        {"until": until, "days_left": days_left},
        ttl=max(60, int((until - clock.now()).total_seconds())),
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
        path=emails.review_path(game),  # its review, where a click leads
    )


def _chat_emailed_lately(user: User, game: Game) -> bool:
    """``user`` had a chat e-mail about ``game`` in the last
    ``CHAT_EMAIL_QUIET_MINUTES``."""
    since = clock.now() - timedelta(minutes=settings.CHAT_EMAIL_QUIET_MINUTES)
    return Notice.objects.filter(
        user=user, game=game, kind=Notice.Kind.CHAT, sent_at__gt=since
    ).exists()


def notify_chat(
    *, user: User, game: Game, author: str, text: object, message_id: int
) -> Sent:
    """``author`` wrote ``text`` in ``game``, which ``user`` reads: a push for
    each message, an e-mail at most once in ``CHAT_EMAIL_QUIET_MINUTES`` (the
    claim of message ``message_id``); nothing while their page of it is open."""
    if presence.watching(user_id=user.pk, game_id=game.pk):
        return Sent()
    email = not _chat_emailed_lately(user, game) and claim(
        user=user, game=game, kind=Notice.Kind.CHAT, key=str(message_id)
    )
    return _notify(
        user,
        game,
        "chat",
        (
            (lambda: emails.send_chat(user=user, game=game, author=author, text=text))
            if email
            else None
        ),
        {"author": author, "text": text},
    )
