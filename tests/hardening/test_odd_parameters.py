"""Ordinary-looking odd input gets a 4xx or is ignored, never a server error.

``str.isdigit()`` accepts ``"²"``, ``int()`` refuses 5,000 digits, 9999-12-31 plus
a day overflows, SQLite and PostgreSQL hold no id of 2**63, PostgreSQL refuses
``\\x00`` and no database stores a lone surrogate. The test client re-raises any
exception a view lets through, so each case below failed with one before.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import services
from games.engine import record
from games.models import Game

SQUARED = "²"
LONG = "9" * 5000
TOO_BIG = str(2**63)

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(players, start_game):
    return start_game(players[:2])


@pytest.fixture
def open_game(players):
    return services.game_create(
        creator=players[2],
        variant="classic",
        players=2,
        rated=False,
        invitees=[],
    )


@pytest.mark.parametrize(
    "url, query",
    [
        ("games:archive", {"page": SQUARED}),
        ("games:archive", {"page": LONG}),
        ("games:archive", {"page": "-3"}),
        ("games:archive", {"older": "99999999999999999.999999999999999999"}),
        ("games:archive", {"newer": LONG}),
        ("games:archive", {"older": "0.0", "show": "ongoing"}),
        ("games:archive", {"newer": SQUARED, "older": "1.1"}),
        ("games:archive", {"until": "9999-12-31"}),
        ("games:archive", {"since": "0001-01-01", "until": "0001-01-01"}),
        ("games:archive", {"since": "9999-12-31", "show": "ongoing"}),
        ("games:archive", {"players": SQUARED}),
        ("games:archive", {"player": "\x00"}),
        ("games:home", {"page": SQUARED}),
        ("games:turn_badge", {"game": SQUARED}),
        ("games:turn_badge", {"game": LONG}),
        ("games:turn_badge", {"game": TOO_BIG}),
        ("games:turn_badge", {"game": "-1"}),
    ],
)
def test_odd_query_on_site_pages(url, query, players, client_for):
    response = client_for(players[0]).get(reverse(url), query)
    assert response.status_code == 200


@pytest.mark.parametrize(
    "query",
    [{"page": SQUARED}, {"page": LONG}, {"page": "0"}, {"players": SQUARED}],
)
@pytest.mark.parametrize("url", ["games:leaderboard", "games:high_scores"])
def test_odd_query_on_leaderboards(url, query, client):
    assert client.get(reverse(url, args=["classic"]), query).status_code == 200


@pytest.mark.parametrize(
    "query",
    [
        {"group": f"{SQUARED}:red"},
        {"group": f"{LONG}:red"},
        {"group": "٣:red"},  # an Arabic-Indic three
        {"group": "\x00:red"},
        {"ply": SQUARED},
    ],
)
def test_odd_pick_on_a_classic_board(query, started, players, client_for):
    seat = started.seats.get(number=started.seat_to_move)
    url = reverse("games:detail", args=[started.pk])
    response = client_for(seat.user).get(url, query)
    assert response.status_code == 200
    assert response.context["board"]["my_turn"]


@pytest.mark.parametrize(
    "query",
    [
        {"take": SQUARED},
        {"space": f"red-{SQUARED}"},
        {"pass": "1", "keep_red": SQUARED},
        {"pass": "1", "keep_red": LONG},
    ],
)
def test_odd_pick_on_a_pavilion_board(query, players, start_game, client_for):
    game = start_game(players[:2], variant="pavilion")
    seat = game.seats.get(number=game.seat_to_move)
    url = reverse("games:detail", args=[game.pk])
    assert client_for(seat.user).get(url, query).status_code == 200


@pytest.mark.parametrize("ply", [SQUARED, LONG, "-1", "99999"])
def test_odd_replay_ply(ply, started, client):
    response = client.get(reverse("games:replay", args=[started.pk]), {"ply": ply})
    assert response.status_code == 200
    assert response.context["replay"].ply == started.ply  # the last position


GAME_URLS = [
    ("get", "games:detail"),
    ("get", "games:record"),
    ("get", "games:replay"),
    ("post", "games:move"),
    ("post", "games:join"),
    ("post", "games:accept"),
    ("post", "games:decline"),
    ("post", "games:cancel"),
    ("post", "games:resign"),
]


@pytest.mark.parametrize("game_id", [TOO_BIG, "9" * 30, "0", "00", SQUARED])
@pytest.mark.parametrize("method, name", GAME_URLS)
def test_game_ids_no_row_can_have_are_not_found(
    method, name, game_id, players, client_for
):
    path = reverse(name, args=[1]).replace("/1/", f"/{game_id}/", 1)
    client = client_for(players[0])
    response = getattr(client, method)(path, {"expected_ply": "0"})
    assert response.status_code == 404


def test_converters_still_reverse_real_ids(started):
    assert reverse("games:detail", args=[started.pk]) == f"/games/{started.pk}/"
    assert reverse("games:detail", args=[2**63 - 1]) == f"/games/{2**63 - 1}/"


@pytest.mark.parametrize("name", ["%00", "a%00b", "%1F", "%C2%85"])
def test_profile_of_a_name_with_control_characters_is_not_found(name, client):
    assert client.get(f"/accounts/players/{name}/").status_code == 404


def test_profile_of_a_real_name_still_found(players, client):
    response = client.get(reverse("profile", args=[players[1].username]))
    assert response.status_code == 200


def test_imported_names_lose_nul_and_lone_surrogates(players, client_for):
    engine = record.random_game("classic", 3, 4)
    data = record.export(engine, ["A\x00na", "\ud800", "민\udfff지\x07"])
    text = json.dumps(data)  # ASCII: the surrogates travel as \ud800 escapes
    upload = SimpleUploadedFile("game.json", text.encode(), "application/json")
    response = client_for(players[0]).post(reverse("games:import"), {"record": upload})
    assert response.status_code == 302
    game = Game.objects.get(imported=True)
    names = [seat.name for seat in game.seats.order_by("number")]
    assert names == ["Ana", "Player 2", "민지"]
    page = client_for(players[0]).get(reverse("games:replay", args=[game.pk]))
    assert page.status_code == 200


@pytest.mark.parametrize("action", ["games:move", "games:resign"])
def test_htmx_action_on_a_game_that_never_started(action, open_game, client_for):
    creator = open_game.seats.get(number=0).user
    response = client_for(creator).post(
        reverse(action, args=[open_game.pk]),
        {"expected_ply": "0", "group": "0:red", "line": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and "<body" not in html
    assert html.lstrip().startswith('<div id="board"')
    assert 'role="alert"' in html and "not in progress" in html


def test_log_in_with_a_username_too_long_for_any_account(client, players):
    from axes.models import AccessAttempt

    response = client.post(
        reverse("login"), {"username": "a" * 5000, "password": "whatever-1"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not AccessAttempt.objects.exists()  # nothing of 5,000 characters stored
