"""Engine-played games that look like real ones, for ``manage.py fill_games``.

Uniformly random play scores silly low (classic ~0–20), so fill games are played
by a greedy policy with a little noise: ``engine.policy.choose_move`` (the player
the site uses for forfeited seats) for Summer Pavilion and the classic grey wall,
and for classic takes a greedy key that also likes to complete a pattern line and
hates the floor. A few decisions are random, and a few games end by resignation.
Classic scores come out around 50 (10–95), Summer Pavilion around 60.

Pure engine code plus plain data, so games can be played in worker processes.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from games.engine import policy, record
from games.engine.classic import FLOOR, Take
from games.engine.common import CENTER
from games.engine.pavilion import Phase, Place
from games.engine.variants import PAVILION_FAMILY, find_variant

RANDOM_DECISIONS = 0.04
"""Share of decisions taken at random (so games differ and blunders happen)."""
RESIGNATIONS = 0.03
"""Share of games that end by a resignation somewhere in their second half."""


@dataclass
class FillGame:
    """One played game as plain data: what ``fill_games`` stores."""

    variant: str
    players: int
    first_seat: int
    events: list[str]
    """Each event as compact JSON text (encoded in the worker)."""
    event_seats: list[int | None]
    scores: list[int]
    ranks: list[int]
    resigned: int | None
    """The seat that resigned, or None for a game played to its end."""


def _classic_take(game: Any, moves: list[Any], rng: random.Random) -> Any:
    seat = game.to_move()
    board = game.boards[seat]

    def key(move: Any) -> float:
        counts = game.center if move.source == CENTER else game.factories[move.source]
        count = counts[move.colour]
        placed, complete = 0, False
        if move.line != FLOOR:
            room = move.line + 1 - board.line_count[move.line]
            placed = min(count, room)
            complete = placed == room
        to_floor = count - placed
        if move.source == CENTER and game.center_marker:
            to_floor += 1
        return 2 * complete + placed - 2 * to_floor + 0.5 * rng.random()

    return max(moves, key=key)


def choose(game: Any, rng: random.Random) -> Any:
    """The fill player's decision for the seat to move."""
    if rng.random() < RANDOM_DECISIONS:
        moves = game.legal_moves()
        return moves[rng.randrange(len(moves))]
    if find_variant(game.variant).family is not PAVILION_FAMILY:
        moves = game.legal_moves()
        if isinstance(moves[0], Take):
            return _classic_take(game, moves, rng)
    elif game.phase == Phase.PLACE:
        # The policy's own choice (any placement beats any pass: the cheapest
        # space, then the fewest wilds) without scoring the hundreds of passes.
        places = [m for m in game.legal_moves() if isinstance(m, Place)]
        if places:
            best = min((game.cost(m.star, m.space), m.wilds) for m in places)
            choices = [
                m for m in places if (game.cost(m.star, m.space), m.wilds) == best
            ]
            return choices[0] if len(choices) == 1 else rng.choice(choices)
    return policy.choose_move(game, rng)


def current_standing(engine: Any) -> tuple[list[int], list[int]]:
    """Scores now and the tie-break (classic: complete wall rows; pavilion: none)."""
    scores = getattr(engine, "scores", None)
    if scores is not None:
        return list(scores), [0] * engine.players
    boards = engine.boards
    return [b.score for b in boards], [b.complete_rows() for b in boards]


def play(variant: str, players: int, seed: int) -> FillGame:
    """Play one game (deterministic for the seed)."""
    rng = random.Random(seed)
    game = record.new_game(variant, players, first_seat=rng.randrange(players))
    resign_at = None
    if rng.random() < RESIGNATIONS:
        resign_at = rng.randint(40, 120)  # events: the game's second half or so
    events = 0
    while not game.is_over():
        if resign_at is not None and events >= resign_at and game.to_move() is not None:
            break
        if game.needs_chance():
            game.chance(rng)
        else:
            game.push(choose(game, rng))
        events += 1
    history = game.events()
    resigned = None
    if game.is_over():
        outcome = game.outcome()
        assert outcome is not None
        scores, ranks = list(outcome.scores), list(outcome.ranks)
    else:
        resigned = game.to_move()
        assert resigned is not None
        scores, rows = current_standing(game)
        ranks = resigned_ranks(scores, rows, resigned)
    return FillGame(
        variant=variant,
        players=players,
        first_seat=game.first_seat,
        events=[json.dumps(e, separators=(",", ":")) for e in history],
        event_seats=[e.get("seat") for e in history],
        scores=scores,
        ranks=ranks,
        resigned=resigned,
    )


def resigned_ranks(scores: list[int], rows: list[int], resigned: int) -> list[int]:
    """Ranks as ``services.game_finish`` gives them when ``resigned`` resigns: the
    others by score then complete rows (ties shared), the resigner last."""
    keys = [
        (0 if seat == resigned else 1, scores[seat], rows[seat])
        for seat in range(len(scores))
    ]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def play_many(jobs: list[tuple[str, int, int]]) -> list[FillGame]:
    """``play`` for each ``(variant, players, seed)`` (one worker's share)."""
    return [play(*job) for job in jobs]
