"""A big archive on PostgreSQL in minutes, not hours (issue #40 item 1): COPY, not
the ORM.

    .venv/bin/python bench/fill_pg.py --database-url postgres://postgres@127.0.0.1:5432/bench_fill
                                      [--games 100000] [--players 20000] [--seed 1]
                                      [--jobs 2]

Sets up Django on that database (``DEBUG`` off), migrates it, empties the tables
it fills and fills ``--games`` finished games; prints each table's rows and rows/s,
then games/s and the seconds. ``bench/pages.py`` and other benches call
``fill(games, players=..., seed=..., jobs=...)`` on a database they set up.

What it holds, as the site would store it:

- ``--players`` accounts (``player1``, ``player2``, ...; unusable passwords).
  ``player1``, ``player2`` and ``player3`` are the heavy players: each sits at
  about ``HEAVY_GAMES`` (12,000) games, or at a quarter of the games in a fill of
  fewer than 48,000. Each player follows 0-20 others, and one in ten follows each
  heavy player.
- The games: finished, the four variants and two to four players by
  ``fill_games``' weights, finished over the last ``YEARS`` years (ids in
  finishing order), three in four rated, a few resigned; their seats with final
  scores, ranks and high-score tables; every event as a Move row, stored through
  the game (created_at from its start to its end); totals, ratings and rating
  changes by the site's own functions (``games.ratings.ratings``) in finishing
  order; ``Game.state`` (the cache) empty, as ``fill_games`` leaves it: the site
  replays a game from its Move rows.
- Chat on ``CHAT_SHARE`` of the games (1-6 messages, mostly quick phrases) and a
  done review (``GameReview``, the engine's own, made at ``REVIEW_SECONDS`` a
  decision) on about ``REVIEW_SHARE`` of them.

How: the engine plays a pool of distinct games (``POOL_GAMES`` per variant and
player count at most, in ``jobs`` worker processes: ``games.fill.play``) and
reviews the first pool game of each kind (the cheap classic kinds only below
``ALL_REVIEWS_FROM`` games; none when the fill is too small for one review);
each game of the archive is a pool game under its own id, players and dates, and
the games of a reviewed pool game have its review. One connection COPYs users,
follows, games, seats, rating changes, messages, totals and reviews; a second
COPYs the pool's Move rows once into a temporary table and makes every game's
Move rows from them in the server (``INSERT ... SELECT``, a chunk of games at a
time, each game's rows together and in order). Both drop their big tables'
secondary indexes and build them again after the load (the Move rows go in 1.7
times as fast so), skip the foreign-key triggers (``session_replication_role =
replica``: the rows are consistent by construction, and neither connection sees
the other's before it commits) and commit once; then VACUUM ANALYZE, and the id
sequences set past the rows. 1,000,000 games (119 million Move rows, 28 GB) took
19 minutes on a 2-core machine shared with other work. PostgreSQL only, as a
superuser (the replica role).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

# The project root instead of bench/ (whose http.py would shadow the stdlib's).
if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parents[1])

YEARS = 3
"""Finish dates spread over this many years, up to now."""
HEAVY_PLAYERS = 3
"""``player1`` ... ``player3``: the accounts with the most games."""
HEAVY_GAMES = 12_000
"""Games each heavy player sits at (at most a quarter of the games)."""
RATED_SHARE = 0.75
CHAT_SHARE = 0.1
"""Share of games with chat messages."""
REVIEW_SHARE = 0.01
"""Share of games with a done review (those of a reviewed kind)."""
REVIEW_SECONDS = 0.001
"""The review's budget per decision: its floors (``review.MIN_NODES``) make it
the cheapest (2-20 s of a core a classic game, 20-70 s a Summer Pavilion one)."""
ALL_REVIEWS_FROM = 50_000
"""From this many games every kind (variant and player count) has a reviewed
pool game; below, only the classic family's (cheaper by far)."""
POOL_GAMES = 2_000
"""Distinct engine games per variant and player count, at most: one per
``POOL_REUSE`` games of the fill, at least ``POOL_MIN``."""
POOL_REUSE = 400
POOL_MIN = 4
FOLLOWS_MAX = 20
HEAVY_FOLLOWERS = 0.1
"""Share of players who follow each heavy player."""
CHUNK = 20_000
"""Games rendered and loaded at a time."""
CLOCKS = (("brisk", 0.2), ("fast", 0.2), ("daily", 0.45), ("slow", 0.1), ("days", 0.05))
THINK_HOURS = {"brisk": 1.5, "fast": 4.0, "daily": 8.0, "slow": 12.0, "days": 10.0}
"""Mean hours between two events of a game, by clock."""
TEXTS = (
    "gl hf",
    "oh no, my floor",
    "that blue was mine!",
    "nice one",
    "back tomorrow",
    "gg",
    "how did you see that?",
    "sorry, busy week",
)
FILLED = (
    "accounts_user",
    "accounts_follow",
    "games_game",
    "games_seat",
    "games_move",
    "games_playerstats",
    "games_ratingchange",
    "games_gamereview",
    "chat_message",
)
"""The tables filled (emptied first, with what refers to them: CASCADE)."""
REINDEXED = ("games_game", "games_seat", "games_ratingchange", "chat_message")
"""The big tables whose secondary indexes the first connection drops and builds
again after the load (the second does games_move's)."""


