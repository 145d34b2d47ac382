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


def _postgresql(schema_editor: Any) -> bool:
    return bool(schema_editor.connection.vendor == "postgresql")


class AddIndexOnline(AddIndexConcurrently):
    """``AddIndex``, built concurrently on PostgreSQL."""

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        if _postgresql(schema_editor):
            super().database_forwards(app_label, schema_editor, from_state, to_state)
        else:
            AddIndex.database_forwards(
                self, app_label, schema_editor, from_state, to_state
            )

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        if _postgresql(schema_editor):
            super().database_backwards(app_label, schema_editor, from_state, to_state)
        else:
            AddIndex.database_backwards(
                self, app_label, schema_editor, from_state, to_state
            )


class RemoveIndexOnline(RemoveIndexConcurrently):
    """``RemoveIndex``, dropped concurrently on PostgreSQL."""

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        if _postgresql(schema_editor):
            super().database_forwards(app_label, schema_editor, from_state, to_state)
        else:
            RemoveIndex.database_forwards(
                self, app_label, schema_editor, from_state, to_state
            )

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        if _postgresql(schema_editor):
            super().database_backwards(app_label, schema_editor, from_state, to_state)
        else:
            RemoveIndex.database_backwards(
                self, app_label, schema_editor, from_state, to_state
            )
