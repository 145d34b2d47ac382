"""How many turns each player takes in a game (issue #37: what a clock means for
a game, ``games.engine.variants.Family.turns``): medium self-play, a turn being
a player's decisions in a row with forced ones (the only legal decision) left
out, as the bank clock counts them (``docs/clock.md``). Usage:

    .venv/bin/python bench/turns.py [--games 8]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import bots  # noqa: E402
from games.engine.record import new_game  # noqa: E402
from games.engine.variants import FAMILIES, PLAYERS  # noqa: E402


def turns_each(variant: str, players: int, seed: int) -> float:
    rng = random.Random(seed)
    game = new_game(variant, players, first_seat=0)
    turns = 0
    last: int | None = None
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            last = None
            continue
        seat = game.to_move()
        if len(game.legal_moves()) > 1 and seat != last:
            turns += 1
        last = seat
        game.push(bots.choose(game, "medium", seed=rng.randrange(10**6)))
    return turns / players


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    args = parser.parse_args()
    for family in FAMILIES:
        measured = []
        for players in PLAYERS:
            mean = (
                sum(
                    turns_each(family.name, players, seed) for seed in range(args.games)
                )
                / args.games
            )
            measured.append(round(mean))
            print(f"{family.name:8} {players} players: {mean:5.1f} turns each")
        print(f"== {family.name}: measured {tuple(measured)}, kept {family.turns}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
