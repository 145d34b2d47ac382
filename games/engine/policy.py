"""A simple, sensible built-in player: greedy and cheap (no search), it only
looks at the move itself. The site's fill command plays its games with it
(``games/fill.py``); the computer players are ``bots.py``.

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
from typing import Any, TypeVar

from . import classic, pavilion
from .bots import Decision
from .common import CENTER, Game
from .variants import CLASSIC_FAMILY, PAVILION_FAMILY

M = TypeVar("M", bound=Decision)
Key = tuple[int, ...]
"""How good a move looks (bigger is better)."""


def choose_move(game: Game, rng: random.Random) -> Decision:
    """The policy's decision for the seat to move in ``game`` (classic or pavilion)."""
    decision: Decision = _CHOOSERS[game.family.name](game, rng)
    return decision


def _choose_pavilion(game: pavilion.PavilionGame, rng: random.Random) -> Decision:
    pavilion_moves: Sequence[pavilion.Move] = _awaited(game.legal_moves())
    if game.phase == pavilion.Phase.BONUS:
        return pavilion_moves[0]
    seat = pavilion_moves[0].seat
    return _best(pavilion_moves, _pavilion_key(game, seat), rng)


def _choose_classic(game: classic.ClassicGame, rng: random.Random) -> Decision:
    classic_moves: Sequence[classic.Move] = _awaited(game.legal_moves())
    seat = classic_moves[0].seat
    return _best(classic_moves, _classic_key(game, seat), rng)


def _awaited(moves: Sequence[M]) -> Sequence[M]:
    """``moves``, the legal decisions, when a decision is awaited."""
    if not moves:
        raise ValueError("no decision is awaited")
    return moves


def _best(moves: Sequence[M], key: Callable[[M], Key], rng: random.Random) -> M:
    """The move with the highest ``key``; ties broken by ``rng``."""
    scored = [(key(move), index) for index, move in enumerate(moves)]
    top = max(score for score, _ in scored)
    best = [moves[index] for score, index in scored if score == top]
    return best[0] if len(best) == 1 else rng.choice(best)


# ------------------------------------------------------------------ classic


def _classic_key(game: classic.ClassicGame, seat: int) -> Callable[[classic.Move], Key]:
    board = game.boards[seat]

    def key(move: classic.Move) -> Key:
        if isinstance(move, classic.Take):
            counts = (
                game.center if move.source == CENTER else game.factories[move.source]
            )
            count = counts[move.colour]
            if move.line == classic.FLOOR:
                placed = 0
            else:
                room = move.line + 1 - board.line_count[move.line]
                placed = min(count, room)
            to_floor = count - placed
            if move.source == CENTER and game.center_marker:
                to_floor += 1
            return (placed, -to_floor)
        after = game.copy()  # a grey wall's column
        after.push(move)
        return (after.boards[seat].score,)

    return key


# ----------------------------------------------------------------- pavilion


def _pavilion_key(
    game: pavilion.PavilionGame, seat: int
) -> Callable[[pavilion.Move], Key]:
    hand = game.hands[seat]
    wild = game.wild

    def key(move: pavilion.Move) -> Key:
        if isinstance(move, pavilion.Take):
            tiles = (
                game.centre if move.source == CENTER else game.factories[move.source]
            )
            taken = tiles[move.colour]
            if move.colour != wild and tiles[wild]:
                taken += 1
            return (0, taken)
        if isinstance(move, pavilion.Place):
            # Any placement beats any pass; cheaper first, then fewer wilds.
            return (1, -game.cost(move.star, move.space), -move.wilds)
        if isinstance(move, pavilion.Pass):
            kept_wild = sum(1 for colour in move.keep if colour == wild)
            held = sum(hand[colour] for colour in move.keep)
            return (0, len(move.keep), kept_wild, held)
        return (0,)

    return key


_CHOOSERS: dict[str, Callable[[Any, random.Random], Decision]] = {
    CLASSIC_FAMILY.name: _choose_classic,
    PAVILION_FAMILY.name: _choose_pavilion,
}
"""Each family's policy, by family name (``game.family``)."""
