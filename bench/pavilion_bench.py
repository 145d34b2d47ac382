"""Summer Pavilion playouts per second (``games/engine/pavilion.py``).

A playout is a whole game from the set-up to the end of round 6: every chance event
drawn with ``random.Random``, every decision chosen uniformly among all legal
decisions, generated in full by ``legal_moves()`` as ``record.play_random`` does.

Run ``python bench/pavilion_bench.py [seconds]`` to print figures for 2-4 players on
both sides; ``bench/engine.py`` calls :func:`pavilion_playouts_per_second`.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.engine.pavilion import PavilionGame, Phase  # noqa: E402


def playout(players: int, rng: random.Random, grey: bool = False) -> PavilionGame:
    """One random game to the end (uniform over the legal decisions)."""
    game = PavilionGame(players, grey=grey, first_seat=rng.randrange(players))
    randrange = rng.randrange
    while game.phase != Phase.OVER:
        if game.needs_chance():
            game.chance(rng)
        else:
            moves = game.legal_moves()
            game.push(moves[randrange(len(moves))])
    return game


def pavilion_playouts_per_second(
    players: int, seconds: float, grey: bool = False, seed: int = 0
) -> float:
    """Random ``players``-seat games finished per second over about ``seconds``."""
    rng = random.Random(seed)
    playout(players, rng, grey)  # warm the move caches
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        playout(players, rng, grey)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def main(argv: list[str]) -> None:
    seconds = float(argv[0]) if argv else 3.0
    for grey in (False, True):
        variant = "pavilion-grey" if grey else "pavilion"
        for players in (2, 3, 4):
            rate = pavilion_playouts_per_second(players, seconds, grey)
            print(f"{variant:14} {players} players: {rate:7.1f} games/s")


if __name__ == "__main__":
    main(sys.argv[1:])
