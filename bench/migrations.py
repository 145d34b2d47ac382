"""The migrations since issue #40 on a big database: how long each takes and
how long a write to its table waits meanwhile (issue #40 item 5).

    .venv/bin/python bench/migrations.py \\
        [--database-url postgres://postgres@127.0.0.1:5432/bench_pages]

Takes the database as ``bench/pages.py --database postgres`` leaves it (a
million games: migrated to the latest), unapplies every migration later than
``azulsite.online.SINCE`` and applies them again one at a time, while a
second connection writes to each migration's tables without pause (an
``UPDATE … SET id = id`` of one row: the lock an ordinary write takes, and
nothing changed). Prints each migration's seconds and the longest write
wait: a migration that locks its table for the build shows the whole build
there; one that keeps it writable (``azulsite.online``), milliseconds.
Run by hand; not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

# The project root instead of bench/ (whose http.py would shadow the stdlib's).
sys.path[0] = str(Path(__file__).resolve().parents[1])

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bench_pages"


class Writer(threading.Thread):
    """Writes to ``tables`` without pause, on a connection of its own, and
    keeps the longest wait since :meth:`lap`."""

    def __init__(self, url: str, tables: list[str]) -> None:
        super().__init__(daemon=True)
        import psycopg

        self.connection = psycopg.connect(url, autocommit=True)
        self.rows = []
        for table in tables:
            found = self.connection.execute(f"SELECT min(id) FROM {table}").fetchone()
            if found and found[0] is not None:
                self.rows.append((table, found[0]))
        self.longest = 0.0
        self.writes = 0
        self.stop = threading.Event()

    def lap(self) -> tuple[float, int]:
        """The longest wait and the writes since the last lap."""
        longest, writes = self.longest, self.writes
        self.longest, self.writes = 0.0, 0
        return longest, writes

    def run(self) -> None:
        while not self.stop.is_set():
            for table, row in self.rows:
                start = time.perf_counter()
                self.connection.execute(
                    f"UPDATE {table} SET id = id WHERE id = %s",  # noqa: S608
                    (row,),
                )
                self.longest = max(self.longest, time.perf_counter() - start)
                self.writes += 1
            time.sleep(0.01)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = args.database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)

    import django

    django.setup()
    from django.apps import apps
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from azulsite.online import SINCE

    call_command("migrate", verbosity=0)
    executor = MigrationExecutor(connection)
    graph = executor.loader.graph
    planned = [key for leaf in graph.leaf_nodes() for key in graph.forwards_plan(leaf)]
    newer = [
        key
        for key in dict.fromkeys(planned)  # each once, after what it depends on
        if key[0] in SINCE and int(key[1][:4]) > SINCE[key[0]]
    ]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_game")
        games = cursor.fetchone()[0]
    print(f"{games:,} games in {args.database_url}")
    if not newer:
        print("no migration since issue #40 (azulsite.online.SINCE)")
        return 0
    for app, number in SINCE.items():
        names = [n for a, n in graph.nodes if a == app and int(n[:4]) == number]
        call_command("migrate", app, names[0], verbosity=0)
    print(f"{'migration':<48} {'seconds':>8} {'writes':>7} {'longest wait':>13}")
    for app, name in newer:
        migration = graph.nodes[app, name]
        tables = sorted(
            {
                apps.get_model(app, op.model_name)._meta.db_table
                for op in migration.operations
                if getattr(op, "model_name", None)
            }
        )
        writer = _writer(args.database_url, tables)
        start = time.perf_counter()
        call_command("migrate", app, name, verbosity=0)
        seconds = time.perf_counter() - start
        longest, writes = writer.lap() if writer else (0.0, 0)
        if writer:
            writer.stop.set()
            writer.join()
        print(
            f"{app + '.' + name:<48} {seconds:8.1f} {writes:7} "
            f"{longest * 1000:10.1f} ms  ({', '.join(tables) or 'no table'})",
            flush=True,
        )
    return 0


def _writer(url: str, tables: list[str]) -> Any:
    """A started :class:`Writer` on ``tables`` (None without one that has rows)."""
    if not tables:
        return None
    writer = Writer(url, tables)
    if not writer.rows:
        return None
    writer.start()
    time.sleep(0.2)  # writing before the migration starts
    writer.lap()
    return writer


if __name__ == "__main__":
    sys.exit(main())
