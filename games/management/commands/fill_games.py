"""``manage.py fill_games N``: N realistic finished games, for benchmarks and demos.

Each game is played by the engine with a greedy policy and a little noise
(``games.fill``: realistic scores; a few games end by resignation), stored like a
site game — seats with final scores and ranks, every event as a Move row — and
counted in totals and ratings exactly as ``game_finish`` would
(``games.ratings.ratings``, the site's own functions), in finishing order. Games
are played in ``--jobs`` worker processes (the engine is the cost: ~5–10 ms a
game); rows are inserted in
bulk (Move rows with one ``executemany`` per batch); the game cache
(``Game.state``) is left empty, the site rebuilds it from the Move rows.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction

from accounts.models import User
from games import clock
from games.engine import variants
from games.fill import FillGame, play, play_many
from games.models import Game, Move, PlayerStats, RatingChange, Seat, variant_family
from games.ratings.ratings import _new_stats, ratings_apply, stats_add_result

VARIANTS = (
    (variants.CLASSIC.name, 0.45),
    (variants.CLASSIC_GREY.name, 0.15),
    (variants.PAVILION.name, 0.3),
    (variants.PAVILION_GREY.name, 0.1),
)
PLAYER_COUNTS = ((2, 0.5), (3, 0.3), (4, 0.2))


def _pick(rng: random.Random, table: tuple[tuple[Any, float], ...]) -> Any:
    return rng.choices([v for v, _w in table], [w for _v, w in table])[0]


def _played_batches(
    jobs: list[tuple[str, int, int]], size: int, workers: int
) -> Iterator[list[FillGame]]:
    """The games of ``jobs`` in batches of ``size``, in order; played by
    ``workers`` processes ahead of the caller's inserts."""
    chunks = [jobs[start : start + size] for start in range(0, len(jobs), size)]
    if workers <= 1:
        for chunk in chunks:
            yield [play(*job) for job in chunk]
        return
    # fork: the workers need no Django set-up (games.fill is engine code only)
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(play_many, chunks)