# ------------------------------------------------------------ COPY text


def _escape(text: str) -> str:
    """``text`` as a COPY text field."""
    return (
        text.replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
    )


_HMS = [
    f"{h:02d}:{m:02d}:{s:02d}" for h in range(24) for m in range(60) for s in range(60)
]
_DAYS: dict[int, str] = {}
_EPOCH = date(1970, 1, 1)


def _ts(epoch: int) -> str:
    """A UTC timestamp (whole seconds since 1970) as COPY text."""
    day, second = divmod(epoch, 86_400)
    text = _DAYS.get(day)
    if text is None:
        text = _DAYS[day] = (_EPOCH + timedelta(days=day)).isoformat()
    return f"{text} {_HMS[second]}+00"


def _opt(value: object) -> str:
    return "\\N" if value is None else str(value)


def _default_text(value: object) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return _escape(value)
    if isinstance(value, dict | list):
        return _escape(json.dumps(value))
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"no COPY text for {value!r}")


@dataclass
class _Table:
    """A model's table as COPY writes it: ``given`` columns (attnames) first, in
    that order, then every other column at its model default (a NOT NULL column
    without one is an error: a field added later must be filled here)."""

    model: Any
    given: Sequence[str]
    name: str = ""
    sql: str = ""
    rest: str = ""
    """The defaults' COPY text, each after a tab, and the line's end."""
    defaults: list[tuple[str, object]] = field(default_factory=list)
    rows: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.name = self.model._meta.db_table
        fields = [
            f
            for f in self.model._meta.concrete_fields
            if not getattr(f, "generated", False)
        ]
        known = {f.attname: f for f in fields}
        missing = [name for name in self.given if name not in known]
        if missing:
            raise ValueError(f"{self.name}: no columns {missing}")
        for f in fields:
            if f.attname in self.given:
                continue
            value = f.get_default()
            if value is None and not f.null:
                raise ValueError(f"{self.name}.{f.column}: NOT NULL and no default")
            self.defaults.append((f.column, value))
        columns = [known[name].column for name in self.given]
        columns += [column for column, _value in self.defaults]
        self.sql = f"COPY {self.name} ({', '.join(columns)}) FROM STDIN"
        self.rest = "".join("\t" + _default_text(v) for _c, v in self.defaults) + "\n"

    def copy(self, cursor: Any, lines: Sequence[str]) -> None:
        """COPY ``lines`` (each the given columns, tab-separated, no line end)."""
        if not lines:
            return
        started = time.perf_counter()
        rest = self.rest
        with cursor.copy(self.sql) as copy:
            for start in range(0, len(lines), 5_000):
                copy.write(rest.join(lines[start : start + 5_000]) + rest)
        self.seconds += time.perf_counter() - started
        self.rows += len(lines)


# ------------------------------------------------------ the engine's part


@dataclass(frozen=True)
class _PoolGame:
    """One engine game as the fill reuses it."""

    variant: str
    players: int
    first_seat: int
    ply: int
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    resigned: int | None
    opening: str
    moves: tuple[str, ...]
    """Its events as the pool table's COPY lines, each after the pool id: a tab,
    the ply, the event, the seat (or none)."""


