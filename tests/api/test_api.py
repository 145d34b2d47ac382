"""The API (issue #39, docs/api.md) through Django's test client: tokens
(forged, revoked, expired, a session cookie: 401), scopes and someone else's
game (403), a challenge accepted and a whole game played by two programs,
a stale ply (409), an illegal move and a body that does not read (422), an
``Idempotency-Key`` answered twice without playing twice, one request at a
time and the minute's cap (429 with ``Retry-After``), the event log."""

from __future__ import annotations

import io
import json
import random
from datetime import timedelta

import pytest
from django.core.management import call_command

from api import services
from api.api import api
from api.models import ApiToken
from games import clock
from games.models import Game, Move

ALL = ["game:read", "game:play", "challenge:write"]


@pytest.fixture
def players(make_user):
    ana, binh = make_user("ana"), make_user("binh")
    return (
        (ana, services.token_create(user=ana, name="bot", scopes=ALL)[1]),
        (binh, services.token_create(user=binh, name="bot", scopes=ALL)[1]),
    )


def call(client, method, path, token=None, body=None, **headers):
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    if body is not None:
        return getattr(client, method)(
            path, data=json.dumps(body), content_type="application/json", **headers
        )
    return getattr(client, method)(path, **headers)


def test_who_am_i_and_the_tokens_that_do_not_count(client, players, make_user):
    (ana, token), _other = players
    answer = call(client, "get", "/api/account", token)
    assert answer.status_code == 200
    assert answer.json() == {"name": "ana", "bot": False, "ratings": []}
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for bad in ("", "azul_nothing", forged, "Basic abc"):
        answer = call(client, "get", "/api/account", bad or None)
        assert answer.status_code == 401
        assert "Bearer" in answer.json()["error"]
    # a session cookie does not authenticate the API
    client.force_login(ana)
    assert call(client, "get", "/api/account").status_code == 401
    # revoked, expired
    row = ApiToken.objects.get(prefix=token[:12])
    assert services.token_revoke(token_id=row.pk, user=ana)
    assert call(client, "get", "/api/account", token).status_code == 401
    _row, later = services.token_create(
        user=ana, name="brief", scopes=ALL, expires_at=clock.now() + timedelta(hours=1)
    )
    assert call(client, "get", "/api/account", later).status_code == 200
    ApiToken.objects.filter(digest=services.digest(later)).update(
        expires_at=clock.now() - timedelta(seconds=1)
    )
    assert call(client, "get", "/api/account", later).status_code == 401
    # only the digest is kept
    assert not ApiToken.objects.filter(digest=later).exists()
    assert ApiToken.objects.get(digest=services.digest(later)).prefix == later[:12]


def _play_to_the_end(client, game_id, tokens, rng):
    """Both programs play the game through the API alone: each reads the
    game, and the one whose turn it is plays one of its legal moves."""
    for _ in range(400):
        for token in tokens:
            state = call(client, "get", f"/api/games/{game_id}", token).json()
            if state["status"] == "finished":
                return state
            if state["legal_moves"]:
                move = rng.choice(state["legal_moves"])
                answer = call(
                    client,
                    "post",
                    f"/api/games/{game_id}/moves",
                    token,
                    {"ply": state["ply"], "move": move},
                )
                assert answer.status_code == 200, answer.json()
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)  # the events are logged after commit
def test_a_challenge_accepted_and_a_whole_game_played(client, players):
    (ana, ana_token), (binh, binh_token) = players
    answer = call(
        client,
        "post",
        "/api/challenges",
        ana_token,
        {"variant": "classic", "players": 2, "invite": ["binh"], "clock": "fast"},
    )
    assert answer.status_code == 200, answer.json()
    game_id = answer.json()["id"]
    assert answer.json()["game"]["status"] == "open"
    # binh's program sees the challenge in its events, and accepts it
    events = call(client, "get", "/api/events", binh_token).json()
    assert [e["type"] for e in events["events"]] == ["challenge"]
    assert events["events"][0]["data"] == {"game": game_id}
    answer = call(client, "post", f"/api/challenges/{game_id}/accept", binh_token)
    assert answer.status_code == 200
    state = answer.json()["game"]
    assert state["status"] == "active"
    assert [s["name"] for s in state["seats"]] == ["ana", "binh"]
    # Fast: 3 days each, the seat to move's running since the start
    banks = [s["bank_seconds"] for s in state["seats"]]
    assert banks[1 - state["to_move"]] == 3 * 86400
    assert 3 * 86400 - 60 < banks[state["to_move"]] <= 3 * 86400
    final = _play_to_the_end(client, game_id, [ana_token, binh_token], random.Random(2))
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    assert final["record"]["result"]["scores"] == [
        s.score for s in game.seats.order_by("number")
    ]
    assert final["legal_moves"] == []
    # every decision stored once, by the right player
    decisions = Move.objects.filter(game=game, event__has_key="seat", auto=False)
    assert decisions.exclude(user__in=[ana, binh]).count() == 0
    # the events the programs read: their turns, the start and the end
    kinds = [
        e["type"]
        for e in call(client, "get", "/api/events", ana_token).json()["events"]
    ]
    assert "yourTurn" in kinds and kinds[-1] == "gameFinish"