class Command(BaseCommand):
    help = "Fill the database with N engine-played finished games (and their players)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", type=int, help="how many games to add")
        parser.add_argument(
            "--players", type=int, default=0, help="player pool size (default N/50)"
        )
        parser.add_argument("--seed", type=int, default=1, help="random seed")
        parser.add_argument(
            "--days",
            type=int,
            default=365,
            help="finish dates spread over this many days",
        )
        parser.add_argument("--batch", type=int, default=500)
        parser.add_argument(
            "--jobs",
            type=int,
            default=0,
            help="worker processes playing games (default: one per CPU; 1 for "
            "fewer than 1000 games)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count: int = options["games"]
        rng = random.Random(options["seed"])
        pool_size = options["players"] or min(max(count // 50, 8), 2000)
        started = time.perf_counter()
        users = self._users(pool_size)
        now = clock.now()
        span = timedelta(days=options["days"]).total_seconds()
        finish_times = sorted(
            now - timedelta(seconds=rng.random() * span) for _ in range(count)
        )
        stats = {
            (s.user_id, s.family): s for s in PlayerStats.objects.filter(user__in=users)
        }
        existing_stats = {key for key in stats}
        moves = 0
        size = options["batch"]
        jobs = [
            (_pick(rng, VARIANTS), min(_pick(rng, PLAYER_COUNTS), len(users)), seed)
            for seed in (rng.getrandbits(32) for _ in range(count))
        ]
        workers = options["jobs"] or (1 if count < 1000 else os.cpu_count() or 1)
        played = _played_batches(jobs, size, workers)
        for start, games in zip(range(0, count, size), played, strict=True):
            batch = finish_times[start : start + size]
            moves += self._insert_batch(rng, users, batch, games, stats)
            self.stdout.write(f"\r{start + len(batch)} / {count} games", ending="")
            self.stdout.flush()
        with transaction.atomic():
            PlayerStats.objects.bulk_create(
                [s for key, s in stats.items() if key not in existing_stats],
                batch_size=500,
            )
            PlayerStats.objects.bulk_update(
                [s for key, s in stats.items() if key in existing_stats],
                [
                    f.name
                    for f in PlayerStats._meta.concrete_fields
                    if not f.primary_key
                ],
                batch_size=500,
            )
        elapsed = time.perf_counter() - started
        self.stdout.write("")
        self.stdout.write(
            f"{count} games, {moves} moves, {len(users)} players in {elapsed:.1f} s: "
            f"{count / elapsed:.0f} games/s, {moves / elapsed:.0f} moves/s"
        )

    def _users(self, size: int) -> list[User]:
        names = [f"player{k + 1}" for k in range(size)]
        have = set(
            User.objects.filter(username__in=names).values_list("username", flat=True)
        )
        User.objects.bulk_create(
            [
                User(username=name, email=f"{name}@example.com", password="!")
                for name in names
                if name not in have
            ],
            batch_size=500,
        )
        return list(User.objects.filter(username__in=names).order_by("pk"))

    def _insert_batch(
        self,
        rng: random.Random,
        users: list[User],
        finish_times: list[datetime],
        games: list[FillGame],
        stats: dict[tuple[int, str], PlayerStats],
    ) -> int:
        played = []
        for finished_at, outcome in zip(finish_times, games, strict=True):
            variant, players = outcome.variant, outcome.players
            seated = rng.sample(users, players)
            hours = rng.randint(players * 24, players * 24 * 30)
            game = Game(
                variant=variant,
                status=Game.Status.FINISHED,
                players=players,
                days_per_move=rng.choice((1, 2, 3, 5)),
                rated=rng.random() < 0.75,
                creator=seated[0],
                started_at=finished_at - timedelta(hours=hours),
                finished_at=finished_at,
                first_seat=outcome.first_seat,
                ply=len(outcome.events),
                end_reason=Game.EndReason.NORMAL
                if outcome.resigned is None
                else Game.EndReason.RESIGNED,
                state={},
            )
            played.append((game, seated, outcome))
        events_count = 0
        with transaction.atomic():
            Game.objects.bulk_create([p[0] for p in played])
            seats, changes, move_rows = [], [], []
            for game, seated, outcome in played:
                family = variant_family(game.variant)
                table = Seat.score_table_of(game)
                rows = []
                for number, user in enumerate(seated):
                    seats.append(
                        Seat(
                            game=game,
                            number=number,
                            user=user,
                            invite_status=Seat.Invite.JOINED,
                            score=outcome.scores[number],
                            rank=outcome.ranks[number],
                            resigned=number == outcome.resigned,
                            score_table=table,
                        )
                    )
                    key = (user.pk, family)
                    if key not in stats:
                        stats[key] = _new_stats(user.pk, family)
                    rows.append(stats[key])
                    stats_add_result(
                        stats[key],
                        score=outcome.scores[number],
                        rank=outcome.ranks[number],
                        rated=game.rated,
                    )
                if game.rated:
                    changes.extend(
                        ratings_apply(
                            rows, ranks=list(outcome.ranks), game=game, family=family
                        )
                    )
                seat_users = [u.pk for u in seated]
                created = connection.ops.adapt_datetimefield_value(game.started_at)
                for ply, (event, seat) in enumerate(
                    zip(outcome.events, outcome.event_seats, strict=True)
                ):
                    move_rows.append(
                        (
                            game.pk,
                            ply,
                            event,
                            seat_users[seat] if seat is not None else None,
                            created,
                        )
                    )
                events_count += game.ply
            Seat.objects.bulk_create(seats)
            RatingChange.objects.bulk_create(changes)
            table = Move._meta.db_table
            value = "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"
            with connection.cursor() as cursor:
                cursor.executemany(
                    f"INSERT INTO {table} "
                    "(game_id, ply, event, user_id, created_at, auto, forced) "
                    f"VALUES (%s, %s, {value}, %s, %s, FALSE, FALSE)",
                    move_rows,
                )
        return events_count
