"""Ratings and per-player totals, updated in the transaction that finishes a game.

Ratings are OpenSkill's Plackett–Luce model (``openskill.models.PlackettLuce``),
one per player per game family (classic Azul with its grey wall; Summer Pavilion
with its grey side). A rated game feeds the final ranks the site stored on the
seats (after tie-breaks; a resigned or forfeited seat ranks last), each player a
team of one; equal ranks are a tie. Players read the rating on a 1500-centred
scale (``rating_shown``), marked provisional below ``PROVISIONAL_GAMES`` rated
games; the stored ``ordinal`` (μ − 3σ) is kept but no longer shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.db import transaction
from openskill.models import PlackettLuce

from games.models import PROVISIONAL_GAMES as PROVISIONAL_GAMES  # beside PlayerStats
from games.models import (
    Game,
    PlayerStats,
    RatingChange,
    Seat,
    rating_provisional,
    variant_family,
)

SHOWN_CENTRE = 1500
"""What a new player's rating reads: openskill's starting μ on the shown scale."""

SHOWN_CLASS = 200
"""Shown points per β (a player's per-game spread of performance): Elo's class."""


@cache
def model() -> PlackettLuce:
    """The rating model: openskill's defaults (μ 25, σ 25/3, β 25/6)."""
    return PlackettLuce()


@dataclass(frozen=True)
class ShownRating:
    """A rating as players read it: a whole number, and whether it is settled."""

    value: int
    """The skill estimate μ on the 1500-centred scale."""
    deviation: int
    """One σ on the same scale: the rating is likely within ± this."""
    games: int
    """Rated games it rests on."""
    provisional: bool
    """Fewer than ``PROVISIONAL_GAMES`` rated games: shown "1520?", not listed."""


def rating_points(mu: float) -> int:
    """OpenSkill's μ on the shown scale: ``1500 + 48 · (μ − 25)``, rounded.

    The one conversion from the stored rating to the number players read (the
    leaderboard, the profile, the rating chart). ``SHOWN_CENTRE + (μ − μ₀) ·
    SHOWN_CLASS / β`` with openskill's defaults μ₀ = 25 and β = 25/6, so:

    - a new player reads 1500, as on lichess (Glicko-2) and most Elo sites;
    - the scale is Elo's: openskill's ``predict_win`` for two settled players is
      Φ(Δμ / (β√2)), Elo's own normal model is Φ(ΔR / (200√2)), so 200 shown
      points are one β and a player 200 points above another wins about 76% of
      their two-player games, as Elo players expect;
    - one σ is 48 shown points: a newcomer's σ of 25/3 reads ± 400 (Glicko starts
      at ± 350, lichess at ± 500), and typical ratings spread a few hundred points
      either side of 1500.

    Why μ and not the conservative ``ordinal`` μ − 3σ the site stored and showed
    before: the ordinal starts at 0 and climbs with every game played as σ
    shrinks, so a newcomer placed third of four in a first game would see the
    rating *rise* (μ falls to 24.7, μ − 3σ rises from 0 to 0.4); and on a scale
    where a newcomer reads 1500 (1500 + 48 · ordinal) a settled average player
    (μ 25, σ 3) would read 2268. μ moves up on a win and down on
    a loss, and two players with the same number are expected to score alike.
    Its uncertainty is told apart as lichess does: below ``PROVISIONAL_GAMES``
    rated games the rating is marked provisional and left off the leaderboard
    (``rating_provisional``).
    """
    plackett_luce = model()
    points = SHOWN_CENTRE + (mu - plackett_luce.mu) * SHOWN_CLASS / plackett_luce.beta
    return math.floor(points + 0.5)


def rating_shown(*, mu: float, sigma: float, rated_games: int) -> ShownRating:
    """The rating players read for ``mu``/``sigma`` after ``rated_games`` games."""
    deviation = sigma * SHOWN_CLASS / model().beta
    return ShownRating(
        value=rating_points(mu),
        deviation=math.floor(deviation + 0.5),
        games=rated_games,
        provisional=rating_provisional(rated_games),
    )


def conservative(mu: float, sigma: float) -> float:
    """The stored ``ordinal``: μ − 3σ (openskill's ``ordinal``; no longer shown)."""
    return mu - 3 * sigma


def rate(
    ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` per player after one game with ``ranks`` (1 = best)."""
    plackett_luce = model()
    teams = [[plackett_luce.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = plackett_luce.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def _new_stats(user_id: int, family: str) -> PlayerStats:
    plackett_luce = model()
    mu, sigma = plackett_luce.mu, plackett_luce.sigma
    return PlayerStats(
        user_id=user_id,
        family=family,
        mu=mu,
        sigma=sigma,
        ordinal=conservative(mu, sigma),
    )


def _max(current: int | None, value: int) -> int:
    return value if current is None else max(current, value)


def stats_add_result(stats: PlayerStats, *, score: int, rank: int, rated: bool) -> None:
    """Count one finished game in ``stats`` (in memory; the caller saves)."""
    stats.games += 1
    stats.wins += rank == 1
    stats.score_sum += score
    stats.best_score = _max(stats.best_score, score)
    if rated:
        stats.rated_games += 1
        stats.rated_wins += rank == 1
        stats.rated_best_score = _max(stats.rated_best_score, score)


def ratings_apply(
    rows: list[PlayerStats], *, ranks: list[int], game: Game, family: str
) -> list[RatingChange]:
    """Rate one game: new mu/sigma on ``rows`` (seat order), and their changes.

    In memory: the caller saves the rows and the returned changes (the site one
    game at a time, ``manage.py fill_games`` in bulk).
    """
    before = [(stats.mu, stats.sigma) for stats in rows]
    after = rate(before, ranks)
    changes = []
    for stats, (mu_before, sigma_before), (mu, sigma) in zip(
        rows, before, after, strict=True
    ):
        stats.mu, stats.sigma = mu, sigma
        stats.ordinal = conservative(mu, sigma)
        assert game.finished_at is not None
        stats.last_rated_at = game.finished_at
        changes.append(
            RatingChange(
                user_id=stats.user_id,
                game=game,
                family=family,
                mu_before=mu_before,
                sigma_before=sigma_before,
                mu=mu,
                sigma=sigma,
                ordinal=stats.ordinal,
                created_at=game.finished_at,
            )
        )
    return changes


def ratings_update_for_game(*, game: Game) -> None:
    """Count a just-finished game: totals for every seat, ratings if it is rated.

    Called by ``services.game_finish`` inside its transaction, after the seats'
    final scores and ranks are set. Imported games and games without a full table
    of users are ignored.
    """
    if game.imported or game.status != Game.Status.FINISHED:
        return
    table: list[tuple[int, int, int]] = []  # (user, score, rank) in seat order
    for seat in Seat.objects.filter(game=game).order_by("number"):
        if seat.user_id is None or seat.rank is None or seat.score is None:
            return
        table.append((seat.user_id, seat.score, seat.rank))
    family = variant_family(game.variant)
    user_ids = [user_id for user_id, _score, _rank in table]
    with transaction.atomic():
        # Lock in user order so two games finishing together cannot deadlock.
        existing = {
            stats.user_id: stats
            for stats in PlayerStats.objects.select_for_update()
            .filter(family=family, user_id__in=user_ids)
            .order_by("user_id")
        }
        created = []
        for user_id in user_ids:
            if user_id not in existing:
                existing[user_id] = _new_stats(user_id, family)
                created.append(existing[user_id])
        rows = [existing[user_id] for user_id in user_ids]
        for stats, (_user_id, score, rank) in zip(rows, table, strict=True):
            stats_add_result(stats, score=score, rank=rank, rated=game.rated)
        if game.rated:
            changes = ratings_apply(
                rows, ranks=[rank for _u, _s, rank in table], game=game, family=family
            )
            RatingChange.objects.bulk_create(changes)
        for stats in created:
            stats.save()
        PlayerStats.objects.bulk_update(
            [s for s in rows if s not in created],
            [
                *("mu", "sigma", "ordinal", "rated_games", "rated_wins"),
                *("rated_best_score", "last_rated_at", "games", "wins"),
                *("score_sum", "best_score"),
            ],
        )
