"""Review cost (issue #27 item 3): CPU time of the review of a finished game.

Plays one game of two medium computers (three or four with ``--players``) per
family from a fixed seed, reviews it at ``--seconds`` a decision (the default
budget of ``python -m games.engine review``), and prints per game the events,
the decisions weighed, the CPU seconds, and each seat's points lost, luck and
accuracy. Target (the issue's): a two-player game in at most 2 minutes of one
core, a four-player one in at most 8. Usage:

    .venv/bin/python bench/review.py
    .venv/bin/python bench/review.py --players 2,3,4 --seconds 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import bots  # noqa: E402
from games.engine.record import new_game  # noqa: E402
from games.engine.review import DEFAULT_SECONDS, review  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"one game of medium computers each, reviewed at {args.seconds:g} s a decision"
    )
    print(
        f"{'variant':9} {'players':>7} {'events':>6} {'weighed':>7} {'CPU s':>7}"
        "  seats: lost / luck / accuracy"
    )
    for variant in ("classic", "pavilion"):
        for players in (int(n) for n in args.players.split(",")):
            rng = random.Random(args.seed)
            game = new_game(variant, players)
            while not game.is_over():
                if game.needs_chance():
                    game.chance(rng)
                else:
                    game.push(bots.choose(game, "medium", seed=rng.randrange(10**6)))
            start = time.process_time()
            done = review(
                game.events(),
                variant=variant,
                players=players,
                first_seat=0,
                seconds=args.seconds,
            )
            spent = time.process_time() - start
            weighed = sum(not d.forced for d in done.decisions)
            seats = "  ".join(
                f"{s.lost:.0f} / {s.luck:+.1f} / {s.accuracy:.0f}" for s in done.seats
            )
            print(
                f"{variant:9} {players:>7} {len(game.events()):>6} {weighed:>7} "
                f"{spent:>7.1f}  {seats}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
