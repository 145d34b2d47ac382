"""Writes on the account that are not contrib.auth's: language, computer
players, blocks, follows, vacations, the digest's mark and presence."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import selectors, signals
from .models import (
    COMPUTER_USERNAMES,
    VACATION_DAYS_PER_YEAR,
    Block,
    Follow,
    GamePage,
    User,
    Vacation,
)
from .usernames import username_key, validate_one_alphabet


def user_language_set(*, user: User, language: str) -> None:
    """Save the player's language (one of ``settings.LANGUAGES``, or "" = browser's)."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])


def computer_player(*, level: str) -> User:
    """The account of the computer player of ``level`` (created on first use).

    Its password is unusable (nobody logs in as it) and it has no e-mail.
    """
    try:
        username = COMPUTER_USERNAMES[User.ComputerLevel(level)]
    except ValueError:
        raise ValueError(f"unknown computer level {level!r}") from None
    user, created = User.objects.get_or_create(
        computer_level=level,
        defaults={"username": username, "email": "", "play_forced": True},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


BOTS_PER_OWNER = 5
"""Bot accounts one person may run."""


class BotError(ValueError):
    """A bot account the site refuses; ``message`` is translated."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def bot_create(*, owner: User, username: str) -> User:
    """A bot account run by ``owner`` (docs/api.md, "Bot accounts"): no
    password (no browser log-in), no e-mail; its owner makes its tokens. The
    name follows the sign-up rules (one alphabet, none that reads the same as
    another)."""
    if owner.is_computer or owner.is_bot:
        raise BotError(_("Only a person can run a bot account."))
    name = username.strip()
    if not name or len(name) > 30 or not all(c.isalnum() or c in "_-." for c in name):
        raise BotError(
            _("A bot's name is 1 to 30 letters, digits, dots, hyphens or underscores.")
        )
    try:
        validate_one_alphabet(name)
    except ValidationError as error:
        raise BotError(" ".join(error.messages)) from None
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=owner.pk).first()
        if owner.bots.count() >= BOTS_PER_OWNER:
            raise BotError(
                ngettext(
                    "You can run %(count)s bot account.",
                    "You can run %(count)s bot accounts.",
                    BOTS_PER_OWNER,
                )
                % {"count": BOTS_PER_OWNER}
            )
        if User.objects.filter(username_key=username_key(name)).exists():
            raise BotError(_("This name is taken."))
        bot = User(username=name, email="", bot_owner=owner, play_forced=True)
        bot.set_unusable_password()
        bot.save()
    return bot


class BlockError(ValueError):
    """A block the site refuses; ``message`` is translated, for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def block_create(*, blocker: User, blocked: User) -> Block:
    """``blocker`` blocks ``blocked``: no invitation from them any more (issue
    #23). Blocking again changes nothing. Their invitations to ``blocker`` still
    waiting for an answer are declined, as if ``blocker`` had declined each:
    the seat opens to anyone, and they are told nothing else
    (``signals.block_created``: ``games.receivers``, in this transaction)."""
    if blocked.pk == blocker.pk:
        raise BlockError(_("You cannot block yourself."))
    if blocked.is_computer:
        raise BlockError(_("A computer player cannot be blocked."))
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        # Neither follows the other any more (issue #26; ``follow_create``
        # refuses to follow again while the block stands).
        Follow.objects.filter(
            Q(follower=blocker, followed=blocked)
            | Q(follower=blocked, followed=blocker)
        ).delete()
        signals.block_created.send(sender=Block, blocker=blocker, blocked=blocked)
    return block


def block_delete(*, blocker: User, blocked: User) -> None:
    """``blocker`` no longer blocks ``blocked`` (nothing to do if they did not)."""
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


# --------------------------------------------------------------- follows


class FollowError(ValueError):
    """A follow the site refuses; ``message`` is translated, for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def follow_create(*, follower: User, followed: User) -> Follow:
    """``follower`` follows ``followed`` (issue #26): their games show on the
    follower's home page; two who follow each other are friends. Following
    again changes nothing. Refused for oneself, a computer, and while
    ``follower`` blocks ``followed``. One whom ``followed`` blocks follows as
    anyone does, and nobody is told (issue #35 item 2: nothing reveals a
    block; a follow tells nobody, and shows only public games)."""
    if followed.pk == follower.pk:
        raise FollowError(_("You cannot follow yourself."))
    if followed.is_computer:
        raise FollowError(_("A computer player cannot be followed."))
    name = {"name": followed.shown_name}
    with transaction.atomic():
        if selectors.user_blocks(blocker=follower, blocked=followed):
            raise FollowError(
                _("You block %(name)s: unblock them first to follow them.") % name
            )
        follow, _created = Follow.objects.get_or_create(
            follower=follower, followed=followed
        )
    return follow


def follow_delete(*, follower: User, followed: User) -> None:
    """``follower`` no longer follows ``followed`` (nothing to do if they did
    not)."""
    Follow.objects.filter(follower=follower, followed=followed).delete()


# --------------------------------------------------------------- vacation

_now: Callable[[], datetime] = timezone.now
"""Where the vacations read the time: Django's clock, until the games side
hands down the site's (``games.clock``, which tests move) with
:func:`clock_use`, since accounts imports no other app."""


def clock_use(now: Callable[[], datetime]) -> None:
    """Read the time from ``now`` from here on (``games.receivers.connect``, in
    ``GamesConfig.ready()``), so a vacation and the deadlines it moves agree."""
    global _now
    _now = now


class VacationError(ValueError):
    """A vacation the site refuses; ``message`` is translated, for the player."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _year_bounds(when: datetime) -> tuple[datetime, datetime]:
    start = when.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return start, start.replace(year=start.year + 1)


def _days_charged(vacation: Vacation) -> int:
    seconds = (vacation.ends_at - vacation.starts_at).total_seconds()
    return max(1, -(-int(seconds) // 86400))


def vacation_days_used(*, user: User) -> int:
    """Whole days (rounded up) of the vacations ``user`` started this year."""
    start, end = _year_bounds(_now())
    return sum(
        _days_charged(v)
        for v in Vacation.objects.filter(
            user=user, starts_at__gte=start, starts_at__lt=end
        )
    )


def vacation_current(*, user: User) -> Vacation | None:
    """The vacation ``user`` is on now, or None."""
    now = _now()
    return (
        Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .first()
    )


def _clocks_moved(user: User, delta: timedelta, *, nowait: bool = False) -> None:
    """Tell whoever keeps ``user``'s clocks that they moved by ``delta``
    (``signals.vacation_changed``: ``games`` moves the deadlines of the games
    where they are to move, in this transaction; with ``nowait``, without
    waiting for a lock another transaction holds)."""
    signals.vacation_changed.send(
        sender=Vacation, user_id=user.pk, delta=delta, nowait=nowait
    )


def vacation_start(*, user: User, days: int) -> Vacation:
    """Stop ``user``'s clocks for ``days`` days (of 14 a calendar year)."""
    if days < 1:
        raise VacationError(_("A vacation lasts at least one day."), "days")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        if vacation_current(user=user) is not None:
            raise VacationError(_("You are already on vacation."), "on_vacation")
        left = VACATION_DAYS_PER_YEAR - vacation_days_used(user=user)
        if days > left:
            raise VacationError(
                ngettext(
                    "You have %(left)s vacation day left this year.",
                    "You have %(left)s vacation days left this year.",
                    left,
                )
                % {"left": left},
                "too_long",
            )
        now = _now()
        vacation = Vacation.objects.create(
            user=user, starts_at=now, ends_at=now + timedelta(days=days)
        )
        _clocks_moved(user, timedelta(days=days))
    return vacation


def vacation_end(*, user: User) -> None:
    """Come back early: the clocks run again and the unused whole days return."""
    if not vacation_end_now(user=user):
        raise VacationError(_("You are not on vacation."), "not_on_vacation")


def vacation_end_now(*, user: User, nowait: bool = False) -> bool:
    """End ``user``'s vacation now if they are on one, and say whether they
    were: coming back early (``vacation_end``), or a move made during it
    (``games.services.play``, docs/clock.md, "A move ends a vacation"). The
    vacation's end becomes now, the unused whole days return, and the
    deadlines it pushed move back (``signals.vacation_changed``, in this
    transaction). Locks the account first, then (through the signal) its
    games, as ``vacation_start`` does; with ``nowait`` (a move, which holds
    its game's lock already) it waits for none of them and raises
    ``django.db.DatabaseError`` when one is held elsewhere, so no two
    transactions ever wait on each other."""
    with transaction.atomic():
        User.objects.select_for_update(nowait=nowait).filter(pk=user.pk).first()
        vacation = vacation_current(user=user)
        if vacation is None:
            return False
        now = _now()
        unused = vacation.ends_at - now
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
        _clocks_moved(user, -unused, nowait=nowait)
    return True


# --------------------------------------------------------------- digest


def user_digest_claim(*, user_id: int, since: datetime, now: datetime) -> bool:
    """The daily digest of ``user_id`` goes out ``now`` (``games.jobs``): marked
    sent (``User.digest_sent_at``) unless one went after ``since`` (compare and
    set, so two job processes send it once); whether this caller claimed it."""
    return bool(
        User.objects.filter(pk=user_id)
        .filter(Q(digest_sent_at__isnull=True) | Q(digest_sent_at__lte=since))
        .update(digest_sent_at=now)
    )


# --------------------------------------------------------------- presence


def user_seen(*, user_id: int) -> None:
    """``user_id`` was around just now: one UPDATE of ``User.last_seen_at``
    (issue #26; callers keep it to once a minute, ``accounts.presence``)."""
    User.objects.filter(pk=user_id).update(last_seen_at=timezone.now())


def game_page_open(
    *, user_id: int, game_id: int, channel_name: str, now: datetime
) -> None:
    """``user_id`` opened the page of ``game_id`` on the socket ``channel_name``
    at ``now`` (``games.people.presence``); rows a dead process left behind, long
    stale, go."""
    GamePage.objects.update_or_create(
        channel_name=channel_name,
        defaults={"user_id": user_id, "game_id": game_id, "seen_at": now},
    )
    GamePage.objects.filter(seen_at__lt=now - 10 * selectors.PAGE_STALE).delete()


def game_page_touch(*, channel_name: str, now: datetime) -> None:
    """The page on ``channel_name`` is still open at ``now``."""
    GamePage.objects.filter(channel_name=channel_name).update(seen_at=now)


def game_page_close(*, channel_name: str) -> None:
    """The page on ``channel_name`` closed."""
    GamePage.objects.filter(channel_name=channel_name).delete()
