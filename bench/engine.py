"""Random full games per second, per variant and player count (median of runs).

    .venv/bin/python bench/engine.py [--seconds 1.0] [--runs 5]

A game is a playout: from the first deal to the final scores, each decision chosen
uniformly among the legal ones (generated, or counted exactly, by the engine), each
deal drawn from the bag, every round end scored. Targets on this machine: classic
2 players >= 1,000 games/s; Summer Pavilion 2 players >= 300 games/s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.record import new_game  # noqa: E402


def playout(variant: str, players: int, rng: random.Random) -> None:
    game = new_game(variant, players, rng.randrange(players))
    random_move = getattr(game, "random_move", None)
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
        elif random_move is not None:
            game.push(random_move(rng))
        else:
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])


def games_per_second(variant: str, players: int, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        playout(variant, players, rng)
        count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--variants", default="classic,classic-grey,pavilion,pavilion-grey"
    )
    args = parser.parse_args()
    print(
        f"random full games per second, median of {args.runs} runs of {args.seconds}s"
    )
    print(f"{'variant':<15}{'players':>8}{'games/s':>10}{'min':>10}{'max':>10}")
    for variant in args.variants.split(","):
        try:
            new_game(variant, 2)
        except ImportError:
            print(f"{variant:<15}  (engine not available)")
            continue
        for players in (2, 3, 4):
            runs = [
                games_per_second(variant, players, args.seconds, seed)
                for seed in range(args.runs)
            ]
            print(
                f"{variant:<15}{players:>8}{statistics.median(runs):>10.0f}"
                f"{min(runs):>10.0f}{max(runs):>10.0f}"
            )


if __name__ == "__main__":
    main()
