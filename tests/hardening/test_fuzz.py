"""Arbitrary query strings and form fields at every URL the site has: no answer
is a server error, and no game changes.

Every named URL is reversed with real arguments: the ids of a started, a
finished and an open game, both families' names, a player's name. Requests come
from an anonymous visitor, a signed-in spectator (GET and POST) and a player of
the started game (GET: the board's picks). Values include what broke the site
before — ``"²"``, 5,000 digits, 2**63, 9999-12-31, ``\\x00`` (PostgreSQL refuses
it: the site must cope, docs/stack.md pitfall 9) — beside hypothesis' own text. Lone
surrogates are left out: no HTTP request can carry one (the test client could not
even encode it). The test client re-raises any exception a view lets through.

Each draw goes to every route: four known-bad draws plus ``FUZZ_EXAMPLES``
(2) of hypothesis' per identity: about 880 requests in all.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chat.models import Message
from games import selectors, services
from games.engine import record
from games.models import Game, GameReview, Move, Seat

from ..games.helpers import move_event

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or 2)

FIELDS = [
    # the site's own parameters and form fields
    "page", "ply", "game", "group", "players", "player", "since", "until",
    "variant", "rated", "show", "expected_ply", "line", "column", "take",
    "space", "pass", "keep_red", "keep_blue", "wilds", "payment", "bonus",
    "next", "language", "action", "days", "invite", "days_per_move", "record",
    "username", "password", "password1", "password2", "email", "old_password",
    "new_password1", "new_password2", "email_turns", "csrfmiddlewaretoken",
    "text", "phrase", "on", "message", "token", "invite_link", "family",
]  # fmt: skip
ODD = [
    "²", "٣", "9" * 5000, str(2**63), str(2**63 - 1), "-1", "0", "00", "1e9",
    "9999-12-31", "0001-01-01", "2024-02-30", "\x00", "a\x00b", "center:red",
    "0:red", "²:red", "red-2", "floor", "true", "on", "", " ", "\u202e", "%00",
    "classic", "pavilion", "classic-grey", "//evil.example/", "/games/",
]  # fmt: skip

text = st.text(
    alphabet=st.characters(exclude_categories=("Cs",)), max_size=30
)  # \x00 included
value = st.one_of(st.sampled_from(ODD), text, st.integers().map(str))
fields = st.dictionaries(st.one_of(st.sampled_from(FIELDS), text), value, max_size=6)


@pytest.fixture
def world(make_user, start_game) -> dict[str, Any]:
    ana, binh, chloe, spectator = (
        make_user(n) for n in ("ana", "binh", "chloe", "spectator")
    )
    started = start_game([ana, binh])
    mover = started.seats.get(number=started.seat_to_move).user
    move = selectors.game_engine(started).legal_moves()[0]
    services.game_play_move(
        game_id=started.pk, user=mover, move=move_event(move), expected_ply=started.ply
    )
    engine = record.random_game("pavilion", 2, 3)
    finished = services.game_import(
        uploader=chloe, data=record.dumps(record.export(engine, ["Dae", "Eun"]))
    ).game
    open_game = services.game_create(
        creator=chloe,
        variant="classic",
        players=3,
        rated=False,
        invitees=[],
    )
    started.refresh_from_db()
    player = started.seats.get(number=started.seat_to_move).user
    return {
        "games": {"started": started, "finished": finished, "open": open_game},
        "spectator": spectator,
        "player": player,
        "ids": [started.pk, finished.pk, open_game.pk],
        "snapshot": _snapshot([started.pk, finished.pk, open_game.pk]),
    }


def _snapshot(ids: list[int]) -> tuple[list[Any], list[Any], int, int, int]:
    """The three games' rows, their seats, how many moves and chat messages
    they hold and how many reviews they have (a game the fuzz itself creates
    through the lobby does not count)."""
    return (
        list(Game.objects.filter(pk__in=ids).order_by("pk").values()),
        list(Seat.objects.filter(game_id__in=ids).order_by("pk").values()),
        Move.objects.filter(game_id__in=ids).count(),
        Message.objects.filter(game_id__in=ids).count(),
        GameReview.objects.filter(game_id__in=ids).count(),
    )


def _routes(world: dict[str, Any], *, writes: bool) -> list[tuple[str, str]]:
    """(method, path) for every named URL, with real arguments."""
    games = world["games"]
    ids = [g.pk for g in games.values()]
    name = world["player"].username
    get: list[str] = [
        reverse(n)
        for n in (
            "games:home", "games:turn_badge", "games:new", "games:archive",
            "games:import", "signup", "settings", "password_reset", "login",
            "password_change", "password_change_done", "password_reset_done",
            "password_reset_complete", "admin:index", "admin:login",
            "games:watch",
        )
    ]  # fmt: skip
    get += [
        reverse(n, args=[pk])
        for n in (
            "games:detail",
            "games:record",
            "games:replay",
            "chat:panel",
            "games:retry",
        )
        for pk in ids
    ]
    get += [
        reverse(n, args=[family])
        for n in ("games:leaderboard", "games:high_scores", "rules")
        for family in ("classic", "pavilion")
    ]
    get += [
        reverse("profile", args=[name]),
        reverse("password_reset_confirm", args=["MQ", "set-password"]),
        reverse("password_reset_confirm", args=["%00", "x-y"]),
        reverse("games:link", args=["no-such-invitation-link"]),
    ]
    routes = [("get", path) for path in get]
    if writes:
        posts = [
            reverse(n)
            for n in (
                "games:new", "games:import", "signup", "settings",
                "language_switch", "password_reset", "login", "password_change",
                "set_language",
            )
        ]  # fmt: skip
        posts += [reverse("games:move", args=[pk]) for pk in ids]
        posts += [
            reverse(n, args=[pk])
            for n in (
                "chat:post",
                "chat:switch",
                "chat:mute",
                "chat:report",
                "games:review_ask",
            )
            for pk in ids
        ]
        posts += [reverse(n, args=[name]) for n in ("player_follow", "player_unfollow")]
        posts += [reverse("games:link", args=["no-such-invitation-link"])]
        # Lobby actions on the games a spectator cannot join, leave or end (the
        # open game would rightly take a join): each must be refused.
        posts += [
            reverse(n, args=[games[key].pk])
            for n in (
                "games:join", "games:accept", "games:decline", "games:cancel",
                "games:resign",
            )
            for key in ("started", "finished")
        ]  # fmt: skip
        posts += [reverse("games:cancel", args=[games["open"].pk])]
        posts += [reverse("password_reset_confirm", args=["MQ", "set-password"])]
        routes += [("post", path) for path in posts]
    return routes


def _every_field(value: str) -> dict[str, str]:
    return dict.fromkeys(FIELDS, value)


# What broke the site before, in every field at once at every route; then
# hypothesis' own draws (each draw also goes to every route).
KNOWN = [
    _every_field("²"),
    _every_field("9" * 5000),
    {**_every_field("\x00"), "until": "9999-12-31", "since": "0001-01-01"},
    {**_every_field(str(2**63)), "group": "²:red", "space": "red-²"},
]


def _fuzz(world: dict[str, Any], user: Any, *, writes: bool) -> None:
    routes = _routes(world, writes=writes)
    client = Client()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
        database=None,
    )
    @given(query=fields, form=fields, htmx=st.booleans())
    @example(query=KNOWN[0], form=KNOWN[0], htmx=False)
    @example(query=KNOWN[1], form=KNOWN[1], htmx=True)
    @example(query=KNOWN[2], form=KNOWN[2], htmx=False)
    @example(query=KNOWN[3], form=KNOWN[3], htmx=True)
    def one(query: dict, form: dict, htmx: bool) -> None:
        headers = {"HX-Request": "true"} if htmx else {}
        for method, path in routes:
            if user is not None:
                client.force_login(user)  # a fuzzed POST may have logged out
            if method == "get":
                response = client.get(path, query, headers=headers)
            else:
                response = client.post(
                    f"{path}?{urlencode(query)}", form, headers=headers
                )
            assert response.status_code < 500, (method, path, query, form)
            assert _snapshot(world["ids"]) == world["snapshot"], (method, path, query)

    one()


@pytest.mark.django_db
def test_fuzz_anonymous(world):
    _fuzz(world, None, writes=True)


@pytest.mark.django_db
def test_fuzz_signed_in_spectator(world):
    _fuzz(world, world["spectator"], writes=True)


@pytest.mark.django_db
def test_fuzz_player_reads(world):
    _fuzz(world, world["player"], writes=False)