def _pool_game(variant: str, players: int, seed: int) -> _PoolGame:
    from games.engine import record
    from games.fill import play

    game = play(variant, players, seed)
    return _PoolGame(
        variant=variant,
        players=players,
        first_seat=game.first_seat,
        ply=len(game.events),
        scores=tuple(game.scores),
        ranks=tuple(game.ranks),
        resigned=game.resigned,
        opening=record.opening_key(variant, [json.loads(e) for e in game.events]),
        moves=tuple(
            f"\t{ply}\t{_escape(event)}\t{_opt(seat)}\n"
            for ply, (event, seat) in enumerate(
                zip(game.events, game.event_seats, strict=True)
            )
        ),
    )


def _pool_games(jobs: list[tuple[str, int, int]]) -> list[_PoolGame]:
    """``_pool_game`` for each ``(variant, players, seed)`` (a worker's share)."""
    return [_pool_game(*job) for job in jobs]


def _review_text(variant: str, players: int, seed: int) -> str:
    """The review of pool game ``seed`` as ``GameReview.data``'s JSON text (what
    ``tasks.review_game`` stores: ``Review.to_json``), at ``REVIEW_SECONDS``."""
    from games.engine.review import review
    from games.fill import play

    game = play(variant, players, seed)
    made = review(
        [json.loads(event) for event in game.events],
        variant=variant,
        players=players,
        first_seat=game.first_seat,
        seconds=REVIEW_SECONDS,
        seed=seed,
        to_the_end=game.resigned is None,
    )
    return json.dumps(made.to_json(), separators=(",", ":"))


# ------------------------------------------------------------- indexes


def _secondary_indexes(cursor: Any, table: str) -> list[tuple[str, str]]:
    """``(drop, create)`` statements of ``table``'s indexes but its primary key
    (which foreign keys need): a unique constraint as a constraint."""
    rows = cursor.execute(
        """
        SELECT ic.relname, pg_get_indexdef(i.indexrelid), c.conname,
               pg_get_constraintdef(c.oid)
        FROM pg_index i
        JOIN pg_class ic ON ic.oid = i.indexrelid
        LEFT JOIN pg_constraint c
               ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
              AND c.contype IN ('u', 'x')
        WHERE i.indrelid = %s::regclass AND NOT i.indisprimary
        ORDER BY ic.relname
        """,
        [table],
    ).fetchall()
    statements = []
    for index, definition, constraint, constraint_definition in rows:
        if constraint is not None:
            statements.append(
                (
                    f'ALTER TABLE {table} DROP CONSTRAINT "{constraint}"',
                    f'ALTER TABLE {table} ADD CONSTRAINT "{constraint}" '
                    f"{constraint_definition}",
                )
            )
        else:
            statements.append((f'DROP INDEX "{index}"', definition))
    return statements


def _session(cursor: Any) -> None:
    """A loading session: no foreign-key triggers (the rows are consistent by
    construction), no waiting on each commit's flush, memory to sort indexes."""
    for statement in (
        "SET session_replication_role = replica",
        "SET synchronous_commit = off",
        "SET maintenance_work_mem = '1GB'",
        "SET temp_buffers = '256MB'",
        "SET work_mem = '64MB'",
        "SET jit = off",
    ):
        cursor.execute(statement)


# ------------------------------------------------ the Move rows' loader


