"""Schema changes a big table survives (issue #40 item 5; ``docs/style.md``).

A plain ``AddIndex`` on PostgreSQL is ``CREATE INDEX``: it holds a lock that
stops every write to the table while the index is built, minutes on a table
of a million games (every move, every finished game waits). These operations
build (and drop) an index ``CONCURRENTLY`` on PostgreSQL, where writes go on
meanwhile, and plainly elsewhere (SQLite, the embedded site, has no
concurrent build and no second process to block). A migration that uses them
sets ``atomic = False`` (a concurrent build cannot run in a transaction);
``tests/test_migrations_online.py`` holds every migration since issue #40 to
this, and ``bench/migrations.py`` times each on the million-game database.

Imports no app: every app's migrations may use it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.operations import (
    AddIndexConcurrently,
    RemoveIndexConcurrently,
)
from django.db.migrations.operations import AddIndex, RemoveIndex

SINCE = {
    "accounts": 18,
    "games": 24,
    "chat": 2,
    "leagues": 3,
    "api": 2,
    "notify": 7,
}
"""Each app's last migration before issue #40: every later one keeps the
tables writable (the test) and is timed on the million games (the bench)."""


class _Online:
    """The concurrent operation on PostgreSQL, ``plain`` elsewhere."""

    plain: Any
    """The operation this one stands for (``AddIndex``, ``RemoveIndex``)."""

    def database_forwards(
        self, app_label: str, schema_editor: Any, *states: Any
    ) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, *states)  # type: ignore[misc]
        else:
            self.plain.database_forwards(self, app_label, schema_editor, *states)

    def database_backwards(
        self, app_label: str, schema_editor: Any, *states: Any
    ) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, *states)  # type: ignore[misc]
        else:
            self.plain.database_backwards(self, app_label, schema_editor, *states)


class AddIndexOnline(_Online, AddIndexConcurrently):
    """``AddIndex``, built concurrently on PostgreSQL."""

    plain = AddIndex


class RemoveIndexOnline(_Online, RemoveIndexConcurrently):
    """``RemoveIndex``, dropped concurrently on PostgreSQL."""

    plain = RemoveIndex
