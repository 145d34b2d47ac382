"""Reads on accounts that views and other apps share: who blocks whom, and
who is called what.

Blocks are read here only (issue #23: no invitations from a player you blocked;
issue #26 builds chat and open games on the same answer), so "does A block B,
or either way" has one answer.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from .models import Block, User
from .usernames import username_key


def blocked_ids(
    *, user: User, among: Iterable[int], either_way: bool = False
) -> set[int]:
    """The ids in ``among`` of the players who block ``user``; with
    ``either_way``, also those whom ``user`` blocks."""
    ids = set(among)
    if not ids:
        return set()
    found = set(
        Block.objects.filter(blocked=user, blocker_id__in=ids).values_list(
            "blocker_id", flat=True
        )
    )
    if either_way:
        found |= set(
            Block.objects.filter(blocker=user, blocked_id__in=ids).values_list(
                "blocked_id", flat=True
            )
        )
    return found


def user_blocks(*, blocker: User, blocked: User) -> bool:
    """``blocker`` blocks ``blocked`` (one way)."""
    return blocker.pk in blocked_ids(user=blocked, among=[blocker.pk])


def block_list(*, user: User) -> QuerySet[User]:
    """The players ``user`` blocks, by name."""
    return User.objects.filter(blocked_by__blocker=user).order_by("username")


def user_by_name(*, name: str) -> User | None:
    """The player called ``name`` as players read names, capitals and Unicode
    forms folded (``accounts.usernames``: "bob" finds Bob, as no two accounts
    share that reading); None for nobody. A legacy account without a key
    (migration 0004) is found by its exact name."""
    found = User.objects.filter(username_key=username_key(name)).first()
    return found or User.objects.filter(username=name).first()