class _MoveLoader(threading.Thread):
    """The second connection: games_move, from the pool's events.

    Takes the pool's COPY text, then chunks of the game map (one line a game:
    its id, pool game, seat users, start, length in seconds and first Move id)
    from ``chunks`` until ``None``; builds games_move's indexes again and
    commits; then VACUUM ANALYZE. An empty chunk (the fill failed) rolls back."""

    def __init__(self, connect: Callable[[], Any], move_table: _Table) -> None:
        super().__init__(name="fill-moves", daemon=True)
        self.connect = connect
        self.table = move_table
        self.chunks: queue.Queue[str | None] = queue.Queue()
        self.pool_text = ""
        self.error: BaseException | None = None
        self.rows = 0
        self.insert_seconds = 0.0
        self.index_seconds = 0.0
        self.vacuum_seconds = 0.0
        self.done_at = 0.0

    def run(self) -> None:
        try:
            self._load()
        except BaseException as error:  # noqa: BLE001 - told to the main thread
            self.error = error

    def _load(self) -> None:
        conn = self.connect()
        try:
            conn.autocommit = False
            cursor = conn.cursor()
            _session(cursor)
            indexes = _secondary_indexes(cursor, "games_move")
            for drop, _create in indexes:
                cursor.execute(drop)
            cursor.execute(
                "CREATE TEMPORARY TABLE fill_pool_move "
                "(pool integer, ply integer, event jsonb, seat integer)"
            )
            with cursor.copy("COPY fill_pool_move FROM STDIN") as copy:
                text = self.pool_text
                for start in range(0, len(text), 1 << 20):
                    copy.write(text[start : start + (1 << 20)])
            self.pool_text = ""
            cursor.execute(
                "CREATE TEMPORARY TABLE fill_pool AS SELECT pool AS id, "
                "array_agg(event ORDER BY ply) AS events, "
                "array_agg(seat ORDER BY ply) AS seats, count(*)::integer AS n "
                "FROM fill_pool_move GROUP BY pool"
            )
            cursor.execute("ALTER TABLE fill_pool ADD PRIMARY KEY (id)")
            cursor.execute("ANALYZE fill_pool")
            cursor.execute(
                "CREATE TEMPORARY TABLE fill_game_map (game_id bigint, pool integer, "
                "users bigint[], started bigint, length bigint, move0 bigint)"
            )
            fixed = [column for column, _value in self.table.defaults]
            columns = ["id", "game_id", "ply", "event", "created_at", "user_id", *fixed]
            values = ", ".join(["%s"] * len(fixed))
            insert = (
                f"INSERT INTO games_move ({', '.join(columns)}) "
                "SELECT g.move0 + m.k, g.game_id, m.k - 1, m.event, "
                "to_timestamp(g.started + g.length * (m.k - 1) / (p.n - 1)), "
                f"g.users[m.seat + 1]{', ' if fixed else ''}{values} "
                "FROM fill_game_map g JOIN fill_pool p ON p.id = g.pool "
                "CROSS JOIN LATERAL unnest(p.events, p.seats) "
                "WITH ORDINALITY AS m(event, seat, k)"
            )
            params = [value for _column, value in self.table.defaults]
            first = True
            while True:
                chunk = self.chunks.get()
                if chunk is None:
                    break
                if not chunk:
                    raise RuntimeError("the fill stopped")
                started = time.perf_counter()
                cursor.execute("TRUNCATE fill_game_map")
                with cursor.copy("COPY fill_game_map FROM STDIN") as copy:
                    copy.write(chunk)
                if first:
                    cursor.execute("ANALYZE fill_game_map")
                    first = False
                cursor.execute(insert, params)
                self.rows += cursor.rowcount
                self.insert_seconds += time.perf_counter() - started
            started = time.perf_counter()
            for _drop, create in indexes:
                cursor.execute(create)
            conn.commit()
            self.index_seconds = time.perf_counter() - started
            started = time.perf_counter()
            conn.autocommit = True
            cursor.execute("VACUUM (ANALYZE) games_move")
            self.vacuum_seconds = time.perf_counter() - started
            self.done_at = time.perf_counter()
        finally:
            conn.close()


# ------------------------------------------------------------ the archive


@dataclass
class _Chunk:
    """One chunk of games as COPY lines (the tables' given columns)."""

    games: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    map: list[str] = field(default_factory=list)
    """The Move loader's game map."""


