"""Leaderboards, high scores, a player's statistics and rating history."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import User
from games import clock
from games.models import PlayerStats, RatingChange, Seat
from games.ratings.ratings import PROVISIONAL_GAMES

LEADERBOARD_DAYS = 90
"""A player must have finished a rated game this recently to be listed."""


def leaderboard(
    *, family: str, computers: bool = False, provisional: bool = False
) -> QuerySet[PlayerStats]:
    """Eligible players of ``family`` by rating, best first: settled ratings only
    (at least ``PROVISIONAL_GAMES`` rated games, ``ratings.rating_provisional``),
    the last within 90 days. People only, or with ``computers`` the computer
    players only (their own list: issue #16).

    Sorted by μ, the number the table shows (``ratings.rating_points``), so the
    rating column reads in order. With ``provisional``, the players not settled
    yet instead (one rated game or more), the nearest to settled first: the
    leaderboard's section below the ranked list (issue #25).
    """
    recent = clock.now() - timedelta(days=LEADERBOARD_DAYS)
    games = (
        Q(rated_games__gte=1, rated_games__lt=PROVISIONAL_GAMES)
        if provisional
        else Q(rated_games__gte=PROVISIONAL_GAMES)
    )
    order = ("-rated_games", "-mu", "id") if provisional else ("-mu", "id")
    return (
        PlayerStats.objects.filter(games, family=family, last_rated_at__gte=recent)
        .filter(
            ~Q(user__computer_level="")
            if computers
            # bots have the bot ladder's table, not the people's (issue #39)
            else Q(user__computer_level="", user__bot_owner__isnull=True)
        )
        .select_related("user")
        .order_by(*order)
    )


def high_scores(*, family: str, players: int, limit: int = 20) -> QuerySet[Seat]:
    """The best final scores of ``family`` games for ``players`` players.

    Games played on the site only (rated or not); imported records do not count.
    One walk of the ``seat_score_table`` index (``Seat.score_table`` is set by
    ``game_finish``).
    """
    return (
        Seat.objects.filter(score_table=f"{family}-{players}", score__isnull=False)
        .select_related("user", "game")
        .order_by("-score", "game_id")[:limit]
    )


def player_stats(*, user: User) -> dict[str, PlayerStats]:
    """``user``'s totals and rating per family (families never played are absent)."""
    return {stats.family: stats for stats in PlayerStats.objects.filter(user=user)}


RATING_HISTORY_GAMES = 500
"""The rated games a profile's chart draws at most: the latest (a player of
ten thousand games gets the last 500, read from the history index's end)."""


def rating_history(
    *, user: User, family: str, latest: int = RATING_HISTORY_GAMES
) -> list[Any]:
    """``user``'s rating after each of their ``latest`` last rated games of
    ``family``, oldest first: rows of ``id``, ``mu`` and ``created_at`` (no
    model instances: five hundred of them cost a profile 15 ms)."""
    newest_first = (
        RatingChange.objects.filter(user=user, family=family)
        .order_by("-created_at", "-id")
        .values_list("id", "mu", "created_at", named=True)[:latest]
    )
    return list(newest_first)[::-1]
