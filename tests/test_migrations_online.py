"""Every migration since issue #40 runs on a million-game database without
stopping its writes (``azulsite/online.py``): an index is built and dropped
concurrently (in a migration that is not atomic), and no constraint that
builds an index under a lock is added to a table that already holds rows.
``bench/migrations.py`` times them on the million games."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader

from azulsite.online import SINCE, AddIndexOnline, RemoveIndexOnline


def offences(migration: Any) -> list[str]:
    """What in ``migration`` would lock a table with rows in it while it works."""
    found = []
    created = set()
    online = False
    for operation in migration.operations:
        if isinstance(operation, migrations.CreateModel):
            created.add(operation.name_lower)
        elif isinstance(operation, AddIndexOnline | RemoveIndexOnline):
            online = True
        elif (
            isinstance(operation, migrations.AddIndex | migrations.RemoveIndex)
            and operation.model_name_lower not in created
        ):
            found.append(
                f"{type(operation).__name__} on {operation.model_name}: "
                "use azulsite.online's AddIndexOnline / RemoveIndexOnline"
            )
        elif (
            isinstance(operation, migrations.AddConstraint)
            and operation.model_name_lower not in created
        ):
            found.append(
                f"AddConstraint {operation.constraint.name} on "
                f"{operation.model_name}: builds its index under a lock "
                "(add a unique index online first, then the constraint "
                "USING it, by RunSQL)"
            )
    if online and migration.atomic:
        found.append("an online index in an atomic migration: set atomic = False")
    return found


def test_migrations_since_issue_40_keep_the_tables_writable():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    checked = []
    for (app, name), migration in loader.disk_migrations.items():
        if app in SINCE and int(name[:4]) > SINCE[app]:
            checked.append(name)
            assert offences(migration) == [], f"{app}.{name}"
    # the baseline names migrations that exist (a typo would check nothing)
    for app, number in SINCE.items():
        assert any(
            a == app and int(n[:4]) == number for a, n in loader.disk_migrations
        ), app


def test_the_rule_catches_a_locking_index_and_an_atomic_online_one():
    index = models.Index(fields=["finished_at"], name="x")

    class Locking(migrations.Migration):
        operations = [migrations.AddIndex("game", index)]

    class AtomicOnline(migrations.Migration):
        operations = [AddIndexOnline("game", index)]

    class Online(migrations.Migration):
        atomic = False
        operations = [AddIndexOnline("game", index), RemoveIndexOnline("game", "y")]

    class NewTable(migrations.Migration):
        operations = [
            migrations.CreateModel(
                "Fresh", [("id", models.AutoField(primary_key=True))]
            ),
            migrations.AddIndex("fresh", models.Index(fields=["id"], name="z")),
        ]

    assert offences(Locking("0099_x", "games")) == [
        "AddIndex on game: use azulsite.online's AddIndexOnline / RemoveIndexOnline"
    ]
    assert offences(AtomicOnline("0099_x", "games")) == [
        "an online index in an atomic migration: set atomic = False"
    ]
    assert offences(Online("0099_x", "games")) == []
    assert offences(NewTable("0099_x", "games")) == []