class _Archive:
    """The games of the fill, made a chunk at a time in finishing order, with
    every player's totals and ratings as ``game_finish`` would leave them."""

    def __init__(
        self,
        *,
        games: int,
        players: int,
        rng: random.Random,
        pool: Sequence[_PoolGame],
        kinds: Sequence[tuple[str, int]],
        per_kind: int,
        reviews: dict[int, str],
        now: int,
    ) -> None:
        from chat.phrases import PHRASES
        from games.models import variant_family

        self.rng = rng
        self.pool = pool
        self.per_kind = per_kind
        self.players = players
        self.reviews = reviews
        """Pool ids of the reviewed pool games (their data once made)."""
        self.phrases = list(PHRASES)
        self.family = {v: variant_family(v) for v, _p in kinds}
        self.heavy_share = min(0.25, HEAVY_GAMES / games)
        weights = {v: w for v, w in _variants()}
        counts = {p: w for p, w in _player_counts()}
        self.cumulative: list[float] = []
        total = 0.0
        for variant, count in kinds:
            total += weights[variant] * counts[count]
            self.cumulative.append(total)
        span = YEARS * 365 * 86_400
        self.finishes = sorted(now - rng.randrange(3_600, span) for _ in range(games))
        self.stats: dict[tuple[int, str], Any] = {}
        self.last_rated: dict[tuple[int, str], int] = {}
        self.reviewed: list[tuple[int, int, int, int, int]] = []
        """``(game, pool game, events, creator, finished)`` of the reviewed games."""
        self.seat_id = self.change_id = self.message_id = self.move_id = 0

    def chunk(self, first: int, last: int) -> _Chunk:
        """Games ``first`` to ``last`` - 1 (ids from 1)."""
        from games.ratings.ratings import (
            _new_stats,
            conservative,
            rate,
            stats_add_result,
        )

        rng, pool, out = self.rng, self.pool, _Chunk()
        kinds = rng.choices(
            range(len(self.cumulative)), cum_weights=self.cumulative, k=last - first
        )
        heavy, others = range(1, HEAVY_PLAYERS + 1), self.players
        for index, kind in zip(range(first, last), kinds, strict=True):
            gid = index + 1
            pid = kind * self.per_kind
            if pid not in self.reviews or rng.random() >= REVIEW_SHARE:
                pid += rng.randrange(self.per_kind)
            game = pool[pid]
            count, n = game.players, game.ply
            clock = _pick(rng, CLOCKS)
            days = 3 if clock != "days" else rng.choice((1, 2, 3, 5, 7))
            finish = self.finishes[index]
            length = int(n * THINK_HOURS[clock] * 3_600 * rng.uniform(0.3, 1.2))
            start = finish - length
            created = start - rng.randrange(60, 2 * 86_400)
            rated = rng.random() < RATED_SHARE
            seated = [h for h in heavy if rng.random() < self.heavy_share][:count]
            while len(seated) < count:
                user = rng.randint(HEAVY_PLAYERS + 1, others)
                if user not in seated:
                    seated.append(user)
            rng.shuffle(seated)
            creator = seated[0]
            reason = "normal" if game.resigned is None else "resigned"
            out.games.append(
                f"{gid}\t{game.variant}\tfinished\t{count}\t{days}\t{clock}\t"
                f"{'t' if rated else 'f'}\t{creator}\t{_ts(created)}\t{_ts(start)}\t"
                f"{_ts(finish)}\t{game.first_seat}\t{n}\t{reason}\t{game.opening}"
            )
            family = self.family[game.variant]
            table = f"{family}-{count}"
            finished = _ts(finish)
            rows = []
            for number, user in enumerate(seated):
                self.seat_id += 1
                resigned = number == game.resigned
                out.seats.append(
                    f"{self.seat_id}\t{gid}\t{number}\t{user}\tjoined\t"
                    f"{game.scores[number]}\t{game.ranks[number]}\t"
                    f"{'t' if resigned else 'f'}\t{table}\t"
                    + (f"{n}\t{finished}" if resigned else "\\N\t\\N")
                )
                key = (user, family)
                stats = self.stats.get(key)
                if stats is None:
                    stats = self.stats[key] = _new_stats(user, family)
                stats_add_result(
                    stats,
                    score=game.scores[number],
                    rank=game.ranks[number],
                    rated=rated,
                )
                rows.append(stats)
            if rated:  # ratings.ratings_apply, without its model objects
                before = [(stats.mu, stats.sigma) for stats in rows]
                after = rate(before, game.ranks)
                for user, stats, (mu0, sigma0), (mu, sigma) in zip(
                    seated, rows, before, after, strict=True
                ):
                    stats.mu, stats.sigma = mu, sigma
                    stats.ordinal = conservative(mu, sigma)
                    self.last_rated[(user, family)] = finish
                    self.change_id += 1
                    out.changes.append(
                        f"{self.change_id}\t{user}\t{gid}\t{family}\t{mu0!r}\t"
                        f"{sigma0!r}\t{mu!r}\t{sigma!r}\t{stats.ordinal!r}\t{finished}"
                    )
            if rng.random() < CHAT_SHARE:
                for ply in sorted(rng.randint(0, n) for _ in range(rng.randint(1, 6))):
                    self.message_id += 1
                    at = start + length * max(ply - 1, 0) // (n - 1)
                    at += rng.randrange(5, 3_600)
                    if rng.random() < 0.8:
                        text, phrase = "", rng.choice(self.phrases)
                    else:
                        text, phrase = _escape(rng.choice(TEXTS)), ""
                    out.messages.append(
                        f"{self.message_id}\t{gid}\t{rng.choice(seated)}\t{text}\t"
                        f"{phrase}\t{ply}\t{_ts(at)}"
                    )
            if pid in self.reviews:
                self.reviewed.append((gid, pid, n, creator, finish))
            out.map.append(
                f"{gid}\t{pid}\t{{{','.join(map(str, seated))}}}\t{start}\t{length}\t"
                f"{self.move_id}\n"
            )
            self.move_id += n
        return out

    def stats_lines(self) -> list[str]:
        lines = []
        for number, key in enumerate(sorted(self.stats), start=1):
            s = self.stats[key]
            rated_at = self.last_rated.get(key)
            lines.append(
                f"{number}\t{s.user_id}\t{s.family}\t{s.mu!r}\t{s.sigma!r}\t"
                f"{s.ordinal!r}\t{s.rated_games}\t{s.rated_wins}\t"
                f"{_opt(s.rated_best_score)}\t"
                f"{_opt(None if rated_at is None else _ts(rated_at))}\t{s.games}\t"
                f"{s.wins}\t{s.score_sum}\t{_opt(s.best_score)}"
            )
        return lines


