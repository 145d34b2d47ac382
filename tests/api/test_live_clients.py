"""Issue #39's done-criterion: two reference clients (``tools/bot_client.py``)
against a live Daphne, through the API alone — a challenge, its acceptance, a
whole game to its end — and the API's refusals over the wire: 401, 403, 409,
422 and 429, and what the client does with 409, 422 and 429.

The server is ``tests/e2e``'s forked Daphne (``_live_server``) on the file
test database; users and tokens are made here, with the services. Its
minute's cap is raised before the fork (two clients polling every 0.2 s ask
more than 120 a minute); 429 is one request at a time, a token held here."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api import services
from api.api import api
from api.models import ApiToken
from games.models import Game
from tests.e2e.conftest import _live_server
from tools.bot_client import Bot, Client

ROOT = Path(__file__).resolve().parents[2]
ALL = ["game:read", "game:play", "challenge:write"]


@pytest.fixture
def live_api(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A Daphne server in a forked process, sharing the test database, with
    no minute's cap to speak of (set here, before the fork)."""
    from channels.testing.live import set_database_connection

    throttle = api.throttle[0] if isinstance(api.throttle, list) else api.throttle
    monkeypatch.setattr(throttle, "num_requests", 100_000)
    yield from _live_server(set_database_connection)


@pytest.fixture
def tokens(make_user: Any) -> dict[str, str]:
    ana, binh, carla = make_user("ana"), make_user("binh"), make_user("carla")
    return {
        "ana": services.token_create(user=ana, name="bot", scopes=ALL)[1],
        "binh": services.token_create(user=binh, name="bot", scopes=ALL)[1],
        "carla": services.token_create(user=carla, name="bot", scopes=ALL)[1],
        "ana-reads": services.token_create(
            user=ana, name="reader", scopes=["game:read"]
        )[1],
    }


def _challenge(url: str, token: str, invite: str) -> int:
    answer = Client(url, token).request(
        "POST",
        "/api/challenges",
        {"variant": "classic", "players": 2, "invite": [invite], "clock": "fast"},
    )
    assert answer.status == 200, answer.body
    assert answer.body["game"]["status"] == "open"
    return int(answer.body["id"])


def _bot(url: str, token: str, logged: list[str], **options: Any) -> tuple[Bot, Client]:
    client = Client(url, token, timeout=10, log=logged.append)
    return Bot(client, **options), client