@pytest.fixture
def game(client, players):
    (_ana, ana_token), (_binh, binh_token) = players
    game_id = call(
        client,
        "post",
        "/api/challenges",
        ana_token,
        {"variant": "classic", "players": 2, "invite": ["binh"]},
    ).json()["id"]
    call(client, "post", f"/api/challenges/{game_id}/accept", binh_token)
    state = call(client, "get", f"/api/games/{game_id}", ana_token).json()
    mover = ana_token if state["legal_moves"] else binh_token
    waiter = binh_token if mover == ana_token else ana_token
    return game_id, mover, waiter


def test_stale_illegal_unreadable_and_out_of_turn(client, game, make_user):
    game_id, mover, waiter = game
    state = call(client, "get", f"/api/games/{game_id}", mover).json()
    move = state["legal_moves"][0]
    url = f"/api/games/{game_id}/moves"
    # a stale ply: 409, nothing played
    answer = call(client, "post", url, mover, {"ply": state["ply"] - 1, "move": move})
    assert answer.status_code == 409
    assert "board changed" in answer.json()["error"]
    # an illegal move: 422 with the reason
    answer = call(
        client,
        "post",
        url,
        mover,
        {"ply": state["ply"], "move": {"from": 9, "colour": "red", "to": 0}},
    )
    assert answer.status_code == 422 and answer.json()["error"]
    # a body that does not read: 422
    answer = call(client, "post", url, mover, {"ply": "x"})
    assert answer.status_code == 422
    auth = {"HTTP_AUTHORIZATION": f"Bearer {mover}"}
    for body in (
        "{",  # not JSON
        '{"ply": 1, "move": ' + "[" * 100_000 + "]" * 100_000 + "}",  # too deep
        '{"ply": 1, "move": {"x": "' + "y" * 70_000 + '"}}',  # over 64 KB
        "[1]",  # not an object
    ):
        answer = client.post(url, data=body, content_type="application/json", **auth)
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("Cannot parse request body")
    # not their turn: 409; someone else's game: 403
    answer = call(client, "post", url, waiter, {"ply": state["ply"], "move": move})
    assert answer.status_code == 409
    carla = make_user("carla")
    _row, outsider = services.token_create(user=carla, name="x", scopes=ALL)
    assert call(client, "get", f"/api/games/{game_id}", outsider).status_code == 403
    answer = call(client, "post", url, outsider, {"ply": state["ply"], "move": move})
    assert answer.status_code == 403
    assert call(client, "get", "/api/games/999999", outsider).status_code == 404
    assert Game.objects.get(pk=game_id).ply == state["ply"]


def test_a_missing_scope_is_403(client, game, players):
    game_id, mover, _waiter = game
    user = ApiToken.objects.get(digest=services.digest(mover)).user
    _row, reader = services.token_create(user=user, name="read", scopes=["game:read"])
    state = call(client, "get", f"/api/games/{game_id}", reader).json()
    answer = call(
        client,
        "post",
        f"/api/games/{game_id}/moves",
        reader,
        {"ply": state["ply"], "move": state["legal_moves"][0]},
    )
    assert answer.status_code == 403
    assert "game:play" in answer.json()["error"]


def test_an_idempotency_key_answers_twice_and_plays_once(client, game):
    game_id, mover, _waiter = game
    state = call(client, "get", f"/api/games/{game_id}", mover).json()
    body = {"ply": state["ply"], "move": state["legal_moves"][0]}
    url = f"/api/games/{game_id}/moves"
    first = call(client, "post", url, mover, body, HTTP_IDEMPOTENCY_KEY="move-1")
    again = call(client, "post", url, mover, body, HTTP_IDEMPOTENCY_KEY="move-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert Game.objects.get(pk=game_id).ply == first.json()["ply"]
    # without the key, the same body is stale now
    assert call(client, "post", url, mover, body).status_code == 409


def test_one_request_at_a_time_and_the_minute_cap(client, game, monkeypatch):
    game_id, mover, _waiter = game
    token = ApiToken.objects.get(digest=services.digest(mover))
    # a request of this token being answered elsewhere
    assert services.token_claim(token)
    answer = call(client, "get", f"/api/games/{game_id}", mover)
    assert answer.status_code == 429 and answer["Retry-After"] == "1"
    services.token_release(token)
    assert call(client, "get", f"/api/games/{game_id}", mover).status_code == 200
    # the minute's cap
    throttle = api.throttle[0] if isinstance(api.throttle, list) else api.throttle
    monkeypatch.setattr(throttle, "num_requests", 2)
    codes = [call(client, "get", "/api/account", mover).status_code for _ in range(4)]
    assert codes[-1] == 429
    answer = call(client, "get", "/api/account", mover)
    assert int(answer["Retry-After"]) >= 1


def test_the_management_command_prints_a_token(db, make_user, client):
    make_user("dora")
    out = io.StringIO()
    call_command("api_token", "dora", "--scopes", "game:read", stdout=out)
    secret = out.getvalue().strip()
    assert secret.startswith("azul_")
    assert call(client, "get", "/api/account", secret).json()["name"] == "dora"


def test_the_openapi_schema_matches_the_code(client):
    """CI checks the schema served against the committed docs/openapi.json."""
    from pathlib import Path

    docs = client.get("/api/docs")
    assert docs.status_code == 200
    assert b'"url": "/api/openapi.json"' in docs.content
    served = client.get("/api/openapi.json").json()
    committed = json.loads(
        (Path(__file__).resolve().parents[2] / "docs" / "openapi.json").read_text()
    )
    assert served == committed, (
        "run: manage.py export_openapi_schema --api api.api.api --indent 1 "
        "--output docs/openapi.json"
    )
