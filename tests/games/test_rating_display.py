"""Ratings as players read them: the 1500-centred number on the leaderboard and
the profile, the provisional mark, and the rating chart's axes."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Game, PlayerStats, RatingChange
from games.ratings.charts import rating_chart
from games.ratings.ratings import (
    PROVISIONAL_GAMES,
    rating_shown,
    ratings_update_for_game,
)

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------- reading a page


class _Page(HTMLParser):
    """The rating marks of a page: each ``data-rating`` element (with the player
    of the table row it is in, its text and its ``abbr`` title), the chart's
    tick labels and its line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[dict[str, Any]] = []
        self.ratings: list[dict[str, Any]] = []
        self.y_ticks: list[dict[str, Any]] = []
        self.x_ticks: list[dict[str, Any]] = []
        self.lines: list[list[tuple[float, float]]] = []
        self.row_player: str | None = None
        self._in_player_link = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if tag == "tr":
            self.row_player = None
        if tag == "a" and values.get("href", "").startswith("/accounts/players/"):
            self._in_player_link = True
        if tag == "polyline":
            self.lines.append(
                [
                    (float(x), float(y))
                    for x, y in (p.split(",") for p in values["points"].split())
                ]
            )
        if tag == "abbr" and self.open and "data-rating" in self.open[-1]["attrs"]:
            self.open[-1]["title"] = values.get("title")
        if tag in ("polyline", "line", "circle"):
            return  # written self-closing
        self.open.append({"tag": tag, "attrs": values, "text": "", "title": None})

    def handle_data(self, data: str) -> None:
        if self._in_player_link:
            self.row_player = data.strip()
        for element in self.open:
            element["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._in_player_link = False
        if tag in ("polyline", "line", "circle") or not self.open:
            return
        element = self.open.pop()
        attrs = element["attrs"]
        if "data-rating" in attrs and tag == "span":
            self.ratings.append(
                {
                    "player": self.row_player,
                    "value": int(attrs["data-rating"]),
                    "text": element["text"].strip(),
                    "provisional": "data-provisional" in attrs,
                    "title": element["title"],
                }
            )
        elif tag == "text" and "data-rating" in attrs:
            self.y_ticks.append(
                {"value": int(attrs["data-rating"]), "y": float(attrs["y"]), **element}
            )
        elif tag == "text" and "data-date" in attrs:
            self.x_ticks.append(
                {"iso": attrs["data-date"], "x": float(attrs["x"]), **element}
            )


def _read(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def _get(client: Any, url: str, **headers: Any) -> _Page:
    response = client.get(url, **headers)
    assert response.status_code == 200
    return _read(response.content.decode())


def _leaderboard(client: Any, family: str = "classic") -> _Page:
    return _get(client, reverse("games:leaderboard", args=[family]))


def _profile(client: Any, user: Any, **headers: Any) -> _Page:
    return _get(client, reverse("profile", args=[user.username]), **headers)


# ------------------------------------------------------------- making ratings


def _stats(user: Any, *, mu: float, sigma: float, rated_games: int) -> PlayerStats:
    return PlayerStats.objects.create(
        user=user,
        family="classic",
        mu=mu,
        sigma=sigma,
        ordinal=mu - 3 * sigma,
        rated_games=rated_games,
        rated_wins=rated_games // 2,
        games=rated_games,
        wins=rated_games // 2,
        score_sum=40 * rated_games,
        last_rated_at=timezone.now() - timedelta(days=1),
    )


def _finish(game: Game, ranks: list[int], finished_at: datetime) -> None:
    """End ``game`` with ``ranks`` (seat order) at ``finished_at`` and rate it,
    as ``services.game_finish`` would."""
    for seat in game.seats.order_by("number"):
        seat.rank = ranks[seat.number]
        seat.score = 10 * (5 - seat.rank)
        seat.save()
    game.status = Game.Status.FINISHED
    game.finished_at = finished_at
    game.save()
    ratings_update_for_game(game=game)


def _play_rated(start_game: Any, users: list[Any], results: list[list[int]]) -> None:
    """One rated game per ``results`` entry (ranks in seat order), a day apart,
    the last one an hour ago."""
    start = timezone.now() - timedelta(days=len(results), hours=1)
    for day, ranks in enumerate(results):
        _finish(start_game(users, rated=True), ranks, start + timedelta(days=day))


def _expected_shown(results: list[list[int]], seat: int) -> int:
    """``seat``'s number after ``results``, from openskill itself: 1500 at the
    start, 200 points per β (``rating_points``)."""
    model = PlackettLuce()
    ratings = [model.rating() for _ in results[0]]
    for ranks in results:
        ratings = [t[0] for t in model.rate([[r] for r in ratings], ranks=ranks)]
    return math.floor(1500 + (ratings[seat].mu - 25) * 200 / (25 / 6) + 0.5)


# ----------------------------------------------------------------- the scale


def test_a_new_player_reads_1500_with_a_wide_margin():
    fresh = PlackettLuce()
    shown = rating_shown(mu=fresh.mu, sigma=fresh.sigma, rated_games=0)
    assert (shown.value, shown.provisional) == (1500, True)
    assert shown.deviation == 400  # σ 25/3 at 48 points a unit


def test_200_points_ahead_wins_about_three_games_in_four():
    """Elo's reading of a 200-point gap (Φ(1/√2) ≈ 0.76) holds for openskill's
    own prediction between two settled players."""
    model = PlackettLuce()
    stronger, weaker = 25 + model.beta, 25.0
    shown = [
        rating_shown(mu=mu, sigma=0.01, rated_games=50).value
        for mu in (stronger, weaker)
    ]
    assert shown == [1700, 1500]
    win = model.predict_win(
        [[model.rating(mu=stronger, sigma=0.01)], [model.rating(mu=weaker, sigma=0.01)]]
    )[0]
    assert win == pytest.approx(0.76, abs=0.005)


# --------------------------------------------------------------- leaderboard


def test_leaderboard_shows_the_mapped_whole_number(players, client):
    _stats(players[0], mu=27.5, sigma=4.0, rated_games=PROVISIONAL_GAMES + 2)
    rows = _leaderboard(client).ratings
    # 1500 + 48 · (27.5 − 25) = 1620
    assert rows == [
        {
            "player": "ana",
            "value": 1620,
            "text": "1620",
            "provisional": False,
            "title": None,
        }
    ]


def test_leaderboard_reads_in_order_of_the_shown_number(players, client):
    """A player with the higher shown rating is listed first even when a more
    certain player has the higher μ − 3σ (the old sort)."""
    _stats(players[0], mu=30.0, sigma=6.0, rated_games=12)  # 1740, ordinal 12
    _stats(players[1], mu=28.0, sigma=2.0, rated_games=80)  # 1644, ordinal 22
    _stats(players[2], mu=26.0, sigma=2.0, rated_games=80)  # 1548, ordinal 20
    rows = _leaderboard(client).ratings
    assert [(r["player"], r["value"]) for r in rows] == [
        ("ana", 1740),
        ("binh", 1644),
        ("chloe", 1548),
    ]


def test_provisional_players_are_not_ranked_but_listed_below(players, client):
    _stats(players[0], mu=35.0, sigma=7.0, rated_games=PROVISIONAL_GAMES - 1)
    _stats(players[1], mu=26.0, sigma=6.0, rated_games=PROVISIONAL_GAMES)
    rows = _leaderboard(client).ratings
    # The ranked list, then its "Provisional" section (tests/games/test_start_pages.py)
    assert [(r["player"], r["provisional"]) for r in rows] == [
        ("binh", False),
        ("ana", True),
    ]


# ------------------------------------------------------------------- profile


def test_one_rated_game_is_marked_provisional(players, start_game, client):
    _play_rated(start_game, players[:2], [[1, 2]])
    mark = _profile(client, players[0]).ratings
    assert mark == [
        {
            "player": None,
            "value": _expected_shown([[1, 2]], 0),
            "text": f"{_expected_shown([[1, 2]], 0)}?",
            "provisional": True,
            "title": "Provisional: 1 rated game so far",
        }
    ]
    assert mark[0]["value"] > 1500  # the winner went up


def test_the_mark_goes_at_the_threshold(players, start_game, client):
    results = [[1, 2], [2, 1]] * PROVISIONAL_GAMES
    _play_rated(start_game, players[:2], results[: PROVISIONAL_GAMES - 1])
    (before,) = _profile(client, players[0]).ratings
    assert before["provisional"] and before["text"].endswith("?")
    assert before["title"] == f"Provisional: {PROVISIONAL_GAMES - 1} rated games so far"
    _play_rated(start_game, players[:2], [results[PROVISIONAL_GAMES - 1]])
    (after,) = _profile(client, players[0]).ratings
    assert not after["provisional"]
    assert after["text"] == str(after["value"]) and after["title"] is None
    assert after["value"] == _expected_shown(results[:PROVISIONAL_GAMES], 0)


def test_profile_and_leaderboard_show_the_same_number(
    players, start_game, client, settings
):
    settings.INVITATIONS_PER_HOUR = 100  # twelve games' invitations in a minute
    results = [[1, 2, 3], [2, 1, 3], [1, 3, 2], [3, 2, 1]] * 3
    _play_rated(start_game, players[:3], results)
    board = {r["player"]: r["value"] for r in _leaderboard(client).ratings}
    assert len(board) == 3
    for seat, user in enumerate(players[:3]):
        (profile,) = _profile(client, user).ratings
        assert profile["value"] == board[user.username]
        assert profile["value"] == _expected_shown(results, seat)


# --------------------------------------------------------------------- chart

DAYS = [
    datetime(2025, 3, 14, 12, tzinfo=UTC),
    datetime(2025, 4, 2, 9, tzinfo=UTC),
    datetime(2025, 5, 20, 18, tzinfo=UTC),
]


def _chart_of_three_games(players: Any, start_game: Any) -> list[list[int]]:
    results = [[1, 2], [1, 2], [2, 1]]
    for day, ranks in zip(DAYS, results, strict=True):
        _finish(start_game(players[:2], rated=True), ranks, day)
    return results


def test_chart_dates_every_game_and_its_line_sits_on_the_axis(
    players, start_game, client
):
    results = _chart_of_three_games(players, start_game)
    page = _profile(client, players[0])
    assert [t["iso"] for t in page.x_ticks] == [
        "2025-03-14",
        "2025-04-02",
        "2025-05-20",
    ]
    assert [t["text"] for t in page.x_ticks] == [
        "03/14/2025",
        "04/02/2025",
        "05/20/2025",
    ]
    (line,) = page.lines
    # one point per game, each under its date
    assert [x for x, _y in line] == [t["x"] for t in page.x_ticks]
    # rating ticks: round, evenly spaced, labelled with their value
    values = [t["value"] for t in page.y_ticks]
    assert [t["text"] for t in page.y_ticks] == [str(v) for v in values]
    steps = {b - a for a, b in zip(values, values[1:], strict=False)}
    assert len(steps) == 1 and steps.pop() in (10, 20, 25, 50, 100, 200)
    # read each point's rating off the axis: the ratings after each game
    (low, y_low), (high, y_high) = (
        (page.y_ticks[0]["value"], page.y_ticks[0]["y"]),
        (page.y_ticks[-1]["value"], page.y_ticks[-1]["y"]),
    )
    read = [low + (y - y_low) * (high - low) / (y_high - y_low) for _x, y in line]
    expected = [_expected_shown(results[: n + 1], 0) for n in range(len(results))]
    assert read == pytest.approx(expected, abs=0.5)
    assert page.ratings[0]["value"] == expected[-1]


def test_chart_dates_follow_the_page_language(players, start_game, client):
    _chart_of_three_games(players, start_game)
    page = _profile(client, players[0], HTTP_ACCEPT_LANGUAGE="pt-br")
    assert [t["text"] for t in page.x_ticks] == [
        "14/03/2025",
        "02/04/2025",
        "20/05/2025",
    ]


def test_chart_has_a_title_and_description(players, start_game, client):
    _chart_of_three_games(players, start_game)
    html = client.get(reverse("profile", args=[players[0].username])).content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert (
        'role="img"' in svg
        and 'aria-labelledby="chart-classic-t chart-classic-d"' in svg
    )
    assert '<title id="chart-classic-t">Rating history: Azul</title>' in svg
    assert "3 rated games from 03/14/2025 to 05/20/2025." in svg


def _changes(mus: list[float], days: list[datetime]) -> list[RatingChange]:
    return [
        RatingChange(mu=mu, sigma=5, created_at=day)
        for mu, day in zip(mus, days, strict=True)
    ]


def test_chart_of_many_games_dates_a_few_ticks_from_first_to_last():
    start = datetime(2024, 1, 1, 12, tzinfo=UTC)
    days = [start + timedelta(days=3 * i) for i in range(40)]
    chart = rating_chart(_changes([25 + (i % 7) for i in range(40)], days))
    assert chart is not None
    dates = [tick["date"] for tick in chart["x_ticks"]]
    assert 3 <= len(dates) <= 6
    assert dates[0] == days[0].date() and dates[-1] == days[-1].date()
    assert dates == sorted(dates)


def test_chart_labels_a_day_of_many_games_once():
    day = datetime(2024, 6, 1, 8, tzinfo=UTC)
    days = [day + timedelta(minutes=10 * i) for i in range(5)]
    chart = rating_chart(_changes([25, 26, 27, 26, 25], days))
    assert chart is not None
    assert [tick["iso"] for tick in chart["x_ticks"]] == ["2024-06-01"]


def test_a_flat_history_still_has_a_readable_axis():
    day = datetime(2024, 6, 1, 8, tzinfo=UTC)
    chart = rating_chart(_changes([25.0], [day]))
    assert chart is not None
    values = [tick["value"] for tick in chart["y_ticks"]]
    assert values[0] <= 1500 <= values[-1] and values[-1] - values[0] >= 50
    assert len(values) >= 3
