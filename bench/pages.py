"""Page latency with a big archive, through Daphne: every page kind a player
reads, with each page's query count and its slowest query's plan (issue #40
items 2 and 3).

    .venv/bin/python bench/pages.py --database postgres [--games 1000000]
        [--database-url postgres://postgres@127.0.0.1:5432/bench_pages]
        [--requests 200]
    .venv/bin/python bench/pages.py [--database sqlite] [--games 100000]
        [--db /tmp/azul-pages.sqlite3] [--requests 200] [--in-progress 0]

The database is kept for the next run. PostgreSQL's (``--database-url``) is
created if missing and migrated; when it holds fewer finished games than
``--games`` it is emptied and filled by ``bench.fill_pg.fill`` (or topped up
with ``manage.py fill_games`` where that module is missing), then analysed.
SQLite's (``--db``) is migrated and topped up with ``manage.py fill_games``.
Then a few things the fill does not make, once: the player with the most
games follows the next twenty and has games in progress (some at their move),
their followed players play each other, a small league season is started (its
group pages), and an API token of that player.

Each page is then timed through one Daphne process started the stock way
(``daphne azulsite.asgi:application``, DEBUG off, the same database, the
in-memory channel layer), with real HTTP requests on one kept-alive
connection, signed in with a session cookie where the page needs it:
``--requests`` requests a page (after 5 warm-ups), random parameters where
they make sense (games, plies, variants). The trivial page is the floor: the
cheaper of the rules page and the log-in form.

Then a few requests of each page in this process, through Django's test
client under ``CaptureQueriesContext``: the number of queries of one request
(the most of the few), the slowest query's time and its plan, one line of
``EXPLAIN (FORMAT JSON)`` on PostgreSQL (``EXPLAIN QUERY PLAN`` on SQLite),
with every full table scan marked ``!`` (``!Seq Scan on games_seat``).

Prints a table, then as its last line one JSON object:
``{"games": N, "database": "postgresql"|"sqlite", "fill_seconds": S,
"pages": {name: {"p50_ms", "p95_ms", "queries", "slowest_query_ms", "plan"}}}``
(a page that answered anything but 200 also has ``"errors"``). The rating
chart is drawn inside the profile (no URL of its own): ``rating_chart`` is
its part of the profile, timed in this process. Run by hand; not part of the
test suite.

``--in-progress N`` (SQLite) sets that many of the database's games back in
progress (status, player to move, deadline; their boards stay the final
ones), kept in the database: what the signed-in player's pages must not grow
with. Use another ``--db`` for it.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The project root instead of bench/ (whose http.py would shadow the stdlib's).
sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse  # noqa: E402
import http.client  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402
from urllib.parse import urlparse  # noqa: E402

from bench.http import server_env  # noqa: E402
from bench.ws import daphne, session_key  # noqa: E402

DEEP_PAGE = 5000
"""How deep ``archive_deep`` reads the archive (pages of 25 games)."""
CAPTURED = 3
"""Requests of each page counted in this process (queries, the slowest one)."""
FOLLOWED = 20
PLAYING = 8
"""Games in progress the measured player gets (half at their move)."""


@dataclass
class Page:
    """One page kind: its JSON name, a URL (random parameters drawn anew each
    call), signed in or not, extra request headers."""

    name: str
    url: Callable[[], str]
    signed_in: bool = False
    headers: dict[str, str] = field(default_factory=dict)


def _ensure_postgres(url: str) -> None:
    """Create the database ``url`` names if missing (its server's ``postgres``
    database is where that is done); never drop it."""
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if found is None:
            connection.execute(f'CREATE DATABASE "{name}"')


def _fill(args: argparse.Namespace, postgres: bool) -> float:
    """Fill the database up to ``args.games`` finished games; the seconds it
    took (0 when it already held them)."""
    from django.core.management import call_command
    from django.db import connection

    from games.models import Game

    have = Game.objects.filter(status=Game.Status.FINISHED).count()
    if have >= args.games:
        return 0.0
    began = time.perf_counter()
    if postgres:
        try:
            fill_pg = importlib.import_module("bench.fill_pg")
        except ImportError:
            fill_pg = None
        if fill_pg is not None:
            print(f"filling {args.games} games with bench.fill_pg ...", flush=True)
            seconds = float(fill_pg.fill(args.games, players=20_000, seed=1))
        else:
            print(
                f"bench.fill_pg missing: topping up with fill_games "
                f"({args.games - have} games) ...",
                flush=True,
            )
            call_command("fill_games", args.games - have, seed=have + 1)
            seconds = time.perf_counter() - began
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")  # fill_pg analyses its own
    else:
        print(f"filling {args.games - have} games into {args.db} ...", flush=True)
        call_command("fill_games", args.games - have, seed=have + 1)
        seconds = time.perf_counter() - began
    return seconds


def _heaviest_players(count: int) -> list[Any]:
    """The ``count`` people with the most seats, most first."""
    from django.db.models import Count

    from accounts.models import User
    from games.models import Seat

    ids = list(
        Seat.objects.filter(user__isnull=False, user__computer_level="")
        .values("user_id")
        .annotate(seats=Count("id"))
        .order_by("-seats", "user_id")
        .values_list("user_id", flat=True)[:count]
    )
    users = {user.pk: user for user in User.objects.filter(pk__in=ids)}
    return [users[pk] for pk in ids]


def _set_up_player(player: Any, others: list[Any]) -> None:
    """The measured player's home as a busy player has it: following
    ``others``, games in progress (half at their move), and games in
    progress among those they follow. Once per database."""
    from accounts.models import Follow
    from games import clock, services
    from games.models import Game

    Follow.objects.bulk_create(
        [Follow(follower=player, followed=other) for other in others],
        ignore_conflicts=True,
    )
    if Game.objects.filter(status=Game.Status.ACTIVE, seats__user=player).exists():
        return
    rng = random.Random(5)
    for index in range(PLAYING):
        variant = ("classic", "pavilion")[index % 2]
        services.game_start_seated(
            variant=variant,
            users=[player, rng.choice(others)],
            first_seat=0 if index < PLAYING // 2 else 1,
            time_control=clock.DEFAULT.name,
        )
    for index in range(PLAYING):
        pair = rng.sample(others, 2)
        services.game_start_seated(
            variant=("classic", "pavilion")[index % 2],
            users=pair,
            first_seat=0,
            time_control=clock.DEFAULT.name,
        )


def _season_groups(users: list[Any]) -> list[int]:
    """The ids of league groups with games; a small season of ``users``
    started first where the database has none (as ``bench/seasons.py``
    does)."""
    from datetime import timedelta

    from games import clock
    from leagues import services
    from leagues.models import Entry, Group, League, Waiver
    from leagues.rehearsal import moved_clock

    played = Group.objects.filter(games__isnull=False).distinct().order_by("pk")
    groups = list(played.values_list("pk", flat=True)[:500])
    if groups:
        return groups
    league = League.objects.filter(slug="bench-pages").first()
    if league is None:
        league = League.objects.create(
            slug="bench-pages", variant="classic", players=2, season_weeks=8
        )
    Waiver.objects.bulk_create(
        [Waiver(user=user) for user in users], ignore_conflicts=True
    )
    season = services.season_create(
        league=league, starts_at=clock.now() + timedelta(days=1)
    )
    now = clock.now()
    Entry.objects.bulk_create(
        [Entry(season=season, user=user, created_at=now) for user in users]
    )
    with moved_clock(season.starts_at):
        services.season_start(season_id=season.pk)
    return list(played.values_list("pk", flat=True)[:500])


def _finished_games(rng: random.Random, count: int) -> list[tuple[int, int]]:
    """About ``count`` random finished games: (id, ply)."""
    from django.db.models import Max, Min

    from games.models import Game

    finished = Game.objects.filter(status=Game.Status.FINISHED, imported=False)
    bounds = finished.aggregate(low=Min("pk"), high=Max("pk"))
    low, high = bounds["low"] or 0, bounds["high"] or 0
    found: dict[int, int] = {}
    for _ in range(20):
        if len(found) >= count or not high:
            break
        ids = [rng.randint(low, high) for _ in range(count)]
        found.update(finished.filter(pk__in=ids).values_list("pk", "ply"))
    return sorted(found.items())


def _next_link(html: str) -> str | None:
    """The href of a page's ``rel="next"`` link."""
    for tag in re.findall(r"<a\b[^>]*>", html):
        if re.search(r'\brel="next"', tag):
            href = re.search(r'\bhref="([^"]*)"', tag)
            if href:
                return href.group(1).replace("&amp;", "&")
    return None


