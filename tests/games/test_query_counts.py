"""Queries that do not grow with the data (issue #40 item 3): each page reads
the same number of queries with 10 rows of what it lists as with 10,000 —
finished games in the archive (first page, filtered, 20 pages in) and the
high scores, players in the leaderboards, a player's profile with that many
games, the followed players' games on the home page, games in progress on
the watch page — and a replay and a game page of a game of 10 moves read as
many as those of a whole game.

The rows are made in bulk as ``manage.py fill_games`` makes them (its batch
insert: games, seats, rating changes, the players' totals), without moves
where the pages read none. One world is built for the module, inside a
transaction rolled back at its end: each page is counted with 10 rows (after
a request to warm up), the world grows to 10,000, and then each test asks
its page again (warm up, then count) and expects the same number.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Follow, User
from games import clock, services
from games.fill import FillGame, play, resigned_ranks
from games.management.commands.fill_games import Command as FillGames
from games.models import Game, PlayerStats, Seat
from games.ratings.ratings import PROVISIONAL_GAMES, _new_stats

SMALL, LARGE = 10, 10_000


def _users(prefix: str, count: int) -> list[User]:
    User.objects.bulk_create(
        [
            User(
                username=f"{prefix}{n}", email=f"{prefix}{n}@example.com", password="!"
            )
            for n in range(count)
        ],
        batch_size=1000,
    )
    return list(User.objects.filter(username__startswith=prefix).order_by("pk"))


def _outcome(rng: random.Random, variant: str, players: int) -> FillGame:
    """A finished game's result without its moves."""
    scores = [rng.randint(5, 90) for _ in range(players)]
    order = sorted(range(players), key=lambda seat: -scores[seat])
    ranks = [order.index(seat) + 1 for seat in range(players)]
    return FillGame(variant, players, 0, [], [], scores, ranks, None)


