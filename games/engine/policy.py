"""A simple, sensible built-in player for seats that forfeited on time.

In a 3-4 player game a player whose deadline passes forfeits, and the site plays
their remaining turns with :func:`choose_move` so the others can finish. The policy
is greedy and cheap (no search): it only looks at the move itself.

- Classic, taking: the take that puts the most tiles on pattern lines, then the
  fewest on the floor (the first-player marker counts as a floor tile).
- Classic, grey wall tiling: the column that scores the most points now.
- Summer Pavilion, taking: the take that brings the most tiles into the hand.
- Summer Pavilion, placing: the cheapest affordable space, paying with the fewest
  wild tiles; when nothing can be placed, pass keeping the most tiles, wild
  tiles first, then the colours held most.
- Summer Pavilion, bonus: the first choice.

Ties are broken with the caller's ``random.Random``, so the choice is deterministic
given the generator (``common.py``: randomness is supplied by the caller).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .common import CENTER
from .variants import PAVILION_FAMILY, find_variant


def choose_move(game: Any, rng: random.Random) -> Any:
    """The policy's decision for the seat to move in ``game`` (classic or pavilion)."""
    moves = list(game.legal_moves())
    if not moves:
        raise ValueError("no decision is awaited")
    if find_variant(game.variant).family is PAVILION_FAMILY:
        if game.phase == "bonus":
            return moves[0]
        key = _pavilion_key(game)
    else:
        key = _classic_key(game)
    return _best(moves, key, rng)


def _best(moves: Sequence[Any], key: Callable[[Any], Any], rng: random.Random) -> Any:
    """The move with the highest ``key``; ties broken by ``rng``."""
    scored = [(key(move), index) for index, move in enumerate(moves)]
    top = max(score for score, _ in scored)
    best = [moves[index] for score, index in scored if score == top]
    return best[0] if len(best) == 1 else rng.choice(best)


# ------------------------------------------------------------------ classic


def _classic_key(game: Any) -> Callable[[Any], Any]:
    from .classic import FLOOR, Take, WallPlacement

    seat = game.to_move()
    board = game.boards[seat]

    def key(move: Any) -> Any:
        if isinstance(move, Take):
            counts = (
                game.center if move.source == CENTER else game.factories[move.source]
            )
            count = counts[move.colour]
            if move.line == FLOOR:
                placed = 0
            else:
                room = move.line + 1 - board.line_count[move.line]
                placed = min(count, room)
            to_floor = count - placed
            if move.source == CENTER and game.center_marker:
                to_floor += 1
            return (placed, -to_floor)
        if isinstance(move, WallPlacement):
            after = game.copy()
            after.push(move)
            return (after.boards[seat].score,)
        return (0,)

    return key


# ----------------------------------------------------------------- pavilion


def _pavilion_key(game: Any) -> Callable[[Any], Any]:
    from .pavilion import Pass, Place, Take

    seat = game.to_move()
    hand = game.hands[seat]
    wild = game.wild

    def key(move: Any) -> Any:
        if isinstance(move, Take):
            tiles = (
                game.centre if move.source == CENTER else game.factories[move.source]
            )
            taken = tiles[move.colour]
            if move.colour != wild and tiles[wild]:
                taken += 1
            return (0, taken)
        if isinstance(move, Place):
            # Any placement beats any pass; cheaper first, then fewer wilds.
            return (1, -game.cost(move.star, move.space), -move.wilds)
        if isinstance(move, Pass):
            kept_wild = sum(1 for colour in move.keep if colour == wild)
            held = sum(hand[colour] for colour in move.keep)
            return (0, len(move.keep), kept_wild, held)
        return (0,)

    return key


def play_forfeited_turn(game: Any, rng: random.Random) -> Any:
    """Choose and play one decision for the seat to move; returns the move."""
    move = choose_move(game, rng)
    game.play(move)
    return move
