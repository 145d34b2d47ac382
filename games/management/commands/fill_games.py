"""``manage.py fill_games N``: N realistic finished games, for benchmarks and demos.

Each game is played to the end by the engine (``record.random_game``: random legal
decisions, random deals), stored like a site game — seats with final scores and
ranks, every event as a Move row — and counted in totals and ratings exactly as
``game_finish`` would (``games.ratings``), in finishing order. Rows are inserted
in bulk (Move rows with one ``executemany`` per batch); the game cache
(``Game.state``) is left empty, the site rebuilds it from the Move rows.
"""

from __future__ import annotations

import json
import random
import time
from datetime import datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games.engine import record
from games.models import Game, Move, PlayerStats, RatingChange, Seat, variant_family
from games.ratings import _new_stats, conservative, rate, stats_add_result

VARIANTS = (
    ("classic", 0.45),
    ("classic-grey", 0.15),
    ("pavilion", 0.3),
    ("pavilion-grey", 0.1),
)
PLAYER_COUNTS = ((2, 0.5), (3, 0.3), (4, 0.2))


def _pick(rng: random.Random, table: tuple[tuple[Any, float], ...]) -> Any:
    return rng.choices([v for v, _w in table], [w for _v, w in table])[0]


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

    def handle(self, *args: Any, **options: Any) -> None:
        count: int = options["games"]
        rng = random.Random(options["seed"])
        pool_size = options["players"] or min(max(count // 50, 8), 2000)
        started = time.perf_counter()
        users = self._users(pool_size)
        now = timezone.now()
        span = timedelta(days=options["days"]).total_seconds()
        finish_times = sorted(
            now - timedelta(seconds=rng.random() * span) for _ in range(count)
        )
        stats = {
            (s.user_id, s.family): s for s in PlayerStats.objects.filter(user__in=users)
        }
        existing_stats = {key for key in stats}
        moves = 0
        for start in range(0, count, options["batch"]):
            batch = finish_times[start : start + options["batch"]]
            moves += self._insert_batch(rng, users, batch, stats)
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
        stats: dict[tuple[int, str], PlayerStats],
    ) -> int:
        played = []
        for finished_at in finish_times:
            variant = _pick(rng, VARIANTS)
            players = min(_pick(rng, PLAYER_COUNTS), len(users))
            engine = record.random_game(variant, players, rng.getrandbits(32))
            seated = rng.sample(users, players)
            outcome = engine.outcome()
            assert outcome is not None
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
                first_seat=engine.first_seat,
                ply=len(engine.events()),
                end_reason=Game.EndReason.NORMAL,
                state={},
            )
            played.append((game, engine, seated, outcome))
        events_count = 0
        with transaction.atomic():
            Game.objects.bulk_create([p[0] for p in played])
            seats, changes, move_rows = [], [], []
            for game, engine, seated, outcome in played:
                family = variant_family(game.variant)
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
                    before = [(s.mu, s.sigma) for s in rows]
                    after = rate(before, list(outcome.ranks))
                    for s, (mu0, sigma0), (mu, sigma) in zip(
                        rows, before, after, strict=True
                    ):
                        s.mu, s.sigma = mu, sigma
                        s.ordinal = conservative(mu, sigma)
                        s.last_rated_at = game.finished_at
                        changes.append(
                            RatingChange(
                                user_id=s.user_id,
                                game=game,
                                family=family,
                                mu_before=mu0,
                                sigma_before=sigma0,
                                mu=mu,
                                sigma=sigma,
                                ordinal=s.ordinal,
                                created_at=game.finished_at,
                            )
                        )
                seat_users = [u.pk for u in seated]
                created = connection.ops.adapt_datetimefield_value(game.started_at)
                for ply, event in enumerate(engine.events()):
                    seat = event.get("seat")
                    move_rows.append(
                        (
                            game.pk,
                            ply,
                            json.dumps(event, separators=(",", ":")),
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
                    "(game_id, ply, event, user_id, created_at, auto) "
                    f"VALUES (%s, %s, {value}, %s, %s, FALSE)",
                    move_rows,
                )
        return events_count
