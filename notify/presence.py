"""Which game pages a player has open, so no push goes out about the game on
their screen (issue #18).

The game page's socket (``games.consumers.GameConsumer``) announces its opening
and closing (``games.signals.page_opened``, ``page_closed``); ``notify.receivers``
calls :func:`page_opened` and :func:`page_closed`, and in between the page's
watch refreshes its row every ``REFRESH`` (:func:`keep_fresh`). A row is taken as an
open page while it is younger than ``STALE``: a server process that died without
closing its sockets stops hiding pushes within minutes, not after Daphne's
socket timeout. Sockets of visitors who are not signed in are not recorded.
Rows are in the database, so every server process and the task worker see them.

The same rows say who is around and who watches (issue #26): :func:`online_ids`
(a player with a game page open is online, ``accounts.selectors.presence``) and
:func:`watcher_counts` (the watchers of a game: its viewers without a seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from datetime import timedelta

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Exists, OuterRef, QuerySet

from accounts.models import User
from games import clock
from games.models import Seat

from .models import GamePage

logger = logging.getLogger(__name__)

REFRESH = timedelta(minutes=4)
STALE = timedelta(minutes=10)


def watching(*, user_id: int, game_id: int) -> bool:
    """``user_id`` has the page of ``game_id`` open (in any browser)."""
    return GamePage.objects.filter(
        user_id=user_id, game_id=game_id, seen_at__gt=clock.now() - STALE
    ).exists()


def _fresh() -> QuerySet[GamePage]:
    return GamePage.objects.filter(seen_at__gt=clock.now() - STALE)


def online_ids(*, user_ids: Iterable[int]) -> set[int]:
    """The ids among ``user_ids`` of players with a game page open (one query)."""
    return set(
        _fresh().filter(user_id__in=list(user_ids)).values_list("user_id", flat=True)
    )


def watcher_counts(*, game_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Game id → how many signed-in people have its page open and no seat in
    it, for ``game_ids`` (None: every game watched now); one query."""
    seated = Seat.objects.filter(game_id=OuterRef("game_id"), user=OuterRef("user"))
    pages = _fresh().exclude(Exists(seated))
    if game_ids is not None:
        pages = pages.filter(game_id__in=list(game_ids))
    counts = (
        pages.order_by()
        .values("game_id")
        .annotate(watchers=Count("user", distinct=True))
        .values_list("game_id", "watchers")
    )
    return dict(counts)


def _open(user_id: int, game_id: int, channel_name: str) -> None:
    GamePage.objects.update_or_create(
        channel_name=channel_name,
        defaults={"user_id": user_id, "game_id": game_id, "seen_at": clock.now()},
    )
    # Rows a dead process left behind, long stale: tidy up.
    GamePage.objects.filter(seen_at__lt=clock.now() - 10 * STALE).delete()


def _touch(channel_name: str) -> None:
    GamePage.objects.filter(channel_name=channel_name).update(seen_at=clock.now())


def _close(channel_name: str) -> None:
    GamePage.objects.filter(channel_name=channel_name).delete()


class PageWatch:
    """An open game page of a signed-in player, while its socket lives."""

    def __init__(self, channel_name: str) -> None:
        self.channel_name = channel_name
        self.refresher: asyncio.Task[None] | None = None

    async def keep_fresh(self) -> None:
        while True:
            await asyncio.sleep(REFRESH.total_seconds())
            try:
                await database_sync_to_async(_touch)(self.channel_name)
            except Exception:
                logger.exception("could not refresh an open game page")


async def page_opened(
    *, user: User | AnonymousUser | None, game_id: int, channel_name: str
) -> PageWatch | None:
    """Record that ``user`` opened the page of ``game_id`` (nothing for a
    visitor); a failure is logged: the page works, pushes just are not held."""
    if not isinstance(user, User):
        return None
    watch = PageWatch(channel_name)
    try:
        await database_sync_to_async(_open)(user.pk, game_id, channel_name)
    except Exception:
        logger.exception("could not record an open game page")
        return None
    watch.refresher = asyncio.ensure_future(watch.keep_fresh())
    return watch


async def page_closed(watch: PageWatch | None) -> None:
    if watch is None:
        return
    if watch.refresher is not None:
        watch.refresher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await watch.refresher
    try:
        await database_sync_to_async(_close)(watch.channel_name)
    except Exception:
        logger.exception("could not forget a closed game page")
