"""Review cost (issue #27 item 3, issue #40 item 4): CPU time of the review of a
finished game, and the review workers a site needs.

Plays one game of two medium computers (three or four with ``--players``) per
family from a fixed seed, reviews it at ``--seconds`` a decision (the default
budget of ``python -m games.engine review``), and prints per game the events,
the decisions weighed, the CPU seconds (``time.process_time``: this process's
CPU, whatever else runs beside it), the reviews one core makes an hour, and
each seat's points lost, luck and accuracy. Then, for each site size in
``--sites`` (finished games a day, each reviewed once), the review workers
(cores, ``azul-review`` processes) it needs: at the measured games' mean cost
(each family and player count as many games), at the cheapest and the
costliest, over the day on average and at a busy hour (``--peak`` times the
day's average rate), and the ``REVIEW_PER_HOUR`` those workers keep up with.
Target (issue #27's): a two-player game in at most 2 minutes of one core, a
four-player one in at most 8. Usage:

    .venv/bin/python bench/review.py
    .venv/bin/python bench/review.py --players 2 --seconds 0.5 --sites 5000
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import bots  # noqa: E402
from games.engine.record import new_game  # noqa: E402
from games.engine.review import DEFAULT_SECONDS, review  # noqa: E402

DAY = 86_400.0
HOUR = 3_600.0


def measure(variant: str, players: int, *, seconds: float, seed: int) -> float:
    """Play one game of medium computers, review it and print its line; the
    review's CPU seconds."""
    rng = random.Random(seed)
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
        seconds=seconds,
    )
    spent = time.process_time() - start
    weighed = sum(not d.forced for d in done.decisions)
    seats = "  ".join(
        f"{s.lost:.0f} / {s.luck:+.1f} / {s.accuracy:.0f}" for s in done.seats
    )
    print(
        f"{variant:9} {players:>7} {len(game.events()):>6} {weighed:>7} "
        f"{spent:>7.1f} {HOUR / spent:>9.0f}  {seats}",
        flush=True,
    )
    return spent


def workers(games_a_day: int, seconds: float, peak: float) -> tuple[int, int]:
    """The cores that review ``games_a_day`` games of ``seconds`` CPU each:
    over the day on average, and at an hour ``peak`` times as busy."""
    average = games_a_day * seconds / DAY
    return max(1, math.ceil(average)), max(1, math.ceil(average * peak))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sites",
        default="1000,10000,100000",
        help="site sizes: finished games a day, comma-separated",
    )
    parser.add_argument(
        "--peak",
        type=float,
        default=2.0,
        help="the busiest hour's rate of finished games over the day's average",
    )
    args = parser.parse_args()
    print(
        f"one game of medium computers each, reviewed at {args.seconds:g} s a decision"
    )
    print(
        f"{'variant':9} {'players':>7} {'events':>6} {'weighed':>7} {'CPU s':>7}"
        f" {'/core-h':>9}  seats: lost / luck / accuracy"
    )
    costs = {
        (variant, players): measure(
            variant, players, seconds=args.seconds, seed=args.seed
        )
        for variant in ("classic", "pavilion")
        for players in (int(n) for n in args.players.split(","))
    }
    mean = sum(costs.values()) / len(costs)
    cheapest = min(costs.values())
    costliest = max(costs.values())
    print(
        f"\nmean {mean:.1f} CPU s a review ({HOUR / mean:.0f} reviews a core-hour), "
        f"cheapest {cheapest:.1f} s, costliest {costliest:.1f} s"
    )
    print(
        f"\nreview workers (cores) for a site finishing N games a day, each "
        f"reviewed once; busy hour = {args.peak:g} x the day's average"
    )
    print(
        f"{'games a day':>11} {'CPU h a day':>11} {'mean':>10} {'cheapest':>10} "
        f"{'costliest':>10}   REVIEW_PER_HOUR the busy hour's mean workers make"
    )
    print(f"{'':>11} {'(mean)':>11} " + " ".join(f"{'avg/busy':>10}" for _ in "abc"))
    for games in (int(n) for n in args.sites.split(",")):
        cells = []
        for cost in (mean, cheapest, costliest):
            average, busy = workers(games, cost, args.peak)
            cells.append(f"{f'{average}/{busy}':>10}")
        _, busy = workers(games, mean, args.peak)
        per_hour = math.floor(busy * HOUR / mean)
        print(
            f"{games:>11,} {games * mean / HOUR:>11,.0f} {' '.join(cells)}   "
            f"{per_hour:,}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
