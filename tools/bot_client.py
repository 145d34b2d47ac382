"""A reference client of the API (issue #39, docs/api.md): a program that plays
on the site with a personal token, through the API alone, in the standard
library only.

It reads its account's events (``GET /api/events?after=CURSOR``, keeping the
cursor), accepts the challenges it is sent if told to (``--accept``), and plays
every game where it is its turn (``GET /api/games/playing``, then
``GET /api/games/{id}``, then ``POST /api/games/{id}/moves`` with one of the
game's ``legal_moves`` and an ``Idempotency-Key`` made of the game and the
ply). The move is a policy's: a function ``choose(state) -> move`` given the
game as ``GET /api/games/{id}`` answers it (``--policy module:function``;
``choose`` here by default).

What it does with the API's answers:

- 409 (the game moved on, or it is not its turn): reads the game again;
- 422 (an illegal move): logs the reason, and picks another of the moves;
- 429 (one request at a time, or the minute's cap): sleeps ``Retry-After``
  seconds and sends the request again;
- 401, 403, 404: stops with the error (a token that does not count, a scope
  it lacks).

    python tools/bot_client.py --url https://azul.example --accept
        (the token from $AZUL_TOKEN, or --token azul_…; never printed)

It polls every ``--every`` seconds until stopped; ``--once`` makes one pass
(the events, then every game where it is its turn) and stops, ``--games N``
stops once N of its games have finished.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Move = dict[str, Any]
Policy = Callable[[dict[str, Any]], Move]

USER_AGENT = "azul-bot-client/1"
RETRIES_429 = 20
"""How many 429s in a row one request waits out before giving up."""
MOVE_TRIES = 10
"""How many answers (409, 422) one turn reads before the next pass."""


# ------------------------------------------------------------ the policy


def choose(state: dict[str, Any]) -> Move:
    """The default policy: in Azul, a take onto a pattern line rather than the
    floor, the longest line of those (line 4 holds five tiles, so the fewest
    fall to the floor); any other decision (a grey wall's column, Summer
    Pavilion's) is the first of the legal moves."""
    moves: list[Move] = state["legal_moves"]
    onto_a_line = [m for m in moves if isinstance(m.get("to"), int)]
    if onto_a_line:
        return max(onto_a_line, key=lambda m: m["to"])
    return moves[0]


def load_policy(spec: str) -> Policy:
    """``module:function`` (``my_bot:choose``) as the function it names."""
    module_name, _, name = spec.partition(":")
    if not module_name or not name:
        raise ValueError(f"--policy: module:function, not {spec!r}")
    policy = getattr(importlib.import_module(module_name), name)
    if not callable(policy):
        raise ValueError(f"--policy: {spec} is not a function")
    return policy  # type: ignore[no-any-return]


# ------------------------------------------------------------ the requests


class ApiError(Exception):
    """An answer the client does not handle itself: its status and error."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]


def _log(message: str) -> None:
    print(time.strftime("%H:%M:%S"), message, file=sys.stderr, flush=True)


@dataclass
class Client:
    """The API at ``url`` with ``token`` (sent in a header, never printed)."""

    url: str
    token: str = field(repr=False)
    timeout: float = 30.0
    log: Callable[[str], None] = _log
    sleep: Callable[[float], None] = time.sleep

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """One request, as it is answered (any status; no retry)."""
        sent = {
            "Authorization": f"Bearer {self.token}",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
            **(headers or {}),
        }
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        request = urllib.request.Request(
            self.url.rstrip("/") + path, data=data, headers=sent, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return Answer(
                    response.status, _read(response.read()), dict(response.headers)
                )
        except urllib.error.HTTPError as error:
            return Answer(error.code, _read(error.read()), dict(error.headers))

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """``send``, waiting out a 429 (``Retry-After`` seconds) and sending
        again."""
        for _ in range(RETRIES_429):
            answer = self.send(method, path, body, headers)
            if answer.status != 429:
                return answer
            wait = _retry_after(answer.headers)
            self.log(f"429 on {method} {path}: waiting {wait:g} s")
            self.sleep(wait)
        return answer

    def get(self, path: str) -> Any:
        """A GET's body; ApiError unless 200."""
        answer = self.request("GET", path)
        if answer.status != 200:
            raise ApiError(answer.status, _error(answer))
        return answer.body


def _read(raw: bytes) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return raw.decode(errors="replace")


def _error(answer: Answer) -> str:
    if isinstance(answer.body, dict) and "error" in answer.body:
        return str(answer.body["error"])
    return str(answer.body)


def _retry_after(headers: dict[str, str]) -> float:
    value = {k.lower(): v for k, v in headers.items()}.get("retry-after", "1")
    try:
        return max(0.0, float(value))
    except ValueError:
        return 1.0


# ------------------------------------------------------------ the bot


@dataclass
class Bot:
    """One account's program: its events read up to ``cursor``, its games
    played with ``policy``."""

    client: Client
    policy: Policy = choose
    accept: bool = False
    cursor: int = 0
    finished: set[int] = field(default_factory=set)
    """Games it played or accepted this run that have finished."""
    mine: set[int] = field(default_factory=set)
    """Games it played or accepted this run."""
    moves_played: int = 0

    def read_events(self) -> None:
        """Every event after the cursor: a challenge is accepted if told to,
        a finished game counted."""
        while True:
            page = self.client.get(f"/api/events?after={self.cursor}")
            for event in page["events"]:
                kind, data = event["type"], event["data"]
                if kind == "challenge" and self.accept:
                    self.accept_challenge(int(data["game"]))
                elif kind == "gameFinish" and int(data["game"]) in self.mine:
                    self.finished.add(int(data["game"]))
            self.cursor = int(page["cursor"])
            if not page["events"]:
                return

    def accept_challenge(self, game_id: int) -> bool:
        answer = self.client.request(
            "POST",
            f"/api/challenges/{game_id}/accept",
            headers={"Idempotency-Key": f"accept-{game_id}"},
        )
        if answer.status == 200:
            self.client.log(f"accepted the challenge of game {game_id}")
            self.mine.add(game_id)
            return True
        # answered already, withdrawn, or the game started without us
        self.client.log(f"challenge {game_id} not accepted: {_error(answer)}")
        return False

    def play_game(self, game_id: int) -> int:
        """Play ``game_id`` while it is this account's turn; the moves played."""
        self.mine.add(game_id)
        state = self.client.get(f"/api/games/{game_id}")
        played = 0
        refused: list[Move] = []
        for attempt in range(MOVE_TRIES):
            if state["status"] == "finished":
                self.finished.add(game_id)
            if state["status"] != "active" or not state["legal_moves"]:
                break
            ply = state["ply"]
            move = self._pick(state, refused)
            key = f"{game_id}-{ply}" if not refused else f"{game_id}-{ply}-{attempt}"
            answer = self.client.request(
                "POST",
                f"/api/games/{game_id}/moves",
                {"ply": ply, "move": move},
                {"Idempotency-Key": key},
            )
            if answer.status == 200:
                played += 1
                refused = []
                state = answer.body
            elif answer.status == 409:
                self.client.log(f"409 in game {game_id}: {_error(answer)}; reading it")
                refused = []
                state = self.client.get(f"/api/games/{game_id}")
            elif answer.status == 422:
                self.client.log(f"422 in game {game_id} for {move}: {_error(answer)}")
                refused.append(move)
            else:
                raise ApiError(answer.status, _error(answer))
        self.moves_played += played
        return played

    def _pick(self, state: dict[str, Any], refused: list[Move]) -> Move:
        """The policy's move, among the legal ones not refused yet; the first
        of those if the policy's is not one of them."""
        legal: list[Move] = [m for m in state["legal_moves"] if m not in refused]
        if not legal:  # all refused: the game may have changed; try them again
            legal = list(state["legal_moves"])
            refused.clear()
        move: Move = self.policy({**state, "legal_moves": legal})
        if move in refused:
            self.client.log(f"the policy chose a refused move again: {move}")
            return legal[0]
        return move

    def play_turns(self) -> int:
        """Every game where it is this account's turn; the moves played."""
        played = 0
        for line in self.client.get("/api/games/playing"):
            if line["my_turn"]:
                played += self.play_game(int(line["id"]))
        return played

    def one_pass(self) -> int:
        """The events, then the turns; the moves played."""
        self.read_events()
        return self.play_turns()

    def run(self, *, once: bool = False, games: int = 0, every: float = 5.0) -> None:
        """Passes every ``every`` seconds: one if ``once``, else until
        ``games`` games have finished (0: until stopped)."""
        while True:
            try:
                self.one_pass()
            except ApiError as error:
                if error.status in (401, 403, 404):
                    raise
                self.client.log(f"{error}; trying again")
            except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
                self.client.log(f"the site did not answer ({error}); trying again")
            if once or (games and len(self.finished) >= games):
                return
            time.sleep(every)


# ------------------------------------------------------------ the command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Play on the site through its API with a personal token."
    )
    parser.add_argument("--url", required=True, help="the site, https://…")
    parser.add_argument(
        "--token",
        default=os.environ.get("AZUL_TOKEN", ""),
        help="the token (azul_…); default $AZUL_TOKEN",
    )
    parser.add_argument(
        "--accept", action="store_true", help="accept the challenges sent"
    )
    parser.add_argument(
        "--policy",
        default="",
        help="module:function choosing a move from a game's state (default: "
        "pattern lines before the floor)",
    )
    parser.add_argument(
        "--every", type=float, default=5.0, help="seconds between passes (5)"
    )
    parser.add_argument("--cursor", type=int, default=0, help="events after this")
    parser.add_argument("--once", action="store_true", help="one pass, then stop")
    parser.add_argument(
        "--games", type=int, default=0, help="stop once N games have finished"
    )
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("a token: --token azul_… or $AZUL_TOKEN")
    policy = load_policy(args.policy) if args.policy else choose
    bot = Bot(
        Client(args.url, args.token), policy, accept=args.accept, cursor=args.cursor
    )
    try:
        account = bot.client.get("/api/account")
        bot.client.log(f"playing as {account['name']}")
        bot.run(once=args.once, games=args.games, every=args.every)
    except ApiError as error:
        _log(f"stopped: {error}")
        return 1
    except KeyboardInterrupt:
        pass
    _log(f"{bot.moves_played} moves played; cursor {bot.cursor}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