def _variants() -> tuple[tuple[str, float], ...]:
    from games.management.commands.fill_games import VARIANTS

    return VARIANTS


def _player_counts() -> tuple[tuple[int, float], ...]:
    from games.management.commands.fill_games import PLAYER_COUNTS

    return PLAYER_COUNTS


def _users(rng: random.Random, players: int, now: int) -> tuple[list[str], list[str]]:
    """The accounts' and the follows' COPY lines."""
    from accounts.usernames import username_key

    users = []
    joined = now - (YEARS * 365 + 200) * 86_400
    for user in range(1, players + 1):
        name = f"player{user}"
        users.append(
            f"{user}\t{name}\t{username_key(name)}\t{name}@example.com\t!\t"
            f"{_ts(joined - rng.randrange(100 * 86_400))}\tt"
        )
    follows: list[str] = []
    span = YEARS * 365 * 86_400
    for follower in range(1, players + 1):
        followed = {rng.randint(1, players) for _ in range(rng.randint(0, FOLLOWS_MAX))}
        followed.update(
            h for h in range(1, HEAVY_PLAYERS + 1) if rng.random() < HEAVY_FOLLOWERS
        )
        followed.discard(follower)
        for other in sorted(followed):
            at = _ts(now - rng.randrange(span))
            follows.append(f"{len(follows) + 1}\t{follower}\t{other}\t{at}")
    return users, follows


# ------------------------------------------------------------- the fill


def _pick(rng: random.Random, table: Sequence[tuple[Any, float]]) -> Any:
    return rng.choices([v for v, _w in table], [w for _v, w in table])[0]


def _say(started: float, text: str) -> None:
    print(f"[{time.perf_counter() - started:5.0f} s] {text}", flush=True)


