"""A season of many players: how long its first day takes (every group made
and every game created and dealt at once) and how fast its pages are
(issue #38: 1,000 players, 250 groups, 3,000 games at 2 players, starting in
under a minute on PostgreSQL; pages p95 <= 50 ms).

    .venv/bin/python bench/seasons.py [--players 1000] [--seats 2]
        [--database postgres://postgres@127.0.0.1:5432/bench_seasons]
        [--requests 200]

The database (``--database``: a PostgreSQL URL, or ``sqlite:///path``) is
emptied and migrated first; PostgreSQL's is created if missing. The pages
are timed through Django's test client (the request cycle, queries and
templates; no HTTP server), as ``bench/pages.py`` does, with the Leagues
page signed in, a group page (whole, and the table alone as its doorbell
fetches it), the season page and a player's profile.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

# The project root instead of bench/ (whose http.py would shadow the stdlib's).
sys.path[0] = str(Path(__file__).resolve().parents[1])


def _fresh_postgres(url: str) -> None:
    """Drop and create the database ``url`` names (its server's ``postgres``
    database is where that is done)."""
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument(
        "--database", default="postgres://postgres@127.0.0.1:5432/bench_seasons"
    )
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    if args.database.startswith("postgres"):
        _fresh_postgres(args.database)
    elif args.database.startswith("sqlite:///"):
        Path(args.database.removeprefix("sqlite:///")).unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = args.database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User
    from games import clock
    from games.models import Game
    from leagues import services
    from leagues.models import Entry, League, Waiver
    from leagues.rehearsal import moved_clock

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_SSL_REDIRECT = False
    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }
    call_command("migrate", verbosity=0)
    League.objects.update(active=False)
    league = League.objects.create(
        slug="bench", variant="classic", players=args.seats, season_weeks=8
    )
    User.objects.bulk_create(
        [User(username=f"s{index:05d}") for index in range(args.players)]
    )
    users = list(User.objects.filter(username__startswith="s").order_by("pk"))
    Waiver.objects.bulk_create([Waiver(user=user) for user in users])
    season = services.season_create(
        league=league, starts_at=clock.now() + timedelta(days=1)
    )
    now = clock.now()
    Entry.objects.bulk_create(
        [Entry(season=season, user=user, created_at=now) for user in users]
    )
    with moved_clock(season.starts_at):
        began = time.perf_counter()
        services.season_start(season_id=season.pk)
        seconds = time.perf_counter() - began
    groups = season.groups.count()
    games = Game.objects.filter(league_game__group__season=season).count()
    engine = "PostgreSQL" if args.database.startswith("postgres") else "SQLite"
    print(
        f"{engine}: a season of {args.players} players at {args.seats} a game: "
        f"{groups} groups, {games} games created and dealt in {seconds:.1f} s "
        f"({games / seconds:.0f} games/s)"
    )

    rng = random.Random(7)
    group_ids = list(season.groups.values_list("pk", flat=True))
    client = Client()
    player = Client()
    player.force_login(rng.choice(users))
    pages = [
        ("leagues (signed in)", player, lambda: "/leagues/", {}),
        (
            "group page",
            client,
            lambda: f"/leagues/groups/{rng.choice(group_ids)}/",
            {},
        ),
        (
            "group table (htmx)",
            client,
            lambda: f"/leagues/groups/{rng.choice(group_ids)}/",
            {"HX-Request": "true"},
        ),
        ("season page", client, lambda: f"/leagues/seasons/{season.pk}/", {}),
        (
            "profile",
            client,
            lambda: f"/accounts/players/{rng.choice(users).username}/",
            {},
        ),
        ("rules (floor)", client, lambda: "/rules/classic/", {}),
    ]
    print(f"{'page':<22} {'p50':>8} {'p95':>8} {'max':>8}   (ms, n={args.requests})")
    for label, browser, url_for, headers in pages:
        times = []
        for _ in range(args.requests):
            url = url_for()
            began = time.perf_counter()
            response = browser.get(url, headers=headers)
            times.append((time.perf_counter() - began) * 1000)
            if response.status_code != 200:
                print(f"{label}: {url} answered {response.status_code}")
                return 1
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(
            f"{label:<22} {statistics.median(times):8.1f} {p95:8.1f} {times[-1]:8.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
