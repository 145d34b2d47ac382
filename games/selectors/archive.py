"""The archive of finished games and its filters."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import Prefetch, QuerySet
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


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def game_archive(*, filters: ArchiveFilters) -> QuerySet[Game]:
    """Finished (or ongoing) games, newest first, filtered; seats prefetched.

    Finished games are ordered by finish date, ongoing ones by start date; both
    orders are served by the ``game_archive*`` indexes. Slice it to paginate.
    """
    games = Game.objects.filter(imported=filters.imported)
    if filters.ongoing:
        games = games.filter(status=Game.Status.ACTIVE)
        date_field = "started_at"
    else:
        games = games.filter(status=Game.Status.FINISHED)
        date_field = "finished_at"
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
