"""Who is looking at a game page (issue #18; issue #36 item 1: the game side's
own reads and writes, no signal asked).

The game page's socket (``consumers.GameConsumer``) calls :func:`page_opened`
and :func:`page_closed`, and in between the page's watch refreshes its row
every ``REFRESH`` (:meth:`PageWatch.keep_fresh`). The rows are
``accounts.GamePage``, written through ``accounts.services`` (accounts reads
them too: a player with a game page open is online,
``accounts.selectors.presence``). A row is taken as an open page while it is
younger than ``STALE``: a server process that died without closing its sockets
stops counting within minutes, not after Daphne's socket timeout. Sockets of
visitors who are not signed in are not recorded. Rows are in the database, so
every server process and the task worker see them.

The same rows say who looks at a game: :func:`watching` (``notify`` holds no
push about the game on a player's screen) and the watchers of a game, its
viewers without a seat (``watch.watcher_counts``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from accounts import services as account_services
from accounts.models import User
from accounts.selectors import PAGE_STALE, open_game_pages
from games import clock

logger = logging.getLogger(__name__)

REFRESH = timedelta(minutes=4)
STALE = PAGE_STALE
"""10 minutes (``accounts.selectors.PAGE_STALE``)."""


def watching(*, user_id: int, game_id: int) -> bool:
    """``user_id`` has the page of ``game_id`` open (in any browser)."""
    return (
        open_game_pages(now=clock.now())
        .filter(user_id=user_id, game_id=game_id)
        .exists()
    )


def _open(user_id: int, game_id: int, channel_name: str) -> None:
    account_services.game_page_open(
        user_id=user_id, game_id=game_id, channel_name=channel_name, now=clock.now()
    )


def _touch(channel_name: str) -> None:
    account_services.game_page_touch(channel_name=channel_name, now=clock.now())


def _close(channel_name: str) -> None:
    account_services.game_page_close(channel_name=channel_name)


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
    """Forget the page ``watch`` records (nothing for a visitor's)."""
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
