"""A game in progress played out to its end by a computer level for every
seat, from a seeded random source: what the places of an unfinished game would
likely have been (a league's last day, docs/leagues.md, "The last day").

The level plays the seats as ``bots.choose`` does (knowing only what a player
knows); the deals still to come are drawn from the seeded source, so the same
position and seeds give the same playouts.
"""

from __future__ import annotations

import random

from games.engine import bots
from games.engine.common import Game


def play_out(game: Game, *, level: str, seconds: float, seed: int) -> tuple[int, ...]:
    """The places (1 the best, equal places shared) of one playout of
    ``game`` to its end, each decision the ``level``'s at ``seconds``, the deals
    from ``seed``. ``game`` is not changed."""
    position = game.copy()
    rng = random.Random(seed)
    while True:
        while position.needs_chance():
            position.chance(rng)
        outcome = position.outcome() if position.is_over() else None
        if outcome is not None:
            return outcome.ranks
        position.play(
            bots.choose(position, level, seconds=seconds, seed=rng.randrange(2**32))
        )


def playout_places(
    game: Game, *, times: int, level: str, seconds: float, seed: int
) -> list[tuple[int, ...]]:
    """``times`` playouts of ``game`` (``play_out``), seeded from ``seed``."""
    return [
        play_out(game, level=level, seconds=seconds, seed=seed * 1_000 + index)
        for index in range(times)
    ]
