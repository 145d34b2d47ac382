"""Archive filters, record import and export, fill_games, leaderboards, pages."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import Count
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import fill, selectors, services
from games.engine import record
from games.engine.classic import COLOURS as CLASSIC_COLOURS
from games.engine.pavilion import COLOURS as PAVILION_COLOURS
from games.models import Game, Move, PlayerStats, RatingChange, Seat
from games.ratings.ratings import (
    PROVISIONAL_GAMES,
    rating_points,
    ratings_update_for_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def filled():
    out = StringIO()
    call_command("fill_games", 40, players=6, seed=3, days=200, stdout=out)
    assert "40 games" in out.getvalue()
    return out.getvalue()


def _archive_ids(**filters):
    archive = selectors.game_archive(filters=selectors.ArchiveFilters(**filters))
    return [g.pk for g in archive]


# ------------------------------------------------------------------ fill_games


def test_fill_games_stores_complete_replayable_games(filled):
    games = list(Game.objects.all())
    assert len(games) == 40
    assert {g.status for g in games} == {Game.Status.FINISHED}
    for game in games:
        engine = selectors.game_engine_from_moves(game)
        if game.end_reason == Game.EndReason.RESIGNED:
            assert not engine.is_over()
            continue
        assert engine.is_over()
        assert Move.objects.filter(game=game).count() == game.ply
        seats = list(game.seats.order_by("number"))
        assert [s.score for s in seats] == list(engine.outcome().scores)
        assert [s.rank for s in seats] == list(engine.outcome().ranks)
        assert all(s.user_id for s in seats)
    # totals agree with the seats, ratings with the rated games
    for stats in PlayerStats.objects.all():
        mine = Seat.objects.filter(
            user=stats.user, game__variant__startswith=stats.family
        )
        assert stats.games == mine.count()
        assert stats.wins == mine.filter(rank=1).count()
        assert stats.rated_games == mine.filter(game__rated=True).count()
        assert (
            stats.rated_games
            == RatingChange.objects.filter(user=stats.user, family=stats.family).count()
        )


def test_fill_ratings_equal_what_the_site_computes(filled):
    """Recount every game through game_finish's own rating step, in finishing
    order, and get the very totals and ratings fill_games stored."""
    fields = ["games", "wins", "score_sum", "best_score", "rated_games", "mu"]
    fields += ["sigma", "ordinal", "last_rated_at", "rated_best_score"]
    stored = {
        (s.user_id, s.family): [getattr(s, f) for f in fields]
        for s in PlayerStats.objects.all()
    }
    changes = list(RatingChange.objects.values_list("game_id", "user_id", "mu"))
    assert len(stored) > 6 and len(changes) > 40
    PlayerStats.objects.all().delete()
    RatingChange.objects.all().delete()
    for game in Game.objects.order_by("finished_at", "pk"):
        ratings_update_for_game(game=game)
    again = {
        (s.user_id, s.family): [getattr(s, f) for f in fields]
        for s in PlayerStats.objects.all()
    }
    assert again == stored
    assert sorted(RatingChange.objects.values_list("game_id", "user_id", "mu")) == (
        sorted(changes)
    )


def test_fill_games_look_like_real_games():
    games = [fill.play("classic", 2 + n % 3, n) for n in range(30)]
    scores = [score for game in games for score in game.scores]
    assert sum(scores) / len(scores) > 30  # random play averages ~10
    pavilion = [fill.play("pavilion-grey", 3, n) for n in range(10)]
    scores = [score for game in pavilion for score in game.scores]
    assert sum(scores) / len(scores) > 35
    resigned = next(
        game
        for game in (fill.play("classic", 3, n) for n in range(300))
        if game.resigned is not None
    )
    # as game_finish ranks a resignation: the others by score, the resigner last
    assert resigned.ranks[resigned.resigned] == 3
    others = [s for s in range(3) if s != resigned.resigned]
    a, b = sorted(others, key=lambda s: resigned.ranks[s])
    assert resigned.scores[a] >= resigned.scores[b]


def test_fill_games_in_worker_processes_stores_the_same_games():
    call_command("fill_games", 12, players=5, seed=9, jobs=2, stdout=StringIO())
    parallel = [
        (g.variant, g.ply, [s.score for s in g.seats.order_by("number")])
        for g in Game.objects.order_by("pk")
    ]
    Game.objects.all().delete()
    call_command("fill_games", 12, players=5, seed=9, jobs=1, stdout=StringIO())
    serial = [
        (g.variant, g.ply, [s.score for s in g.seats.order_by("number")])
        for g in Game.objects.order_by("pk")
    ]
    assert parallel == serial and len(serial) == 12


# --------------------------------------------------------------------- archive


def test_archive_filters(filled, players):
    games = list(Game.objects.prefetch_related("seats__user"))
    newest_first = sorted(games, key=lambda g: (g.finished_at, g.pk), reverse=True)
    assert _archive_ids() == [g.pk for g in newest_first]
    someone = games[0].seats.all()[0].user
    assert _archive_ids(player=someone) == [
        g.pk for g in newest_first if any(s.user == someone for s in g.seats.all())
    ]
    assert _archive_ids(variant="classic-grey") == [
        g.pk for g in newest_first if g.variant == "classic-grey"
    ]
    assert _archive_ids(family="pavilion") == [
        g.pk for g in newest_first if g.variant.startswith("pavilion")
    ]
    assert _archive_ids(variant="pavilion") == [
        g.pk for g in newest_first if g.variant == "pavilion"
    ]
    assert _archive_ids(players=3) == [g.pk for g in newest_first if g.players == 3]
    assert _archive_ids(rated=False) == [g.pk for g in newest_first if not g.rated]
    middle = newest_first[len(newest_first) // 2].finished_at.date()
    assert _archive_ids(since=middle, until=middle) == [
        g.pk for g in newest_first if g.finished_at.date() == middle
    ]
    assert _archive_ids(ongoing=True) == []
    assert _archive_ids(imported=True) == []


def test_archive_page_filters_and_paginates(filled, client):
    url = reverse("games:archive")
    response = client.get(url, {"variant": "classic", "rated": "yes"})
    assert response.status_code == 200
    shown = [g.pk for g in response.context["games"]]
    assert shown == _archive_ids(variant="classic", rated=True)[:25]
    page1 = client.get(url)
    older = page1.context["page"].older
    assert page1.context["page"].newer is None and older is not None
    html = page1.content.decode()
    assert f'href="?older={older.token}" rel="next"' in html
    assert 'rel="prev"' not in html and 'rel="first"' not in html
    page2 = client.get(url, {"older": older.token})
    assert page2.context["page"].older is None
    newest = _archive_ids()
    assert [g.pk for g in page1.context["games"]] == newest[:25]
    assert [g.pk for g in page2.context["games"]] == newest[25:40]
    # back from the second page: the newer link shows the first page again
    newer = page2.context["page"].newer
    back = client.get(url, {"newer": newer.token})
    assert [g.pk for g in back.context["games"]] == newest[:25]
    assert back.context["page"].newer is None
    assert back.context["page"].older == older
    html = page2.content.decode()
    assert f'href="?newer={newer.token}" rel="prev"' in html
    assert 'href="?" rel="first"' in html
    # a cursor that is not one shows the newest page
    for odd in ("x", "1.2.3", "9" * 40, "-5.1"):
        shown = client.get(url, {"older": odd})
        assert [g.pk for g in shown.context["games"]] == newest[:25]
    # an unknown player is a form error, not a crash, and lists no game
    unknown = client.get(url, {"player": "nobody-here"})
    assert unknown.status_code == 200
    assert unknown.context["form"].errors["player"] == [
        "No player is called nobody-here."
    ]
    assert list(unknown.context["games"]) == []
    assert client.get(url, {"page": "x"}).status_code == 200


# ------------------------------------------------------------- import / export


def _record_text(variant="classic", players=3, seed=4, cut=None):
    engine = record.random_game(variant, players, seed)
    data = record.export(engine, ["Ana", "Bình", "민지"][:players])
    if cut is not None:
        data["events"] = data["events"][:cut]
        data.pop("result")
    return json.dumps(data, ensure_ascii=False), engine


@pytest.mark.parametrize("variant", ["classic-grey", "pavilion"])
def test_import_round_trip(players, client_for, variant):
    text, engine = _record_text(variant)
    client = client_for(players[0])
    upload = SimpleUploadedFile("game.json", text.encode(), "application/json")
    response = client.post(reverse("games:import"), {"record": upload})
    game = Game.objects.get(imported=True)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:replay", args=[game.pk])
    assert not game.rated and game.status == Game.Status.FINISHED
    seats = list(game.seats.order_by("number"))
    assert [s.name for s in seats] == ["Ana", "Bình", "민지"]
    assert all(s.user is None for s in seats)
    assert [s.score for s in seats] == list(engine.outcome().scores)
    exported = json.loads(client.get(reverse("games:record", args=[game.pk])).content)
    assert exported == json.loads(text)
    replay = client.get(reverse("games:replay", args=[game.pk]), {"ply": 25})
    assert replay.status_code == 200 and replay.context["replay"].ply == 25
    # the rest of the site ignores it
    assert not PlayerStats.objects.exists()
    assert _archive_ids() == [] and _archive_ids(imported=True) == [game.pk]
    assert {s.score_table for s in seats} == {""}
    family = "pavilion" if variant == "pavilion" else "classic"
    assert not selectors.high_scores(family=family, players=3).exists()


def test_import_unfinished_record(players):
    text, _engine = _record_text(cut=30)
    game = services.game_import(uploader=players[0], data=text).game
    assert game.status == Game.Status.ACTIVE and game.ply == 30
    assert game.seat_to_move is None and game.turn_deadline is None
    with pytest.raises(services.GameActionError):
        services.game_play_move(
            game_id=game.pk, user=players[0], move={}, expected_ply=30
        )


def test_importing_a_record_again_points_to_the_first_import(players, client_for):
    text, _engine = _record_text()
    first = client_for(players[0]).post(
        reverse("games:import"),
        {"record": SimpleUploadedFile("game.json", text.encode())},
        follow=True,
    )
    game = Game.objects.get()
    assert first.redirect_chain[-1][0] == reverse("games:replay", args=[game.pk])
    # Someone else uploads the same record, reformatted: no second game.
    again = client_for(players[1]).post(
        reverse("games:import"),
        {
            "record": SimpleUploadedFile(
                "copy.json", json.dumps(json.loads(text), indent=2).encode()
            )
        },
        follow=True,
    )
    assert again.redirect_chain[-1][0] == reverse("games:replay", args=[game.pk])
    assert [str(m) for m in again.context["messages"]] == [
        f"This record was imported before, as game {game.pk}."
    ]
    assert Game.objects.count() == 1
    assert Move.objects.count() == game.ply


def _import_error(client, data) -> str:
    upload = SimpleUploadedFile("bad.json", json.dumps(data).encode())
    response = client.post(reverse("games:import"), {"record": upload})
    assert response.status_code == 200
    return response.context["form"].errors["record"][0]


def test_invalid_record_names_the_event_and_changes_nothing(players, client_for):
    text, _engine = _record_text()
    data = json.loads(text)
    data["events"][5]["colour"] = "pink"
    client = client_for(players[0])
    # the sixth event is the replay's move 6
    assert _import_error(client, data) == (
        "This record cannot be imported. Move 6: "
        "That move is not possible: there is no such colour."
    )
    assert not Game.objects.exists() and not Move.objects.exists()
    for bad, why in [
        (b"{not json", "not valid JSON"),
        (b'{"format": "x"}', '"format" must be "azul-record"'),
    ]:
        upload = SimpleUploadedFile("bad.json", bad)
        response = client.post(reverse("games:import"), {"record": upload})
        error = response.context["form"].errors["record"][0]
        assert error.startswith(f"This record cannot be imported: {why}")
    assert not Game.objects.exists()


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_an_import_error_counts_moves_and_factories_from_one(
    players, client_for, variant
):
    """The first take, changed to one from the first factory of a colour it does
    not hold: the player reads the move's number and factory 1, as the replay
    and the board number them (the record counts both from 0)."""
    text, _engine = _record_text(variant, players=2)
    data = json.loads(text)
    index, take = next((i, e) for i, e in enumerate(data["events"]) if "from" in e)
    before = record.new_game(variant, 2, data["first_seat"])
    for event in data["events"][:index]:
        before.apply_event(event)
    colours = {"classic": CLASSIC_COLOURS, "pavilion": PAVILION_COLOURS}[variant]
    wild = getattr(before, "wild", None)
    missing = next(
        name
        for number, name in enumerate(colours)
        if not before.factories[0][number] and number != wild
    )
    data["events"][index] = {**take, "from": 0, "colour": missing}
    reason = {
        "classic": f"Factory 1 has no {missing} tiles.",
        "pavilion": f"There is no {missing} on factory 1.",
    }[variant]
    assert _import_error(client_for(players[0]), data) == (
        f"This record cannot be imported. Move {index + 1}: {reason}"
    )
    assert not Game.objects.exists()


def test_an_import_error_reads_in_the_players_language(players, client_for):
    text, _engine = _record_text("classic", players=2)
    data = json.loads(text)
    index = next(i for i, e in enumerate(data["events"]) if "from" in e)
    data["events"][index]["from"] = 7  # two players: factories 1 to 5
    players[0].language = "vi"
    players[0].save()
    assert _import_error(client_for(players[0]), data) == (
        f"Không thể nhập biên bản này. Nước {index + 1}: "
        "Không thể đi nước đó: không có nhà máy này."
    )


def test_import_needs_a_login(client):
    response = client.get(reverse("games:import"))
    assert response.status_code == 302


# ----------------------------------------------------- leaderboards, profiles


def _stats(user, family="classic", *, rated_games, days_ago=1, ordinal=10.0):
    return PlayerStats.objects.create(
        user=user,
        family=family,
        mu=ordinal + 9,
        sigma=3,
        ordinal=ordinal,
        rated_games=rated_games,
        rated_wins=rated_games // 2,
        rated_best_score=70,
        games=rated_games,
        wins=rated_games // 2,
        score_sum=50 * rated_games,
        best_score=70,
        last_rated_at=timezone.now() - timedelta(days=days_ago),
    )


def test_leaderboard_eligibility_and_order(players, client):
    ana, binh, chloe, dae = players
    _stats(ana, rated_games=PROVISIONAL_GAMES, ordinal=12)
    _stats(binh, rated_games=30, ordinal=20)
    _stats(chloe, rated_games=PROVISIONAL_GAMES - 1, ordinal=30)  # provisional
    _stats(dae, rated_games=50, ordinal=40, days_ago=91)  # inactive
    _stats(dae, "pavilion", rated_games=50, ordinal=5)
    response = client.get(reverse("games:leaderboard", args=["classic"]))
    rows = response.context["rows"]
    assert [(rank, s.user.username) for rank, s in rows] == [(1, "binh"), (2, "ana")]
    assert "50%" in response.content.decode()
    pavilion = client.get(reverse("games:leaderboard", args=["pavilion"]))
    assert [s.user.username for _r, s in pavilion.context["rows"]] == ["dae"]
    assert client.get("/leaderboard/chess/").status_code == 404


def test_high_scores_per_family_and_player_count(filled, client):
    response = client.get(
        reverse("games:high_scores", args=["pavilion"]), {"players": "3"}
    )
    seats = list(response.context["seats"])
    expected = sorted(
        Seat.objects.filter(
            game__variant__startswith="pavilion", game__players=3
        ).values_list("score", flat=True),
        reverse=True,
    )[:20]
    assert [s.score for s in seats] == expected


def test_a_game_finished_on_the_site_enters_its_high_score_table(players, start_game):
    game = start_game(players[:3], variant="pavilion-grey")
    assert not selectors.high_scores(family="pavilion", players=3).exists()
    services.game_resign(game_id=game.pk, user=players[1])  # the others play on
    services.game_resign(game_id=game.pk, user=players[2])  # one left: it ends
    seats = list(game.seats.order_by("number"))
    assert {s.score_table for s in seats} == {"pavilion-3"}
    listed = selectors.high_scores(family="pavilion", players=3)
    assert sorted(s.pk for s in listed) == sorted(s.pk for s in seats)
    assert not selectors.high_scores(family="pavilion", players=2).exists()
    assert not selectors.high_scores(family="classic", players=3).exists()


def test_profile_shows_rating_chart_and_totals(filled, client):
    stats = PlayerStats.objects.filter(rated_games__gt=0).first()
    response = client.get(reverse("profile", args=[stats.user.username]))
    html = response.content.decode()
    assert response.status_code == 200
    # One point of the chart per rated game, the last at the current rating.
    chart = html[html.index(f'id="chart-{stats.family}-t"') :]
    points = re.search(r'<polyline points="([^"]+)"', chart).group(1).split()
    assert len(points) == stats.rated_games
    assert f"{rating_points(stats.mu)} after the latest" in chart
    assert reverse("games:archive") + f"?player={stats.user.username}" in html


def test_profile_lists_the_players_newest_games_first(filled, client):
    """A player's finished games on their profile: the twenty newest, newest
    first (read in the order of the seat's (user, game) index)."""
    seat = (
        Seat.objects.filter(user__isnull=False, game__status=Game.Status.FINISHED)
        .values("user")
        .annotate(n=Count("id"))
        .order_by("-n")[0]
    )
    user = User.objects.get(pk=seat["user"])
    response = client.get(reverse("profile", args=[user.username]))
    shown = [g.pk for g in response.context["finished_games"]]
    newest = list(
        Game.objects.filter(seats__user=user, status=Game.Status.FINISHED)
        .order_by("-created_at", "-id")
        .values_list("pk", flat=True)[:20]
    )
    assert len(shown) == min(20, seat["n"]) > 1
    assert shown == newest


def test_rating_chart_draws_the_latest_games_only(filled):
    """A player of thousands of games gets a chart of their latest ones
    (``RATING_HISTORY_GAMES``): the window's end is the current rating."""
    stats = PlayerStats.objects.filter(rated_games__gt=3).order_by("-rated_games")[0]
    everything = list(
        RatingChange.objects.filter(user=stats.user, family=stats.family).order_by(
            "created_at", "id"
        )
    )
    window = selectors.rating_history(user=stats.user, family=stats.family, latest=3)
    assert [c.id for c in window] == [c.pk for c in everything[-3:]]
    assert window[-1].mu == stats.mu
    assert len(selectors.rating_history(user=stats.user, family=stats.family)) == (
        min(len(everything), selectors.RATING_HISTORY_GAMES)
    )


def test_finished_game_page_shows_statistics(filled, client):
    game = Game.objects.filter(variant="classic").first()
    response = client.get(reverse("games:detail", args=[game.pk]))
    statistics = response.context["statistics"]
    labels = [label for label, _values in statistics["rows"]]
    assert "Row bonus" in labels and "Colours completed" in labels
    scores = dict(statistics["rows"])["Score"]
    assert scores == [s.score for s in game.seats.order_by("number")]


def test_replay_page_steps_and_partial(filled, client):
    game = Game.objects.filter(variant="pavilion").first()
    url = reverse("games:replay", args=[game.pk])
    last = client.get(url)
    assert last.context["replay"].ply == game.ply
    first = client.get(url, {"ply": 0})
    assert first.context["replay"].ply == 0 and first.context["previous_ply"] == 0
    middle = client.get(url, {"ply": 7}, headers={"HX-Request": "true"})
    html = middle.content.decode()
    assert middle.context["next_ply"] == 8
    assert html.lstrip().startswith('<div id="replay"') and "<html" not in html
    assert client.get(url, {"ply": 10**6}).context["replay"].ply == game.ply
    assert client.get(url, {"ply": "-3"}).context["replay"].ply == game.ply


def test_imported_names_are_isolated_from_the_text_around_them(players, client):
    """A right-to-left mark in a record's name cannot reorder the row it is in."""
    engine = record.random_game("classic", 2, 4)
    name = "\u202eevil"  # RIGHT-TO-LEFT OVERRIDE, then text
    game = services.game_import(
        uploader=players[0],
        data=record.dumps(record.export(engine, [name, "Ana"])),
    ).game
    for url in [
        reverse("games:replay", args=[game.pk]),
        reverse("games:archive") + "?show=imported",
    ]:
        html = client.get(url).content.decode()
        assert f"<bdi>{name}</bdi>" in html, url
        # Everywhere else (the log, headings) it sits between Unicode isolates.
        rest = html.replace(f"<bdi>{name}</bdi>", "").replace(f"\u2068{name}\u2069", "")
        assert name not in rest, url


def test_archive_game_filter_tells_each_variant_from_its_family(filled, client):
    """The coloured wall lists only coloured-wall games; "Azul" lists both
    walls. Each option of the select has its own value."""
    url = reverse("games:archive")
    variants = dict(Game.objects.values_list("pk", "variant"))
    assert {"classic", "classic-grey"} <= set(variants.values())
    form = client.get(url).context["form"]
    values = [value for value, _label in form.fields["variant"].choices]
    assert len(values) == len(set(values))

    def listed(value: str) -> set[str]:
        shown = set()
        query = {"variant": value}
        while True:
            response = client.get(url, query)
            shown |= {variants[g.pk] for g in response.context["games"]}
            older = response.context["page"].older
            if older is None:
                return shown
            query = {"variant": value, "older": older.token}

    assert listed("classic") == {"classic"}
    assert listed("classic-grey") == {"classic-grey"}
    assert listed("classic-all") == {"classic", "classic-grey"}
    assert listed("pavilion-all") == {
        v for v in variants.values() if v.startswith("pavilion")
    }
    rows = client.get(url, {"variant": "classic"}).content.decode()
    assert 'value="classic" selected' in rows


@pytest.mark.parametrize(
    "language, newest, newer",
    [
        ("vi", "Mới nhất", "Mới hơn"),
        ("ko", "가장 최근", "최신"),
        ("pt-br", "Mais recentes de todas", "Mais recentes"),
    ],
)
def test_the_archive_pager_in_the_players_language(filled, language, newest, newer):
    """The second (and last) page's links, to the newest games and to the
    newer page, in the reader's language, each pointing where it says."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    url = reverse("games:archive")
    first = client.get(url).context["page"]
    second = client.get(url, {"older": first.older.token})
    links = {
        rel: (href, text)
        for href, rel, text in re.findall(
            r'<a\s+href="\?([^"]*)" rel="(\w+)">([^<]+)</a>',
            html.unescape(second.content.decode()),
        )
    }
    assert links == {
        "first": ("", newest),
        "prev": (f"newer={second.context['page'].newer.token}", newer),
    }