def fill(games: int, *, players: int = 20_000, seed: int = 1, jobs: int = 2) -> float:
    """Fill the default Django database (PostgreSQL, already migrated, Django
    already set up by the caller) with ``games`` finished games, ``players``
    accounts and what goes with them (the module's docstring), after emptying
    the tables it fills; return the seconds taken. The same for the same
    ``seed`` but the dates, which end now. ``jobs`` worker processes play and
    review the engine's games (1: this process). Prints each table's rows/s."""
    from django.db import connection

    from accounts.models import Follow, User
    from chat.models import Message
    from games.engine.variants import CLASSIC_FAMILY, find_variant
    from games.models import Game, GameReview, Move, PlayerStats, RatingChange, Seat

    if connection.vendor != "postgresql":
        raise RuntimeError("bench/fill_pg.py fills PostgreSQL only")
    if players < HEAVY_PLAYERS + 4:
        raise ValueError(f"at least {HEAVY_PLAYERS + 4} players")
    started = time.perf_counter()
    rng = random.Random(seed)
    now = int(time.time())
    tables = {
        "users": _Table(
            User,
            ["id", "username", "username_key", "email", "password", "date_joined"]
            + ["is_active"],
        ),
        "follows": _Table(Follow, ["id", "follower_id", "followed_id", "created_at"]),
        "games": _Table(
            Game,
            ["id", "variant", "status", "players", "days_per_move", "clock", "rated"]
            + ["creator_id", "created_at", "started_at", "finished_at", "first_seat"]
            + ["ply", "end_reason", "opening"],
        ),
        "seats": _Table(
            Seat,
            ["id", "game_id", "number", "user_id", "invite_status", "score", "rank"]
            + ["resigned", "score_table", "forfeited_ply", "left_at"],
        ),
        "rating changes": _Table(
            RatingChange,
            ["id", "user_id", "game_id", "family", "mu_before", "sigma_before", "mu"]
            + ["sigma", "ordinal", "created_at"],
        ),
        "messages": _Table(
            Message,
            ["id", "game_id", "author_id", "text", "phrase", "ply", "created_at"],
        ),
        "player stats": _Table(
            PlayerStats,
            ["id", "user_id", "family", "mu", "sigma", "ordinal", "rated_games"]
            + ["rated_wins", "rated_best_score", "last_rated_at", "games", "wins"]
            + ["score_sum", "best_score"],
        ),
        "reviews": _Table(
            GameReview,
            ["game_id", "status", "done", "total", "seconds", "data", "created_at"]
            + ["queued_at", "finished_at", "kind", "requested_by_id"],
        ),
    }
    moves = _Table(Move, ["id", "game_id", "ply", "event", "created_at", "user_id"])

    # The pool: per_kind engine games of each variant and player count; the
    # first of each reviewed kind is reviewed.
    kinds = [(v, p) for v, _w in _variants() for p, _w2 in _player_counts()]
    per_kind = max(POOL_MIN, min(POOL_GAMES, games // POOL_REUSE))
    pool_jobs = [
        (variant, count, rng.getrandbits(32))
        for variant, count in kinds
        for _ in range(per_kind)
    ]
    reviewed = [
        number * per_kind
        for number, (variant, _count) in enumerate(kinds)
        if round(games * REVIEW_SHARE) > 0
        and (
            games >= ALL_REVIEWS_FROM or find_variant(variant).family is CLASSIC_FAMILY
        )
    ]
    workers = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    params = connection.get_connection_params()
    conn = connection.get_new_connection(params)
    loader = _MoveLoader(lambda: connection.get_new_connection(params), moves)
    try:
        step = time.perf_counter()
        if workers is not None:
            size = max(1, len(pool_jobs) // (jobs * 8))
            pool_async = workers.map_async(
                _pool_games,
                [pool_jobs[s : s + size] for s in range(0, len(pool_jobs), size)],
            )
            review_async = {
                pid: workers.apply_async(_review_text, pool_jobs[pid])
                for pid in reviewed
            }
        conn.autocommit = True
        cursor = conn.cursor()
        cursor.execute(f"TRUNCATE {', '.join(FILLED)} CASCADE")
        conn.autocommit = False
        _session(cursor)
        indexes = [s for table in REINDEXED for s in _secondary_indexes(cursor, table)]
        for drop, _create in indexes:
            cursor.execute(drop)
        users, follows = _users(rng, players, now)
        tables["users"].copy(cursor, users)
        tables["follows"].copy(cursor, follows)
        if workers is not None:
            pool = [game for part in pool_async.get() for game in part]
        else:
            pool = _pool_games(pool_jobs)
        _say(
            started,
            f"pool: {len(pool)} engine games ({per_kind} of each kind), "
            f"{sum(g.ply for g in pool)} events, in {time.perf_counter() - step:.1f} s",
        )
        loader.pool_text = "".join(
            f"{pid}{line}" for pid, game in enumerate(pool) for line in game.moves
        )
        loader.start()
        archive = _Archive(
            games=games,
            players=players,
            rng=rng,
            pool=pool,
            kinds=kinds,
            per_kind=per_kind,
            reviews={pid: "" for pid in reviewed},
            now=now,
        )
        step = time.perf_counter()
        for first in range(0, games, CHUNK):
            if loader.error is not None:
                break
            chunk = archive.chunk(first, min(games, first + CHUNK))
            loader.chunks.put("".join(chunk.map))
            tables["games"].copy(cursor, chunk.games)
            tables["seats"].copy(cursor, chunk.seats)
            tables["rating changes"].copy(cursor, chunk.changes)
            tables["messages"].copy(cursor, chunk.messages)
            done = min(games, first + CHUNK)
            if done % 100_000 == 0 or done == games:
                _say(started, f"{done} / {games} games copied, {loader.rows} moves")
        loader.chunks.put(None)
        _say(started, f"games made and copied in {time.perf_counter() - step:.1f} s")
        tables["player stats"].copy(cursor, archive.stats_lines())
        step = time.perf_counter()
        if workers is not None:
            texts = {pid: _escape(r.get()) for pid, r in review_async.items()}
        else:
            texts = {pid: _escape(_review_text(*pool_jobs[pid])) for pid in reviewed}
        if texts:
            _say(
                started,
                f"{len(texts)} pool games reviewed (waited "
                f"{time.perf_counter() - step:.1f} s)",
            )
        played = GameReview.Kind.PLAYED.value
        tables["reviews"].copy(
            cursor,
            [
                f"{gid}\tdone\t{n}\t{n}\t{REVIEW_SECONDS}\t{texts[pid]}\t{_ts(at)}\t"
                f"{_ts(at)}\t{_ts(at + 30 + gid % 600)}\t{played}\t{creator}"
                for gid, pid, n, creator, at in archive.reviewed
            ],
        )
        step = time.perf_counter()
        for _drop, create in indexes:
            cursor.execute(create)
        conn.commit()
        index_seconds = time.perf_counter() - step
        step = time.perf_counter()
        conn.autocommit = True
        for table in FILLED:
            if table != "games_move":
                cursor.execute(f"VACUUM (ANALYZE) {table}")
        vacuum_seconds = time.perf_counter() - step
        _say(started, f"the other tables done, {loader.rows} moves")
        while loader.is_alive():
            loader.join(30)
            if loader.is_alive():
                _say(started, f"{loader.rows} moves")
        if loader.error is not None:
            raise loader.error
        for table in FILLED:
            if table != "games_gamereview":
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
                )
    except BaseException:
        loader.chunks.put("")
        raise
    finally:
        conn.close()
        if workers is not None:
            workers.terminate()
            workers.join()
    seconds = time.perf_counter() - started
    print(f"{'table':<16} {'rows':>11} {'s':>8} {'rows/s':>10}")
    for label, loaded in tables.items():
        per_second = loaded.rows / loaded.seconds if loaded.seconds else 0
        print(
            f"{label:<16} {loaded.rows:>11} {loaded.seconds:>8.1f} {per_second:>10.0f}"
        )
    print(
        f"{'moves':<16} {loader.rows:>11} {loader.insert_seconds:>8.1f} "
        f"{loader.rows / max(loader.insert_seconds, 1e-9):>10.0f}"
    )
    print(
        f"indexes built again: {index_seconds:.1f} s, moves' {loader.index_seconds:.1f}"
        f" s; VACUUM ANALYZE {vacuum_seconds:.1f} s, moves' "
        f"{loader.vacuum_seconds:.1f} s"
    )
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = args.database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    seconds = fill(args.games, players=args.players, seed=args.seed, jobs=args.jobs)
    print(f"{args.games} games in {seconds:.1f} s: {args.games / seconds:.0f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
