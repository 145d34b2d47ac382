"""Reads on accounts that views and other apps share: who blocks whom, who
follows whom (friends follow each other), who is around, and who is called
what.

Blocks are read here only (issue #23: no invitations from a player you blocked;
issue #26 builds chat and open games on the same answer), so "does A block B,
or either way" has one answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from .models import Block, Follow, GamePage, User
from .usernames import username_key


def blocked_ids(
    *, user: User, among: Iterable[int], either_way: bool = False
) -> set[int]:
    """The ids in ``among`` of the players who block ``user``; with
    ``either_way``, also those whom ``user`` blocks (one query either way)."""
    ids = set(among)
    if not ids:
        return set()
    blocks = Q(blocked=user, blocker_id__in=ids)
    if either_way:
        blocks |= Q(blocker=user, blocked_id__in=ids)
    return {
        blocked if blocker == user.pk else blocker
        for blocker, blocked in Block.objects.filter(blocks).values_list(
            "blocker_id", "blocked_id"
        )
    }


def user_blocks(*, blocker: User, blocked: User) -> bool:
    """``blocker`` blocks ``blocked`` (one way)."""
    return blocker.pk in blocked_ids(user=blocked, among=[blocker.pk])


def block_list(*, user: User) -> QuerySet[User]:
    """The players ``user`` blocks, by name."""
    return User.objects.filter(blocked_by__blocker=user).order_by("username")


def follows(*, follower: User, followed: User) -> bool:
    """``follower`` follows ``followed`` (one way)."""
    return Follow.objects.filter(follower=follower, followed=followed).exists()


def _mutual(user: User) -> QuerySet[Follow]:
    """``user``'s follows of players who follow them back."""
    back = Follow.objects.filter(follower=OuterRef("followed"), followed=user)
    return Follow.objects.filter(Exists(back), follower=user)


def friend_ids(*, user: User) -> set[int]:
    """The ids of ``user``'s friends: the players they follow who follow them
    (issue #26; one query)."""
    return set(_mutual(user).values_list("followed_id", flat=True))


def are_friends(*, user: User, other: User) -> bool:
    """``user`` and ``other`` follow each other."""
    return _mutual(user).filter(followed=other).exists()


def following(*, user: User) -> QuerySet[User]:
    """The players ``user`` follows, by name."""
    return User.objects.filter(followers__follower=user, is_active=True).order_by(
        "username"
    )


def follow_counts(*, user: User) -> tuple[int, int]:
    """How many follow ``user``, and how many ``user`` follows (one query)."""
    counts = Follow.objects.filter(Q(followed=user) | Q(follower=user)).aggregate(
        followers=Count("pk", filter=Q(followed=user)),
        following=Count("pk", filter=Q(follower=user)),
    )
    return counts["followers"], counts["following"]


def user_by_name(*, name: str) -> User | None:
    """The player called ``name`` as players read names, capitals and Unicode
    forms folded (``accounts.usernames``: "bob" finds Bob, as no two accounts
    share that reading); None for nobody. A legacy account without a key
    (migration 0004) is found by its exact name."""
    found = User.objects.filter(username_key=username_key(name)).first()
    return found or User.objects.filter(username=name).first()


# ------------------------------------------------------------ who is around

PAGE_STALE = timedelta(minutes=10)
"""A ``GamePage`` row younger than this is an open page: its socket refreshes
it every few minutes (``games.people.presence.REFRESH``), so a server process that
died without closing its sockets stops counting within minutes, not after
Daphne's socket timeout."""


def open_game_pages(*, now: datetime | None = None) -> QuerySet[GamePage]:
    """The game pages open at ``now`` (fresh ``GamePage`` rows; the site's
    clock, ``games.clock``, when games asks), for the reads of
    ``games.people.presence`` and ``games.people.watch``."""
    now = timezone.now() if now is None else now
    return GamePage.objects.filter(seen_at__gt=now - PAGE_STALE)


def with_open_pages(*, user_ids: Iterable[int]) -> set[int]:
    """The ids among ``user_ids`` of players with a game page open (one query)."""
    return set(
        open_game_pages()
        .filter(user_id__in=list(user_ids))
        .values_list("user_id", flat=True)
    )


@dataclass(frozen=True)
class Presence:
    """Whether a player is around, as one viewer may see it (issue #26)."""

    online: bool
    """A page of theirs is open (a game page's socket), or a request of theirs
    came within ``PRESENCE_ONLINE_SECONDS``."""
    last_seen_at: datetime | None
    """Their last request or closed page (``User.last_seen_at``)."""
    hidden: bool = False
    """The viewer is the player, who hides it from everyone else."""


def presence(
    *, users: Iterable[User | None], viewer: User | AnonymousUser | None
) -> dict[int, Presence]:
    """Who of ``users`` is around, by user id, for ``viewer``: for signed-in
    players only (a visitor sees nobody's: issue #33, a blocked player logged
    out to see the blocker), of players who show it (``User.show_presence``)
    and with no block between them and the viewer either way, or the viewer
    themself; never a computer. A player left out is absent, as one who hides
    it, so nothing tells a block. One query for blocks and one for the open
    pages (``with_open_pages``), however many ``users``; their
    ``last_seen_at`` is read off the rows given."""
    if not isinstance(viewer, User):
        return {}
    me = viewer.pk
    people = {
        user.pk: user
        for user in users
        if user is not None
        and not user.is_computer
        and (user.show_presence or user.pk == me)
    }
    others = set(people) - {me}
    for blocked in (
        blocked_ids(user=viewer, among=others, either_way=True) if others else ()
    ):
        del people[blocked]
    if not people:
        return {}
    open_ids = with_open_pages(user_ids=people)
    recent = timezone.now() - timedelta(seconds=settings.PRESENCE_ONLINE_SECONDS)
    return {
        pk: Presence(
            online=pk in open_ids
            or (user.last_seen_at is not None and user.last_seen_at > recent),
            last_seen_at=user.last_seen_at,
            hidden=pk == me and not user.show_presence,
        )
        for pk, user in people.items()
    }
