"""Reads for watching games (issue #26 item 6, docs/together.md "Watch"): how
many watch a game, and the watch page's list of games in progress, busiest
first.

A watcher is a signed-in person with the game's page open (its socket, a fresh
``accounts.GamePage`` row, ``games.people.presence``) who has no seat in the game;
visitors who are not signed in are not recorded, so they are not counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, F, OuterRef, QuerySet, Subquery

from accounts.selectors import open_game_pages
from games import clock
from games.models import Game, Move, Seat
from games.selectors import last_move_at, seats_with_users


def watcher_counts(*, game_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Game id → its watchers now, for ``game_ids`` (None: every watched game;
    games nobody watches are absent). One query."""
    seated = Seat.objects.filter(game_id=OuterRef("game_id"), user=OuterRef("user"))
    pages = open_game_pages(now=clock.now()).exclude(Exists(seated))
    if game_ids is not None:
        pages = pages.filter(game_id__in=list(game_ids))
    counts = (
        pages.order_by()
        .values("game_id")
        .annotate(watchers=Count("user", distinct=True))
        .values_list("game_id", "watchers")
    )
    return dict(counts)


def game_watchers(*, game: Game) -> int:
    """How many watch ``game`` now (the game page's "N watching")."""
    return watcher_counts(game_ids=[game.pk]).get(game.pk, 0)


@dataclass(frozen=True)
class WatchedGame:
    """One row of the watch page."""

    game: Game
    """With its seats and their players prefetched."""
    watchers: int
    round: int
    """The round being played: a ``deal`` opens every round (``docs/record.md``)."""


def _rounds() -> Subquery:
    deals = (
        Move.objects.filter(game=OuterRef("pk"), event__has_key="deal")
        .order_by()
        .values("game")
        .annotate(deals=Count("pk"))
        .values("deals")
    )
    return Subquery(deals[:1])


class WatchList:
    """The games in progress (not imported), filtered, busiest first: most
    watchers now, then the latest move, then the newest game. Sliced like a
    queryset (``list[a:b]``), which is all the archive's pager asks.

    The watched games are few (one per open page at most): their order is
    worked out here from one query of ids; the others follow in the
    database's order of their latest move. A page's games are then fetched with
    their seats and rounds (two queries)."""

    def __init__(
        self, *, family: str = "", variant: str = "", players: int | None = None
    ) -> None:
        games = Game.objects.filter(status=Game.Status.ACTIVE, imported=False)
        if family:
            games = games.filter(family=family)
        if variant:
            games = games.filter(variant=variant)
        if players is not None:
            games = games.filter(players=players)
        games = games.annotate(last_move_at=last_move_at())
        self.counts = watcher_counts()
        watched: list[tuple[int, datetime | None]] = list(
            games.filter(pk__in=list(self.counts)).values_list("pk", "last_move_at")
        )
        watched.sort(
            key=lambda row: (
                -self.counts[row[0]],
                -(row[1].timestamp() if row[1] else 0.0),
                -row[0],
            )
        )
        self.watched_ids = [pk for pk, _last in watched]
        self.others: QuerySet[Game] = games.exclude(pk__in=self.watched_ids).order_by(
            F("last_move_at").desc(nulls_last=True), "-pk"
        )

    def __getitem__(self, part: slice) -> list[WatchedGame]:
        start, stop = part.start or 0, part.stop
        if stop is None:
            raise ValueError("slice the watch list with an end")
        ids = self.watched_ids[start:stop]
        skip = max(start - len(self.watched_ids), 0)
        wanted = stop - start - len(ids)
        if wanted > 0:
            ids += list(self.others.values_list("pk", flat=True)[skip : skip + wanted])
        if not ids:
            return []
        games = (
            Game.objects.filter(pk__in=ids)
            .defer("state")
            .annotate(rounds=_rounds())
            .prefetch_related(seats_with_users())
            .in_bulk()
        )
        return [
            WatchedGame(
                game=games[pk],
                watchers=self.counts.get(pk, 0),
                round=int(getattr(games[pk], "rounds", 0) or 0),
            )
            for pk in ids
            if pk in games
        ]
