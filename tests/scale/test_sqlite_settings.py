"""The SQLite connection settings: concurrent moves queue instead of failing."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
    reason="SQLite only",
)


@pytest.mark.django_db
def test_sqlite_connection_pragmas():
    with connection.cursor() as cursor:
        values = {}
        for pragma in ("journal_mode", "synchronous", "cache_size", "mmap_size"):
            cursor.execute(f"PRAGMA {pragma}")
            values[pragma] = cursor.fetchone()[0]
        cursor.execute("PRAGMA temp_store")
        values["temp_store"] = cursor.fetchone()[0]
    assert values == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "cache_size": -32000,
        "mmap_size": 268435456,
        "temp_store": 2,  # MEMORY
    }


def test_sqlite_writes_take_the_lock_first():
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