def _deep_archive(client: Any, finished: int) -> Callable[[], str]:
    """URLs of the archive about ``DEEP_PAGE`` pages deep (the last full page
    where the archive is shorter): by page number where the archive's "next"
    link carries one (``?page=2``), else by following its "next" links (a
    cursor) that far, once, in this process; a random one of the last 20."""
    from games.history.history_views import ARCHIVE_PAGE_SIZE

    depth = max(1, min(DEEP_PAGE, finished // ARCHIVE_PAGE_SIZE))
    base = "/games/archive/"
    following = _next_link(client.get(base).content.decode())
    rng = random.Random(13)
    if following is None or re.search(r"[?&]page=2(&|$)", following):
        return lambda: f"{base}?page={rng.randint(max(1, depth - 19), depth)}"
    print(f"archive_deep: following {depth - 1} 'next' links ...", flush=True)
    began = time.perf_counter()
    urls = [base]
    for index in range(depth - 1):
        link = _next_link(client.get(urls[-1]).content.decode())
        if link is None:
            break
        urls.append(base + link if link.startswith("?") else link)
        if index % 500 == 499:
            print(f"  {index + 1} pages in", flush=True)
    print(
        f"archive_deep: {len(urls)} pages in {time.perf_counter() - began:.1f} s",
        flush=True,
    )
    last = urls[-20:]
    return lambda: rng.choice(last)


def _plan_postgres(node: dict[str, Any]) -> str:
    kind = node["Node Type"]
    if node.get("Scan Direction") == "Backward":
        kind += " Backward"
    if "Index Name" in node:
        kind += f" using {node['Index Name']}"
    if "Relation Name" in node:
        kind += f" on {node['Relation Name']}"
    if node["Node Type"] == "Seq Scan":
        kind = "!" + kind
    children = [_plan_postgres(child) for child in node.get("Plans", [])]
    if not children:
        return kind
    if len(children) == 1:
        return f"{kind} > {children[0]}"
    return f"{kind} > [{'; '.join(children)}]"


def _plan(sql: str, params: Any) -> str:
    """One line of the plan of ``sql``: the node types with their relation
    and index names, full scans marked ``!``."""
    from django.db import DatabaseError, connection, transaction

    try:
        with transaction.atomic(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
                found = cursor.fetchone()[0]
                data = json.loads(found) if isinstance(found, str) else found
                return _plan_postgres(data[0]["Plan"])
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            details = [row[3] for row in cursor.fetchall()]
    except DatabaseError as error:
        return f"(no plan: {str(error).splitlines()[0]})"
    return "; ".join(
        "!" + d
        if d.startswith("SCAN ") and " USING " not in d and "SUBQUERY" not in d
        else d
        for d in details
    )


class _Timer:
    """A database execute wrapper: each query's seconds, its SQL and params
    (the debug cursor's times are rounded to the millisecond)."""

    def __init__(self) -> None:
        self.queries: list[tuple[float, str, Any]] = []

    def __call__(
        self,
        execute: Callable[..., Any],
        sql: str,
        params: Any,
        many: bool,
        context: Any,
    ) -> Any:
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            if not many:
                self.queries.append((time.perf_counter() - began, sql, params))

    def slowest(self) -> dict[str, Any]:
        if not self.queries:
            return {"slowest_query_ms": 0.0, "plan": ""}
        seconds, sql, params = max(self.queries, key=lambda query: query[0])
        return {
            "slowest_query_ms": round(seconds * 1000, 2),
            "plan": _plan(sql, params),
        }


def _captured(page: Page, client: Any, anonymous: Any) -> dict[str, Any]:
    """``CAPTURED`` requests of ``page`` in this process: the most queries
    of one request, the slowest query's milliseconds and its plan."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    browser = client if page.signed_in else anonymous
    browser.get(page.url(), headers=page.headers)  # warm
    counts = []
    timer = _Timer()
    for _ in range(CAPTURED):
        with (
            CaptureQueriesContext(connection) as captured,
            connection.execute_wrapper(timer),
        ):
            response = browser.get(page.url(), headers=page.headers)
        if response.status_code != 200:
            print(f"  {page.name}: answered {response.status_code} in this process")
        counts.append(len(captured.captured_queries))
    return {"queries": max(counts), **timer.slowest()}


def _timed_http(
    port: int, page: Page, requests: int, cookie: str
) -> tuple[list[float], int]:
    """``requests`` GETs of ``page`` through Daphne (after 5 warm-ups) on one
    kept-alive connection: each one's milliseconds, and how many did not
    answer 200."""
    headers = {"Host": "127.0.0.1", **page.headers}
    if page.signed_in:
        headers["Cookie"] = cookie
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    times: list[float] = []
    errors = 0
    for index in range(requests + 5):
        url = page.url()
        began = time.perf_counter()
        for attempt in range(2):
            try:
                connection.request("GET", url, headers=headers)
                response = connection.getresponse()
                response.read()
                break
            except (http.client.HTTPException, OSError):
                connection.close()  # the server closed it: once more, anew
                if attempt:
                    raise
                began = time.perf_counter()
        elapsed = (time.perf_counter() - began) * 1000
        if response.status != 200:
            errors += 1
            if errors <= 3:
                print(f"  {page.name}: {url} answered {response.status}", flush=True)
        if response.getheader("Connection", "").lower() == "close":
            connection.close()
        if index >= 5:
            times.append(elapsed)
    connection.close()
    return times, errors


def _chart_in_process(player: Any, requests: int) -> tuple[list[float], dict[str, Any]]:
    """The profile's rating charts (``rating_chart``: no URL of their own),
    in this process: read and drawn ``requests`` times; and its queries."""
    from django.db import connection
    from django.template.loader import render_to_string
    from django.test.utils import CaptureQueriesContext

    from games.people.profile_views import _family_summaries

    def draw() -> None:
        for summary in _family_summaries(player):
            if summary["chart"]:
                render_to_string(
                    "games/_rating_chart.html",
                    {"chart": summary["chart"], "id": "c", "title": "t"},
                )

    times = []
    for index in range(requests + 5):
        began = time.perf_counter()
        draw()
        if index >= 5:
            times.append((time.perf_counter() - began) * 1000)
    timer = _Timer()
    with (
        CaptureQueriesContext(connection) as captured,
        connection.execute_wrapper(timer),
    ):
        draw()
    return times, {"queries": len(captured.captured_queries), **timer.slowest()}


def _fixed(url: str) -> Callable[[], str]:
    return lambda: url


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(int(len(ordered) * 0.95) - 1, 0)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/bench_pages"
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--db", default="/tmp/azul-pages.sqlite3")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--in-progress", type=int, default=0)
    args = parser.parse_args()
    postgres = args.database == "postgres"

    env = server_env(Path(args.db))
    if postgres:
        _ensure_postgres(args.database_url)
        env["DATABASE_URL"] = args.database_url
    env["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
    env["API_RATE"] = "1000000/m"
    env["SECRET_KEY"] = "bench-only-" + "x" * 50  # the sessions made here
    env["PYTHONWARNINGS"] = "ignore:No directory at:UserWarning"  # whitenoise
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

    import django

    # whitenoise: no collected static files (the finders serve them)
    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    from api import services as api_services
    from games.engine.variants import VARIANT_NAMES
    from games.models import FAMILY_VARIANTS, Game

    call_command("migrate", verbosity=0)
    fill_seconds = _fill(args, postgres)
    if not postgres:
        playing = Game.objects.filter(status=Game.Status.ACTIVE).count()
        if playing < args.in_progress:
            _set_in_progress(args.in_progress - playing)
    finished = Game.objects.filter(status=Game.Status.FINISHED, imported=False).count()
    heavy = _heaviest_players(1 + FOLLOWED)
    if not heavy:
        print("no games to read")
        return 1
    player, others = heavy[0], heavy[1:]
    _set_up_player(player, others)
    group_ids = _season_groups(others[:9])
    _token, secret = api_services.token_create(
        user=player, name="bench pages", scopes=["game:read"]
    )
    session = session_key(player)
    engine = "postgresql" if postgres else "sqlite"
    where = args.database_url if postgres else args.db
    print(
        f"{engine}: {Game.objects.count()} games in {where}, {finished} finished, "
        f"{Game.objects.filter(status=Game.Status.ACTIVE).count()} in progress; "
        f"fill {fill_seconds:.1f} s; measured player {player.username}"
    )

    rng = random.Random(7)
    games = _finished_games(rng, 500)
    variants = list(VARIANT_NAMES)
    families = list(FAMILY_VARIANTS)
    anonymous = Client()
    signed_in = Client()
    signed_in.cookies[settings.SESSION_COOKIE_NAME] = session

    def a_game() -> tuple[int, int]:
        return rng.choice(games)

    def replay_url() -> str:
        pk, ply = a_game()
        return f"/games/{pk}/replay/?ply={rng.randint(0, ply)}"

    pages = [
        Page("floor", lambda: "/rules/classic/"),
        Page("home", lambda: "/", signed_in=True),
        Page("archive", lambda: "/games/archive/"),
        Page("archive_deep", _deep_archive(anonymous, finished)),
        Page("archive_player", lambda: f"/games/archive/?player={player.username}"),
        Page(
            "archive_variant",
            lambda: f"/games/archive/?variant={rng.choice(variants)}",
        ),
        *(
            Page(f"leaderboard_{family}", _fixed(f"/leaderboard/{family}/"))
            for family in families
        ),
        Page(
            "high_scores",
            lambda: (
                f"/leaderboard/{rng.choice(families)}/high-scores/"
                f"?players={rng.randint(2, 4)}"
            ),
        ),
        Page("profile", lambda: f"/accounts/players/{player.username}/"),
        Page("replay", replay_url),
        Page("game", lambda: f"/games/{a_game()[0]}/"),
        Page("watch", lambda: "/games/watch/"),
        Page("season_group", lambda: f"/leagues/groups/{rng.choice(group_ids)}/"),
        Page(
            "api_games",
            lambda: "/api/games/playing",
            headers={"Authorization": f"Bearer {secret}"},
        ),
    ]
    results: dict[str, dict[str, Any]] = {}
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}"
    print(
        f"{'page':<22} {'p50':>7} {'p95':>7} {'max':>7} {'queries':>7} "
        f"{'slowest':>7}  plan of the slowest (ms; n={args.requests})"
    )
    with daphne(env) as port:
        floors = []
        for url in ("/rules/classic/", "/accounts/login/"):
            trial, _errors = _timed_http(port, Page("floor", _fixed(url)), 30, "")
            floors.append((statistics.median(trial), url))
        floor_url = min(floors)[1]
        pages[0] = Page("floor", lambda: floor_url)
        for page in pages:
            times, errors = _timed_http(port, page, args.requests, cookie)
            results[page.name] = {
                "p50_ms": round(statistics.median(times), 2),
                "p95_ms": round(_p95(times), 2),
                "max": max(times),
                "errors": errors,
            }
    for page in pages:
        results[page.name].update(_captured(page, signed_in, anonymous))
    chart_times, chart_counts = _chart_in_process(player, args.requests)
    results["rating_chart"] = {
        "p50_ms": round(statistics.median(chart_times), 2),
        "p95_ms": round(_p95(chart_times), 2),
        "max": max(chart_times),
        "errors": 0,
        **chart_counts,
    }
    for name, result in results.items():
        label = name + (" (in-process)" if name == "rating_chart" else "")
        label += f" [{floor_url}]" if name == "floor" else ""
        print(
            f"{label:<22} {result['p50_ms']:7.1f} {result['p95_ms']:7.1f} "
            f"{result.pop('max'):7.1f} {result['queries']:7d} "
            f"{result['slowest_query_ms']:7.1f}  {result['plan']}"
            + (f"  ({result['errors']} not 200)" if result["errors"] else "")
        )
        if not result["errors"]:
            del result["errors"]
    print(
        json.dumps(
            {
                "games": finished,
                "database": engine,
                "fill_seconds": round(fill_seconds, 1),
                "pages": results,
            }
        )
    )
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
