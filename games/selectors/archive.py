"""The archive of finished games and its filters."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat


@dataclass(frozen=True)
class ArchiveFilters:
    """What the archive may be filtered by (all optional)."""

    player: User | None = None
    family: str = ""
    """A whole family (``classic``: both walls)."""
    variant: str = ""
    """One variant (``classic``: the coloured wall only; ``classic-grey``)."""
    players: int | None = None
    rated: bool | None = None
    since: date | None = None
    until: date | None = None
    ongoing: bool = False
    """Ongoing games (newest start first) instead of finished ones."""
    imported: bool = False
    """Imported records instead of games played here."""


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_TOKEN = re.compile(r"(\d{1,17})\.(\d{1,18})")


@dataclass(frozen=True)
class ArchiveCursor:
    """Where a page of the archive starts: the games just older (``older``)
    or just newer than the game finished (or started) at ``at`` with id
    ``game_id`` — keyset pagination, so that a page a thousand deep costs what
    the first does (no ``OFFSET``, which reads every row it skips)."""

    at: datetime
    game_id: int
    older: bool = True

    @property
    def token(self) -> str:
        """The cursor in a link: microseconds since 1970, a dot, the id."""
        return f"{(self.at - EPOCH) // timedelta(microseconds=1)}.{self.game_id}"

    @classmethod
    def parse(cls, token: str, *, older: bool) -> ArchiveCursor | None:
        """The cursor of a link's ``token``, or None when it is not one."""
        match = _TOKEN.fullmatch(token)
        if match is None:
            return None
        try:
            at = EPOCH + timedelta(microseconds=int(match[1]))
        except OverflowError:
            return None
        return cls(at, int(match[2]), older)


@dataclass(frozen=True)
class ArchivePage:
    """One page of the archive and the cursors of its neighbours."""

    games: list[Game]
    newer: ArchiveCursor | None
    """The page of newer games, if there is one."""
    older: ArchiveCursor | None
    """The page of older games, if there is one."""


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def game_archive(*, filters: ArchiveFilters) -> QuerySet[Game]:
    """Finished (or ongoing) games, newest first, filtered; seats prefetched.

    Finished games are ordered by finish date, ongoing ones by start date; both
    orders are served by the ``game_archive*`` indexes. Slice it to paginate.
    """
    games = Game.objects.filter(imported=filters.imported)
    date_field = _date_field(filters)
    if filters.ongoing:
        games = games.filter(status=Game.Status.ACTIVE)
    else:
        games = games.filter(status=Game.Status.FINISHED)
    if filters.player is not None:
        games = games.filter(
            pk__in=Seat.objects.filter(user=filters.player).values("game_id")
        )
    if filters.family:
        games = games.filter(family=filters.family)
    if filters.variant:
        games = games.filter(variant=filters.variant)
    if filters.players is not None:
        games = games.filter(players=filters.players)
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    if filters.since is not None:
        games = games.filter(**{f"{date_field}__gte": _day_start(filters.since)})
    if filters.until is not None:
        until = _day_start(filters.until) + timedelta(days=1)
        games = games.filter(**{f"{date_field}__lt": until})
    return games.order_by(f"-{date_field}", "-id").prefetch_related(
        Prefetch(
            "seats", queryset=Seat.objects.select_related("user").order_by("number")
        )
    )


def _date_field(filters: ArchiveFilters) -> str:
    """What the archive orders by: the start of ongoing games, else the end."""
    return "started_at" if filters.ongoing else "finished_at"


def archive_page(
    *, filters: ArchiveFilters, cursor: ArchiveCursor | None, size: int
) -> ArchivePage:
    """The page of :func:`game_archive` that ``cursor`` points at (the newest
    without one): ``size + 1`` rows read from the index where the cursor
    is, which tell whether another page follows — no ``COUNT(*)``, no
    ``OFFSET``."""
    games = game_archive(filters=filters)
    field = _date_field(filters)

    def cursor_of(game: Game, *, older: bool) -> ArchiveCursor:
        return ArchiveCursor(getattr(game, field), game.pk, older)

    if cursor is None:
        rows = list(games[: size + 1])
        page = rows[:size]
        more = len(rows) > size
        return ArchivePage(
            page, None, cursor_of(page[-1], older=True) if more else None
        )
    at, pk = cursor.at, cursor.game_id
    if cursor.older:
        # (date, id) < (at, pk), written so that the index's date bounds it
        rows = list(
            games.filter(**{f"{field}__lte": at}).filter(
                Q(**{f"{field}__lt": at}) | Q(pk__lt=pk)
            )[: size + 1]
        )
        page = rows[:size]
        more = len(rows) > size
        return ArchivePage(
            page,
            cursor_of(page[0], older=False) if page else None,
            cursor_of(page[-1], older=True) if more else None,
        )
    rows = list(
        games.filter(**{f"{field}__gte": at})
        .filter(Q(**{f"{field}__gt": at}) | Q(pk__gt=pk))
        .reverse()[: size + 1]
    )
    page = rows[:size][::-1]
    more = len(rows) > size
    return ArchivePage(
        page,
        cursor_of(page[0], older=False) if more else None,
        cursor_of(page[-1], older=True) if page else None,
    )