def test_two_clients_play_a_whole_game_through_the_api(
    live_api: str, tokens: dict[str, str]
) -> None:
    game_id = _challenge(live_api, tokens["ana"], "binh")
    script = str(ROOT / "tools" / "bot_client.py")
    runs = {
        name: subprocess.Popen(
            [sys.executable, script, "--url", live_api, "--games", "1"]
            + ["--every", "0.2"]
            + (["--accept"] if name == "binh" else []),
            env={**os.environ, "AZUL_TOKEN": tokens[name]},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name in ("ana", "binh")
    }
    outputs = {}
    try:
        for name, run in runs.items():
            outputs[name], _ = run.communicate(timeout=90)
            assert run.returncode == 0, outputs[name]
    finally:
        for run in runs.values():
            if run.poll() is None:
                run.kill()
    assert f"accepted the challenge of game {game_id}" in outputs["binh"]
    for name, output in outputs.items():
        assert f"playing as {name}" in output
        assert tokens[name] not in output  # never printed
        assert tokens[name][5:12] not in output
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    record = Client(live_api, tokens["carla"]).get(f"/api/games/{game_id}/record")
    scores = [seat.score for seat in game.seats.order_by("number")]
    assert record["result"]["scores"] == scores
    assert record["players"] == ["ana", "binh"]
    assert record["events"]
    # each played: the moves they printed add up to the game's decisions
    played = [
        int(out.rsplit(" moves played", 1)[0].rsplit(None, 1)[-1])
        for out in outputs.values()
    ]
    assert min(played) > 0


def _started(url: str, tokens: dict[str, str]) -> tuple[int, str, str]:
    """A game between ana and binh, binh's client accepting it: its id, and
    the token of the player to move and of the other."""
    game_id = _challenge(url, tokens["ana"], "binh")
    binh, _client = _bot(url, tokens["binh"], [], accept=True)
    binh.read_events()
    assert game_id in binh.mine
    state = Client(url, tokens["ana"]).get(f"/api/games/{game_id}")
    assert state["status"] == "active"
    if state["legal_moves"]:
        return game_id, tokens["ana"], tokens["binh"]
    return game_id, tokens["binh"], tokens["ana"]


def test_the_refusals_over_the_wire(live_api: str, tokens: dict[str, str]) -> None:
    game_id, mover_token, waiter_token = _started(live_api, tokens)
    mover = Client(live_api, mover_token)
    url = f"/api/games/{game_id}/moves"
    state = mover.get(f"/api/games/{game_id}")
    move = state["legal_moves"][0]
    # 401: no token, a forged one
    for bad in ("", "azul_forged", mover_token[:-2] + "xx"):
        answer = Client(live_api, bad).send("GET", "/api/account")
        assert answer.status == 401 and "Bearer" in answer.body["error"]
    # 403: a token without game:play, an outsider reading or playing
    reader = Client(live_api, tokens["ana-reads"])
    answer = reader.send("POST", url, {"ply": state["ply"], "move": move})
    assert answer.status == 403 and "game:play" in answer.body["error"]
    outsider = Client(live_api, tokens["carla"])
    assert outsider.send("GET", f"/api/games/{game_id}").status == 403
    answer = outsider.send("POST", url, {"ply": state["ply"], "move": move})
    assert answer.status == 403
    # 409: a stale ply, and a move out of turn
    answer = mover.send("POST", url, {"ply": state["ply"] - 1, "move": move})
    assert answer.status == 409 and answer.body["error"]
    waiter = Client(live_api, waiter_token)
    answer = waiter.send("POST", url, {"ply": state["ply"], "move": move})
    assert answer.status == 409
    # 422: an illegal move, with the reason
    illegal = {"from": 9, "colour": "red", "to": 0}
    answer = mover.send("POST", url, {"ply": state["ply"], "move": illegal})
    assert answer.status == 422 and answer.body["error"]
    # 429: a request of this token being answered elsewhere
    row = ApiToken.objects.get(digest=services.digest(mover_token))
    assert services.token_claim(row)
    try:
        answer = mover.send("GET", f"/api/games/{game_id}")
        assert answer.status == 429
        assert answer.headers["Retry-After"] == "1"
        assert answer.body["error"]
    finally:
        services.token_release(row)
    assert Game.objects.get(pk=game_id).ply == state["ply"]  # nothing played


def test_the_client_waits_out_429_and_gets_past_409_and_422(
    live_api: str, tokens: dict[str, str]
) -> None:
    game_id, mover_token, _waiter = _started(live_api, tokens)
    # 429: the client sleeps Retry-After and asks again
    row = ApiToken.objects.get(digest=services.digest(mover_token))
    assert services.token_claim(row)
    slept: list[float] = []
    logged: list[str] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        time.sleep(seconds)

    client = Client(live_api, mover_token, log=logged.append, sleep=sleep)
    threading.Timer(0.5, services.token_release, [row]).start()
    assert client.get("/api/account")["name"] in ("ana", "binh")
    assert slept and slept[0] == 1.0
    assert logged and logged[0].startswith("429 on GET /api/account")

    # 422: the policy's illegal move is logged, and another one played
    chosen: list[dict[str, Any]] = []

    def illegal_first(state: dict[str, Any]) -> dict[str, Any]:
        move = {"from": 9, "colour": "red", "to": 0} if not chosen else None
        chosen.append(state)
        return move or state["legal_moves"][0]

    logged.clear()
    bot, _client = _bot(live_api, mover_token, logged, policy=illegal_first)
    before = Game.objects.get(pk=game_id).ply
    assert bot.play_game(game_id) == 1
    assert any(line.startswith(f"422 in game {game_id}") for line in logged)
    assert Game.objects.get(pk=game_id).ply > before

    # 409: the move is played behind the client's back (a second program
    # with the same token); its own post is stale, and it reads the game again
    state = Client(live_api, tokens["ana"]).get(f"/api/games/{game_id}")
    token = tokens["ana"] if state["legal_moves"] else tokens["binh"]
    behind = Client(live_api, token)

    def played_elsewhere(state: dict[str, Any]) -> dict[str, Any]:
        move: dict[str, Any] = state["legal_moves"][0]
        if not behind_played:
            answer = behind.send(
                "POST",
                f"/api/games/{game_id}/moves",
                {"ply": state["ply"], "move": move},
            )
            assert answer.status == 200, answer.body
            behind_played.append(state["ply"])
        return move

    behind_played: list[int] = []
    logged.clear()
    bot, _client = _bot(live_api, token, logged, policy=played_elsewhere)
    ply = Game.objects.get(pk=game_id).ply
    played = bot.play_game(game_id)
    assert behind_played == [ply]
    assert any(line.startswith(f"409 in game {game_id}") for line in logged)
    # the move played once, behind it; then its own, if its turn went on
    assert Game.objects.get(pk=game_id).ply >= ply + 1 + played
