"""Page latency with a big archive: every page kind a player reads.

    .venv/bin/python bench/pages.py [--games 100000] [--db /tmp/azul-pages.sqlite3]
                                    [--requests 200] [--in-progress 0]

Uses (and keeps, for the next run) its own SQLite database: migrates it and tops it
up to ``--games`` finished games with ``manage.py fill_games`` (engine-played,
printing the insert rate), then times full page renders through Django's test
client in this process (the request cycle, queries and templates; no HTTP server),
``--requests`` per page kind, and prints p50/p95. Target: p95 <= 50 ms on SQLite.
Run by hand; not part of the test suite.

``--in-progress N`` sets that many of the database's games back in progress
(status, player to move, deadline; their boards stay the final ones), kept in
the database, as on a site with N games being played: what the signed-in
player's pages (the turn badge on every page, the home page's lists) must not
grow with. Use another ``--db`` for it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

# The project root instead of bench/ (whose http.py would shadow the stdlib's).
sys.path[0] = str(Path(__file__).resolve().parents[1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--db", default="/tmp/azul-pages.sqlite3")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--in-progress", type=int, default=0)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"sqlite:///{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User
    from games.engine.variants import VARIANT_NAMES
    from games.models import Game

    # No setup_test_environment(): it instruments every template render to copy
    # its context for the test client, work a server never does.
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_SSL_REDIRECT = False
    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }
    call_command("migrate", verbosity=0)
    have = Game.objects.filter(status=Game.Status.FINISHED).count()
    if have < args.games:
        print(f"filling {args.games - have} games into {args.db} ...")
        call_command("fill_games", args.games - have, seed=have + 1)
    playing = Game.objects.filter(status=Game.Status.ACTIVE).count()
    if playing < args.in_progress:
        _set_in_progress(args.in_progress - playing)
    print(
        f"{Game.objects.count()} games in {args.db}, "
        f"{Game.objects.filter(status=Game.Status.ACTIVE).count()} in progress"
    )

    rng = random.Random(7)
    max_id = Game.objects.order_by("-id").values_list("id", flat=True).first() or 1
    names = list(User.objects.values_list("username", flat=True)[:2000])
    variants = list(VARIANT_NAMES)

    def archive() -> str:
        return "/games/archive/"

    def archive_filtered() -> str:
        choice = rng.randrange(5)
        if choice == 0:
            return f"/games/archive/?player={rng.choice(names)}"
        if choice == 1:
            variant, count = rng.choice(variants), rng.randint(2, 4)
            return f"/games/archive/?variant={variant}&players={count}"
        if choice == 2:
            return (
                f"/games/archive/?rated=yes&since=2026-01-01&page={rng.randint(1, 40)}"
            )
        if choice == 3:
            return (
                f"/games/archive/?player={rng.choice(names)}&variant=classic&rated=yes"
            )
        return f"/games/archive/?page={rng.randint(1, 200)}"

    def leaderboard() -> str:
        family = rng.choice(["classic", "pavilion"])
        return f"/leaderboard/{family}/?page={rng.randint(1, 3)}"

    def high_scores() -> str:
        family = rng.choice(["classic", "pavilion"])
        return f"/leaderboard/{family}/high-scores/?players={rng.randint(2, 4)}"

    def profile() -> str:
        return f"/accounts/players/{rng.choice(names)}/"

    def replay() -> str:
        return f"/games/{rng.randint(1, max_id)}/replay/?ply={rng.randint(0, 130)}"

    def game_page() -> str:
        return f"/games/{rng.randint(1, max_id)}/"

    def home() -> str:
        return "/"

    def any_page() -> str:
        return "/rules/classic/"

    client = Client()
    player = Client()  # a signed-in player's home: their games and invitations
    player.force_login(User.objects.get(username=rng.choice(names)))
    print(f"{'page':<18} {'p50':>8} {'p95':>8} {'max':>8}   (n={args.requests})")
    for label, url_for in [
        ("archive", archive),
        ("archive filtered", archive_filtered),
        ("leaderboard", leaderboard),
        ("high scores", high_scores),
        ("profile", profile),
        ("replay", replay),
        ("game page", game_page),
        ("home (signed in)", home),
        ("rules (signed in)", any_page),
    ]:
        browser = player if url_for in (home, any_page) else client
        for _ in range(5):  # warm-up: templates, caches
            browser.get(url_for())
        times = []
        for _ in range(args.requests):
            url = url_for()
            start = time.perf_counter()
            response = browser.get(url)
            times.append((time.perf_counter() - start) * 1000)
            if response.status_code not in (200, 404):
                print(f"  {url}: HTTP {response.status_code}")
        times.sort()
        p50 = statistics.median(times)
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"{label:<18} {p50:7.1f}ms {p95:7.1f}ms {times[-1]:7.1f}ms")
    return 0


def _set_in_progress(count: int) -> None:
    """Set ``count`` random finished games back in progress (see the module's
    docstring)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game

    finished = list(
        Game.objects.filter(status=Game.Status.FINISHED).values_list("pk", "players")
    )
    rng = random.Random(11)
    deadline = timezone.now() + timedelta(days=3)
    for pk, players in rng.sample(finished, min(count, len(finished))):
        Game.objects.filter(pk=pk).update(
            status=Game.Status.ACTIVE,
            seat_to_move=rng.randrange(players),
            turn_deadline=deadline,
            finished_at=None,
        )


if __name__ == "__main__":
    sys.exit(main())
