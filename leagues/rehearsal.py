"""A whole season played on the current database with time moved through the
site's clock function (``games.clock.now``): ``manage.py season_rehearse``,
the season tests and ``bench/seasons.py`` (docs/leagues.md, "A rehearsal").

A throwaway league (inactive: no season follows) gets ``entrants`` new
accounts (waived from the entry requirement), one season with all of them,
and the computer playing every seat through the services, as a player's
page would. A share of the games is left unfinished for the last day, and
one player lets their bank run out in a game (the deadline job applies it),
which takes them out of the season.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from accounts.models import User
from games import clock, jobs, selectors, services
from games.engine import bots
from games.engine.variants import find_variant
from games.models import Game
from leagues import services as league_services
from leagues.models import Entry, League, LeagueGame, Season, Waiver

UNFINISHED_SHARE = 0.25
"""About this share of the games stops halfway, for the last day to decide."""
STEP = timedelta(minutes=10)
"""How far the clock moves with each sweep of one decision in every game."""


@contextmanager
def moved_clock(start: datetime) -> Iterator[list[datetime]]:
    """The site's clock set to ``start``; the yielded list's one item is the
    time it reads (move it by assigning ``moment[0]``)."""
    moment = [start]
    real = clock.now
    clock.now = lambda: moment[0]
    try:
        yield moment
    finally:
        clock.now = real


def _play_one(game_id: int) -> bool:
    """One decision of the seat to move in ``game_id`` by the medium computer,
    through the services; whether one was played."""
    game = Game.objects.get(pk=game_id)
    if not game.active:
        return False
    user = selectors.game_user_to_move(game=game)
    if user is None:
        return False
    engine = selectors.game_engine(game)
    decision = bots.choose(engine, User.ComputerLevel.MEDIUM, seed=game.ply)
    event = {k: v for k, v in decision.to_event().items() if k != "seat"}
    services.game_play_move(
        game_id=game_id, user=user, move=event, expected_ply=game.ply
    )
    return True


def _play_all(
    games: list[int],
    *,
    stop_at: dict[int, int],
    late: tuple[int | None, User],
    moment: list[datetime],
) -> None:
    """Sweep the games, one decision each a sweep, the clock moving ``STEP``
    a sweep, until none moves: a game in ``stop_at`` stops after that many
    decisions (unfinished for the last day); in the ``late`` game its player
    never moves."""
    late_game, late_user = late
    played = dict.fromkeys(games, 0)
    moving = True
    while moving:
        moving = False
        moment[0] += STEP
        for game_id in games:
            if played[game_id] >= stop_at.get(game_id, 10**6):
                continue
            if game_id == late_game:
                game = Game.objects.get(pk=game_id)
                if selectors.game_user_to_move(game=game) == late_user:
                    continue
            if _play_one(game_id):
                played[game_id] += 1
                moving = True


def rehearse(
    *, variant: str, seats: int, entrants: int, seed: int = 0
) -> dict[str, Any]:
    """Run one season; what ``season_rehearse`` prints (see the command)."""
    find_variant(variant)  # an unknown variant raises here
    rng = random.Random(seed)
    tag = secrets.token_hex(3)
    start = clock.now()
    with moved_clock(start) as moment:
        league = League.objects.create(
            slug=f"rehearsal-{tag}",
            variant=variant,
            players=seats,
            season_weeks=8,
            active=False,
        )
        users = [
            User.objects.create_user(username=f"r{tag}-{index + 1}")
            for index in range(entrants)
        ]
        Waiver.objects.bulk_create(
            [Waiver(user=user, note="rehearsal") for user in users]
        )
        season = league_services.season_create(
            league=league,
            starts_at=league_services.first_day_after(start, league.registration_days),
        )
        for user in users:
            league_services.season_join(season_id=season.pk, user=user)
        moment[0] = season.starts_at
        began = time.perf_counter()
        league_services.season_start(season_id=season.pk)
        start_seconds = time.perf_counter() - began
        games = list(
            LeagueGame.objects.filter(group__season=season)
            .order_by("pk")
            .values_list("game_id", flat=True)
        )
        late = rng.choice(users)
        late_game = (
            Game.objects.filter(pk__in=games, seats__user=late)
            .order_by("pk")
            .values_list("pk", flat=True)
            .first()
        )
        decisions = find_variant(variant).family.turns[seats - 2] * seats
        stop_at = {
            game_id: decisions // 2
            for game_id in games
            if game_id != late_game and rng.random() < UNFINISHED_SHARE
        }
        _play_all(games, stop_at=stop_at, late=(late_game, late), moment=moment)
        # the late player's deadline in the game they stopped playing passes,
        # and the deadline job applies it (before anyone else's: their banks
        # grew with every turn played)
        game = Game.objects.get(pk=late_game or 0)
        if game.active and game.turn_deadline is not None:
            moment[0] = max(moment[0], game.turn_deadline + timedelta(minutes=1))
            jobs.process_timeouts(jobs.Report())
            league_services.catch_up(league_services.SeasonReport())
        moment[0] = max(moment[0], season.ends_at)
        began = time.perf_counter()
        league_services.season_end(season_id=season.pk, inline=True)
        end_seconds = time.perf_counter() - began
    return report(season, start_seconds=start_seconds, end_seconds=end_seconds)


def report(
    season: Season, *, start_seconds: float, end_seconds: float
) -> dict[str, Any]:
    """The season as the rehearsal prints it."""
    season.refresh_from_db()
    groups = []
    for group in season.groups.order_by("division", "number"):
        entries = list(group.entries.select_related("user").order_by("place", "pk"))
        names: dict[int | None, str] = {e.user_id: e.user.username for e in entries}
        games = []
        for league_game in group.games.select_related("game", "first").order_by(
            "number"
        ):
            seats = list(league_game.game.seats.order_by("number"))
            games.append(
                {
                    "game": league_game.game_id,
                    "players": [names.get(s.user_id, "") for s in seats],
                    "first": league_game.first.username,
                    "result": "decided" if league_game.decided else "finished",
                    "points": {
                        names.get(int(uid), uid): points
                        for uid, points in (league_game.points or {}).items()
                    },
                }
            )
        groups.append(
            {
                "division": group.division,
                "players": [e.user.username for e in entries],
                "games": games,
                "standings": [
                    {"player": e.user.username, "points": e.points} for e in entries
                ],
            }
        )
    everyone = Entry.objects.filter(season=season).select_related("user")
    return {
        "season": season.pk,
        "groups": groups,
        "promoted": sorted(e.user.username for e in everyone if e.movement == -1),
        "relegated": sorted(e.user.username for e in everyone if e.movement == 1),
        "timed_out": sorted(
            e.user.username for e in everyone if e.left == Entry.Left.TIMEOUT
        ),
        "seconds": {"start": round(start_seconds, 3), "end": round(end_seconds, 3)},
    }
