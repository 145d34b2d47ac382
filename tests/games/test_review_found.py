"""The review found where players look (issue #34 item 4, docs/review.md "On
the site"): a finished game's own page links to its review and shows each
player's accuracy in its final table (never for a game in progress, nor for a
record that continues one; no numbers for a player who waits to look); the
chart's axes carry numbers; the decision played is always among the decisions
weighed; the progress line tells only a page without JavaScript to reload."""

from __future__ import annotations

import html
import random
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import clock, services, tasks
from games.engine.classic import Take
from games.history import reviews
from games.models import Game, GameReview

from .helpers import play_random_moves, resigned_game
from .test_engine_help import _continued_offline
from .test_review_tabs import _before, _decision, _find, _imported, _plant, _replay

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def reviewed(players, start_game, settings) -> Game:
    """ana and binh's game, a dozen moves then binh resigns, reviewed."""
    settings.REVIEW_SECONDS = 0.02
    game = resigned_game(players, start_game)
    assert tasks.review_game.call(game.pk) == "reviewed"
    return game


def _page(client: Client, game: Game, **extra: Any) -> str:
    response = client.get(reverse("games:detail", args=[game.pk]), **extra)
    assert response.status_code == 200
    return response.content.decode()


def _shown(accuracy: float) -> str:
    """An accuracy as the page rounds it (floatformat: half up)."""
    return str(Decimal(str(accuracy)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _final_table(page: str) -> str:
    return page.split('<table class="results final-results">', 1)[1].split(
        "</table>", 1
    )[0]


def _rows(table: str) -> list[dict[str, str]]:
    """Each row of the final table: its marks and its cells' text."""
    rows = []
    for marks, cells in re.findall(r"<tr (data-seat[^>]*)>(.*?)</tr>", table):
        row = dict(re.findall(r'data-(\w+)="([^"]*)"', marks))
        texts = re.findall(r"<td[^>]*>(.*?)</td>", cells)
        row["cells"] = [re.sub(r"<[^>]+>", "", t).strip() for t in texts]
        rows.append(row)
    return rows


def _review_link(page: str) -> str | None:
    """The address of the Review link beside Replay, if there is one."""
    found = re.search(
        r'<span id="review-link"[^>]*> — <a href="([^"]+)">Review</a></span>', page
    )
    return html.unescape(found.group(1)) if found else None


def test_a_finished_games_page_links_its_review_and_shows_each_accuracy(reviewed):
    data = GameReview.objects.get(game=reviewed).data
    page = _page(Client(), reviewed)
    # beside Replay: Review, the replay's Review tab
    replay = reverse("games:replay", args=[reviewed.pk])
    assert f'<a href="{replay}">Replay</a><span id="review-link"> — ' in page
    assert _review_link(page) == f"/games/{reviewed.pk}/replay/?tab=review"
    # the final table: each player's accuracy as the review made it
    table = _final_table(page)
    assert re.findall(r'<th scope="col">([^<]+)</th>', table) == [
        "Rank",
        "Player",
        "Score",
        "Accuracy",
    ]
    accuracy = {s["seat"]: s["accuracy"] for s in data["seats"]}
    rows = _rows(table)
    assert sorted(int(row["seat"]) for row in rows) == [0, 1]
    for row in rows:
        seat = int(row["seat"])
        score = reviewed.seats.get(number=seat).score
        assert (row["rank"], row["score"]) == (
            str(reviewed.seats.get(number=seat).rank),
            str(score),
        )
        assert float(row["accuracy"]) == pytest.approx(accuracy[seat])
        assert row["cells"][2:] == [str(score), _shown(accuracy[seat])]


def test_while_the_review_is_made_the_accuracy_column_waits(
    players, start_game, settings
):
    settings.REVIEW_SECONDS = 0.02
    game = resigned_game(players, start_game)
    assert GameReview.objects.get(game=game).status == GameReview.Status.QUEUED
    for status in (GameReview.Status.QUEUED, GameReview.Status.RUNNING):
        GameReview.objects.filter(game=game).update(status=status, done=4, total=30)
        page = _page(Client(), game)
        assert _review_link(page) == f"/games/{game.pk}/replay/?tab=review"
        table = _final_table(page)
        assert '<th scope="col">Accuracy</th>' in table
        assert "data-accuracy" not in table
        for row in _rows(table):
            assert row["cells"][-1] == "…The review is being made."
            assert '<span aria-hidden="true">…</span>' in table
    # a review that could not be made: the link (which says so), no column
    GameReview.objects.filter(game=game).update(status=GameReview.Status.FAILED)
    page = _page(Client(), game)
    assert _review_link(page) is not None
    assert "Accuracy" not in _final_table(page)


def test_a_player_who_waits_to_look_gets_the_link_and_no_numbers(
    reviewed, players, client_for
):
    User.objects.filter(pk=players[0].pk).update(review_hidden=True)
    ana = client_for(User.objects.get(pk=players[0].pk))
    page = _page(ana, reviewed)
    assert _review_link(page) == f"/games/{reviewed.pk}/replay/?tab=review"
    table = _final_table(page)
    assert "Accuracy" not in table and "data-accuracy" not in table
    assert [len(row["cells"]) for row in _rows(table)] == [3, 3]
    # binh, who did not ask to wait, sees the numbers
    binh = _page(client_for(players[1]), reviewed)
    assert "data-accuracy" in _final_table(binh)


def test_a_game_in_progress_has_no_review_link_nor_accuracy(players, start_game):
    game = play_random_moves(start_game(players[:2]), random.Random(2), 6)
    now = clock.now()
    # even a forged row is never read while the game is on
    GameReview.objects.create(
        game=game,
        status="done",
        seconds=1,
        created_at=now,
        queued_at=now,
        data={"seats": [{"seat": 0, "accuracy": 91.0}], "decisions": []},
    )
    for client in (Client(), Client()):
        page = _page(client, game)
        assert _review_link(page) is None and "tab=review" not in page
        assert "Accuracy" not in page and "data-accuracy" not in page


def test_a_record_that_continues_a_game_in_progress_shows_no_review(
    players, start_game, client_for, settings
):
    settings.REVIEW_SECONDS = 0.02
    live = play_random_moves(start_game(players[:2]), random.Random(5), 13)
    chloe = client_for(players[2])
    imported = services.game_import(
        uploader=players[2], data=_continued_offline(chloe, live, seed=1)
    ).game
    now = clock.now()
    # a review made before the rule (docs/review.md): never read meanwhile
    GameReview.objects.create(
        game=imported,
        status="done",
        seconds=1,
        created_at=now,
        queued_at=now,
        data={
            "decisions": [],
            "chances": [],
            "seats": [
                {"seat": 0, "lost": 0.0, "luck": 0.0, "accuracy": 91.0},
                {"seat": 1, "lost": 0.0, "luck": 0.0, "accuracy": 77.0},
            ],
        },
    )
    for client in (chloe, Client()):
        page = _page(client, imported)
        assert _review_link(page) is None
        assert "data-accuracy" not in page and "Accuracy" not in page
    # once that game has ended, the record is an ordinary import
    services.game_resign(game_id=live.pk, user=players[1])
    page = _page(chloe, imported)
    assert _review_link(page) == f"/games/{imported.pk}/replay/?tab=review"
    assert [row["accuracy"] for row in _rows(_final_table(page))] in (
        ["91.0", "77.0"],
        ["77.0", "91.0"],
    )


def test_an_import_nobody_asked_to_review_links_only_its_uploader(players):
    game = _imported(players[0], "classic", 5)
    assert not GameReview.objects.filter(game=game).exists()
    assert _review_link(_page(Client(), game)) is None
    uploader = Client()
    uploader.force_login(players[0])
    page = _page(uploader, game)  # the Review tab offers to ask for it
    assert _review_link(page) == f"/games/{game.pk}/replay/?tab=review"
    assert "Accuracy" not in page


def test_a_board_redrawn_as_the_game_ends_brings_the_review_link(reviewed):
    """The page was open as the game ended: live.js fetches the board alone,
    which brings the link beside Replay out of band."""
    partial = _page(Client(), reviewed, **HTMX)
    assert "<html" not in partial
    assert partial.count('id="review-link"') == 1
    link = re.search(r'<span id="review-link" hx-swap-oob="true">(.*?)</span>', partial)
    assert link is not None
    assert f'<a href="/games/{reviewed.pk}/replay/?tab=review">Review</a>' in (
        link.group(1)
    )
    # the whole page draws it once, in place
    page = _page(Client(), reviewed)
    assert page.count('id="review-link"') == 1 and "hx-swap-oob" not in page


def test_the_review_table_reads_in_the_players_language(reviewed):
    page = _page(Client(), reviewed, HTTP_ACCEPT_LANGUAGE="ko")
    assert re.search(
        r'<span id="review-link"> — <a href="[^"]+\?tab=review">분석</a></span>', page
    )
    assert '<th scope="col">정확도</th>' in _final_table(page)


# The chart's axes ------------------------------------------------------------


def test_the_charts_axes_carry_numbers(players):
    game = _imported(players[0], "classic", 5)
    events = game.moves.count()
    # seat 0 climbs to 23 points ahead; seat 1 mirrors it
    timeline = [[23 * i / (events - 1), -23 * i / (events - 1)] for i in range(events)]
    _plant(game, [])
    GameReview.objects.filter(game=game).update(
        data={**GameReview.objects.get(game=game).data, "timeline": timeline}
    )
    page = _replay(Client(), game, tab="review")
    svg = page.split('<figure class="review-chart">', 1)[1].split("</svg>", 1)[0]
    # the vertical axis: expected final points, round, both sides of 0
    ticks = re.findall(
        r'<text class="tick"[^>]*data-value="(-?\d+)">([^<]+)</text>', svg
    )
    assert ticks == [
        ("30", "+30"),
        ("15", "+15"),
        ("0", "0"),
        ("-15", "\u221215"),
        ("-30", "\u221230"),
    ]
    assert "Expected final margin (points)" in svg
    # the horizontal: positions of the replay, the first and round ones
    plies = re.findall(r'<text class="tick"[^>]*data-ply="(\d+)">(\d+)</text>', svg)
    assert [p for p, _ in plies] == [t for _, t in plies]
    assert [int(p) for p, _ in plies] == reviews._position_ticks(events)
    assert 3 <= len(plies) <= reviews.CHART_X_TICKS and plies[0][0] == "1"
    assert int(plies[-1][0]) <= events
    assert "Position in the replay (moves and draws)" in svg
    # each line starts at 0 and ends on its tick: +23 and −23 of a ±30 axis
    marks = dict(
        re.findall(
            r'<line [^>]*y1="([\d.]+)"[^>]*/>'
            r'<text class="tick"[^>]*data-value="(-?\d+)"',
            svg,
        )
    )
    y = {int(value): float(at) for at, value in marks.items()}
    lines = dict(
        re.findall(r'<polyline points="([^"]+)" class="seat-\d" data-seat="(\d)"', svg)
    )
    by_seat = {int(seat): points.split() for points, seat in lines.items()}
    scale = (y[-30] - y[30]) / 60
    for seat, sign in ((0, 1), (1, -1)):
        first, last = by_seat[seat][0], by_seat[seat][-1]
        assert float(first.split(",")[1]) == pytest.approx(y[0], abs=0.1)
        assert float(last.split(",")[1]) == pytest.approx(
            y[0] - sign * 23 * scale, abs=0.1
        )


def test_the_charts_axis_titles_are_translated(players):
    game = _imported(players[0], "classic", 5)
    _plant(game, [])
    GameReview.objects.filter(game=game).update(
        data={
            **GameReview.objects.get(game=game).data,
            "timeline": [[0.0, 0.0]] * game.moves.count(),
        }
    )
    response = Client().get(
        reverse("games:replay", args=[game.pk]),
        {"tab": "review"},
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    svg = response.content.decode().split('<figure class="review-chart">', 1)[1]
    assert "Cách biệt cuối ván dự kiến (điểm)" in svg
    assert "Bước trong phần xem lại (nước đi và lần rút)" in svg
    assert 'data-value="10">+10<' in svg  # the least reach: ±10 points


# The decision played among those weighed -------------------------------------


def test_the_decision_played_is_listed_when_not_among_the_three_best(players):
    """The task keeps the three best decisions weighed; the one played, when
    it is not among them, is listed fourth, marked played, worth the best's
    value less its loss."""
    game = _imported(players[0], "classic", 5)
    index, played, best = _find(game, Take, lambda m, p: m.source != p.source)
    engine = _before(game, index)
    others = [
        m
        for m in engine.legal_moves()
        if m not in (played, best) and isinstance(m, Take)
    ][:2]
    assert len(others) == 2
    _plant(
        game,
        [_decision(index, played, best, lost=6.24)],
        **{
            f"e{index}": [
                [best.to_event(), 3.0],
                [others[0].to_event(), 2.0],
                [others[1].to_event(), 0.5],
            ]
        },
    )
    words = [
        reviews.decision_words(game, engine, m.to_event())
        for m in (best, *others, played)
    ]
    expected = [
        (0.0, False, words[0]),
        (-1.0, False, words[1]),
        (-2.5, False, words[2]),
        (-6.24, True, words[3]),
    ]
    pattern = (
        r'<li data-value="([-\d.]+)"( data-played="true")?>([^<]+) '
        r'<span class="review-value">([^<]+)</span>(.*?)</li>'
    )
    # the decision's own step
    step = _replay(Client(), game, ply=index + 1)
    part = step.split('<div class="review-choices">', 1)[1].split("</ol>", 1)[0]
    rows = re.findall(pattern, part)
    assert [(float(v), bool(p), html.unescape(w)) for v, p, w, _, _ in rows] == expected
    assert [shown for *_, shown, _ in rows] == ["0.0", "-1.0", "-2.5", "-6.2"]
    assert "(played)" in rows[3][4] and "(best)" in rows[0][4]
    assert all("(played)" not in row[4] for row in rows[:3])
    # and where the best decision is drawn on the board (?best)
    page = _replay(Client(), game, ply=index, best="")
    part = page.split('<div class="review-choices">', 1)[1].split("</ol>", 1)[0]
    rows = re.findall(pattern, part)
    assert [(float(v), bool(p), html.unescape(w)) for v, p, w, _, _ in rows] == expected


def test_the_decision_played_among_the_best_is_not_listed_twice(players):
    game = _imported(players[0], "classic", 5)
    index, played, best = _find(game, Take, lambda m, p: m.source != p.source)
    _plant(
        game,
        [_decision(index, played, best, lost=1.4)],
        **{f"e{index}": [[best.to_event(), 3.0], [played.to_event(), 1.5]]},
    )
    step = _replay(Client(), game, ply=index + 1)
    part = step.split('<div class="review-choices">', 1)[1].split("</ol>", 1)[0]
    assert part.count("<li ") == 2 and part.count('data-played="true"') == 1
    assert '<li data-value="-1.5" data-played="true">' in part


# The progress line -------------------------------------------------------------


def test_only_a_page_without_javascript_is_told_to_reload(
    players, start_game, settings
):
    settings.REVIEW_SECONDS = 0.02
    game = resigned_game(players, start_game)
    url = reverse("games:replay", args=[game.pk])
    page = Client().get(url, {"tab": "review"}).content.decode()
    assert (
        "The review of this game is waiting for its turn.<noscript> "
        "Reload the page in a minute.</noscript>"
    ) in page
    GameReview.objects.filter(game=game).update(status="running", done=10, total=40)
    page = Client().get(url, {"tab": "review"}).content.decode()
    assert (
        "Analysing move 10 of 40.<noscript> "
        "Reload the page to see it when it is ready.</noscript>"
    ) in page
    # every "Reload" is inside a <noscript>
    panel = page.split('id="review-panel"', 1)[1].split("</section>", 1)[0]
    assert "Reload" not in re.sub(r"<noscript>.*?</noscript>", "", panel)


def test_a_loss_is_shown_with_its_uncertainty(players):
    """A decision's loss reads "6.2 ± 1.8" where the review is unsure of it
    (issue #34 item 2), on its step and where its best decision is drawn; a
    review stored without one shows the loss alone."""
    game = _imported(players[0], "classic", 5)
    index, played, best = _find(game, Take, lambda m, p: m.source != p.source)
    _plant(game, [{**_decision(index, played, best, lost=6.24), "spread": 1.81}])
    step = _replay(Client(), game, ply=index + 1)
    assert "expected points lost: 6.2 ± 1.8." in step
    assert 'data-lost="6.24" data-spread="1.81"' in step
    drawn = _replay(Client(), game, ply=index, best="")
    assert "(expected points lost: 6.2 ± 1.8)." in drawn
    vietnamese = Client().get(
        reverse("games:replay", args=[game.pk]),
        {"ply": index + 1},
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    assert "điểm dự kiến bị mất: 6,2 ± 1,8." in vietnamese.content.decode()

    GameReview.objects.filter(game=game).delete()
    _plant(game, [_decision(index, played, best, lost=6.24)])
    step = _replay(Client(), game, ply=index + 1)
    shown = step.split('<p class="review-step"', 1)[1].split("</p>", 1)[0]
    assert "expected points lost: 6.2." in shown and "±" not in shown


def test_each_players_story_adds_up_beside_the_result(players):
    """Expected at the start, plus luck, less own errors, plus the others':
    what the review expected, beside the result and the gap (issue #34 item 3)."""
    game = _imported(players[0], "classic", 5)
    _plant(game, [])
    data = GameReview.objects.get(game=game).data
    data["seats"] = [
        {
            "seat": 0,
            "lost": 16.4,
            "luck": 4.9,
            "accuracy": 93.2,
            "start": 0.3,
            "others": 23.5,
            "actual": 5.0,
        },
        {
            "seat": 1,
            "lost": 23.5,
            "luck": -4.9,
            "accuracy": 88.2,
            "start": -0.3,
            "others": 16.4,
            "actual": -5.0,
        },
    ]
    GameReview.objects.filter(game=game).update(data=data)
    page = _replay(Client(), game, ply=1, tab="review")
    stories = page.split('<ul class="review-stories">', 1)[1].split("</ul>", 1)[0]
    names = [seat.shown_name for seat in game.seats.order_by("number")]
    assert (
        f"<bdi>{names[0]}</bdi>: expected at the start +0.3, luck +4.9, own errors "
        "\u221216.4, the others’ errors +23.5; so +12.3 expected against the best "
        "other player, and the result was +5.0 (a gap of 7.3)."
    ) in html.unescape(stories)
    assert "the result was \u22125.0 (a gap of 7.3)" in html.unescape(stories)
    korean = Client().get(
        reverse("games:replay", args=[game.pk]),
        {"ply": 1, "tab": "review"},
        HTTP_ACCEPT_LANGUAGE="ko",
    )
    assert "결과는 +5.0였습니다 (차이 7.3)" in html.unescape(korean.content.decode())
    # a review stored before it had stories tells none
    GameReview.objects.filter(game=game).update(
        data={
            **data,
            "seats": [
                {k: v for k, v in s.items() if k not in ("start", "others", "actual")}
                for s in data["seats"]
            ],
        }
    )
    page = _replay(Client(), game, ply=1, tab="review")
    assert '<ul class="review-stories"></ul>' in page