def _finished(
    count: int,
    pairs: list[list[User]],
    *,
    outcomes: list[FillGame] | None = None,
    seed: int = 1,
) -> None:
    """``count`` finished games (Azul and Summer Pavilion in turn, or
    ``outcomes``), each between one of ``pairs`` in turn (in runs), finished
    over the last 10 days, stored as ``fill_games`` stores them: seats with
    scores and ranks, rating changes, the players' totals and ratings."""
    rng = random.Random(seed)
    if outcomes is None:
        variants = ("classic", "pavilion")
        outcomes = [_outcome(rng, variants[n % 2], 2) for n in range(count)]
    players = {user for pair in pairs for user in pair}
    stats = {
        (s.user_id, s.family): s for s in PlayerStats.objects.filter(user__in=players)
    }
    existing = set(stats)
    now = clock.now()
    finish_times = sorted(
        now - timedelta(seconds=rng.random() * 10 * 86400) for _ in range(count)
    )
    run = max(1, min(1000, count // len(pairs)))
    fill = FillGames()
    for index, start in enumerate(range(0, count, run)):
        fill._insert_batch(
            rng,
            pairs[index % len(pairs)],
            finish_times[start : start + run],
            outcomes[start : start + run],
            stats,
        )
    PlayerStats.objects.bulk_create(
        [s for key, s in stats.items() if key not in existing], batch_size=1000
    )
    PlayerStats.objects.bulk_update(
        [s for key, s in stats.items() if key in existing],
        [f.name for f in PlayerStats._meta.concrete_fields if not f.primary_key],
        batch_size=1000,
    )


def _ranked(users: list[User]) -> None:
    """Totals and ratings of both families for ``users``: half settled, half
    provisional, all rated lately."""
    rng = random.Random(4)
    now = clock.now()
    rows = []
    for family in ("classic", "pavilion"):
        for index, user in enumerate(users):
            stats = _new_stats(user.pk, family)
            stats.mu += rng.uniform(-10, 10)
            stats.rated_games = stats.games = PROVISIONAL_GAMES + 3 if index % 2 else 1
            stats.last_rated_at = now - timedelta(days=rng.randint(0, 30))
            rows.append(stats)
    PlayerStats.objects.bulk_create(rows, batch_size=1000)


def _in_progress(count: int, model: Game, users: list[User]) -> None:
    """``count`` copies of the game in progress ``model`` (its seats too),
    between ``users`` taken at random."""
    seats = list(model.seats.order_by("number"))
    columns = [
        f.attname
        for f in Game._meta.concrete_fields
        if not f.primary_key and not f.generated
    ]
    copies = [
        Game(**{name: getattr(model, name) for name in columns}) for _ in range(count)
    ]
    Game.objects.bulk_create(copies, batch_size=1000)
    rng = random.Random(6)
    fields = [f.attname for f in Seat._meta.concrete_fields if not f.primary_key]
    rows = []
    for copy in copies:
        for seat, user in zip(seats, rng.sample(users, len(seats)), strict=True):
            row = Seat(**{name: getattr(seat, name) for name in fields})
            row.game_id, row.user_id = copy.pk, user.pk
            rows.append(row)
    Seat.objects.bulk_create(rows, batch_size=1000)


@dataclass
class World:
    """The rows the pages list, grown from ``SMALL`` to ``LARGE``: finished
    games between pool0 and each of pool1-3 (in the last 10 days: the
    archive, the high scores, pool0's profile, and the home page of ``me``,
    who follows pool1-3), games in progress among pool1-3 (the watch page,
    ``me``'s home), and players with ratings (the leaderboards)."""

    pool: list[User]
    me: User
    model: Game
    session: str
    size: int = 0

    def grow(self, size: int) -> None:
        more = size - self.size
        pool0, others = self.pool[0], self.pool[1:]
        _finished(more, [[pool0, other] for other in others], seed=size)
        _in_progress(more, self.model, others)
        _ranked(_users(f"rated{size}-", more))
        self.size = size

    def browser(self, signed_in: bool) -> Client:
        browser = Client()
        if signed_in:
            browser.cookies[settings.SESSION_COOKIE_NAME] = self.session
        return browser


DEEP = 20
"""How many "Older" links the deep archive case follows."""


def _archive_deep() -> str:
    """The archive ``DEEP`` pages in, by its "Older" (``rel="next"``) links,
    whatever they carry (a page number, a cursor); as deep as it goes where
    it is shorter (the first page with 10 games)."""
    url = "/games/archive/"
    browser = Client()
    for _ in range(DEEP):
        html = browser.get(url).content.decode()
        links = [tag for tag in re.findall(r"<a\b[^>]*>", html) if 'rel="next"' in tag]
        if not links:
            break
        href = re.search(r'href="([^"]*)"', links[0])
        assert href is not None
        url = "/games/archive/" + href.group(1).replace("&amp;", "&")
    return url


PAGES: dict[str, tuple[Callable[[], str], bool]] = {
    "archive": (lambda: "/games/archive/", False),
    "archive-player": (lambda: "/games/archive/?player=pool1", False),
    "archive-variant": (lambda: "/games/archive/?variant=pavilion", False),
    "archive-filtered": (
        lambda: "/games/archive/?player=pool2&variant=classic&rated=yes",
        False,
    ),
    "archive-deep": (_archive_deep, False),
    "leaderboard-classic": (lambda: "/leaderboard/classic/", False),
    "leaderboard-pavilion": (lambda: "/leaderboard/pavilion/", False),
    "high-scores": (lambda: "/leaderboard/pavilion/high-scores/?players=2", False),
    "profile": (lambda: "/accounts/players/pool0/", False),
    "profile-signed-in": (lambda: "/accounts/players/pool0/", True),
    "home": (lambda: "/", True),
    "watch": (lambda: "/games/watch/", False),
}
"""Each page: its URL (asked anew each time) and whether ``me`` is signed in."""


def _queries(browser: Client, url: str) -> list[str]:
    """The queries of one request of ``url``, after one to warm up."""
    assert browser.get(url).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert browser.get(url).status_code == 200
    return [query["sql"] for query in captured.captured_queries]


@pytest.fixture(scope="module")
def world(
    django_db_setup: Any, django_db_blocker: Any
) -> Iterator[tuple[World, dict[str, int]]]:
    """The world at ``LARGE``, and each page's queries when it was ``SMALL``."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            pool = _users("pool", 4)
            me = User.objects.create_user("me", password=None)
            Follow.objects.bulk_create(
                [Follow(follower=me, followed=other) for other in pool[1:]]
            )
            for first in (0, 1):  # one at my move, one waiting
                services.game_start_seated(
                    variant="classic",
                    users=[me, pool[0]],
                    first_seat=first,
                    time_control=clock.DEFAULT.name,
                )
            model = services.game_start_seated(
                variant="classic",
                users=pool[1:3],
                first_seat=0,
                time_control=clock.DEFAULT.name,
            )
            browser = Client()
            browser.force_login(me)
            session = browser.cookies[settings.SESSION_COOKIE_NAME].value
            built = World(pool=pool, me=me, model=model, session=session)
            built.grow(SMALL)
            counts = {
                name: len(_queries(built.browser(signed_in), url()))
                for name, (url, signed_in) in PAGES.items()
            }
            built.grow(LARGE)
            yield built, counts
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(PAGES))
def test_a_page_reads_as_many_queries_with_10_000_rows_as_with_10(
    name: str, world: tuple[World, dict[str, int]]
) -> None:
    built, small = world
    url, signed_in = PAGES[name]
    large = _queries(built.browser(signed_in), url())
    assert len(large) == small[name], (
        f"{name}: {small[name]} queries at 10 rows, {len(large)} at 10,000:\n"
        + "\n".join(large)
    )


@pytest.fixture
def two_games(db: Any) -> tuple[int, int]:
    """A game resigned after 10 moves and a whole game (4 players, all its
    moves), as ``fill_games`` stores them: (short id, whole id)."""
    whole = play("classic", 4, 11)
    short = FillGame(
        "classic",
        4,
        whole.first_seat,
        whole.events[:10],
        whole.event_seats[:10],
        [0, 0, 0, 0],
        resigned_ranks([0, 0, 0, 0], [0, 0, 0, 0], 0),
        0,
    )
    assert len(whole.events) > 50
    before = Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    _finished(2, [_users("seat", 4)], outcomes=[short, whole])
    games = dict(Game.objects.filter(pk__gt=before).values_list("ply", "pk"))
    assert sorted(games) == [10, len(whole.events)]
    return games[10], games[len(whole.events)]


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("/games/{}/replay/", id="replay-last"),
        pytest.param("/games/{}/replay/?ply=5", id="replay-ply-5"),
        pytest.param("/games/{}/", id="game-page"),
        pytest.param("/games/{}/record.json", id="record"),
    ],
)
def test_a_game_of_10_moves_reads_as_many_queries_as_a_whole_game(
    path: str, two_games: tuple[int, int], django_assert_num_queries: Any
) -> None:
    short, whole = two_games
    browser = Client()
    small = len(_queries(browser, path.format(short)))
    assert browser.get(path.format(whole)).status_code == 200  # warm up
    with django_assert_num_queries(small):
        assert browser.get(path.format(whole)).status_code == 200
