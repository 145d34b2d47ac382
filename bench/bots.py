"""Computer players against each other: win share, scores and decision times.

    .venv/bin/python bench/bots.py [--games 200] [--seconds 1.0] [--jobs 2]
        [--variants classic,pavilion] [--pairings strong:easy,strong:medium,...]

A pairing lists one level per seat (``strong:easy`` is a two-player game,
``strong:easy:easy`` a three-player one). Game ``i`` of a pairing seats the levels
rotated by ``i`` places, so every level plays every seat equally often, and draws
its deals from ``random.Random(seed + i)``. The figures are for the pairing's first
level: its win share (a shared win counts as a share) with a 95 % Wilson interval,
the average score of each level, and each level's decision time p50/p95 (CPU
time, one process per game). ``--seconds`` is the strong level's budget; the
reference level ``strong-1`` (the strong level before issue #27) always plays at
its default.

The issue's targets (two-player pairings over 200 games, 3-4 players over 100,
strength at a tenth of the default budget, decision times at the default):

    bench/bots.py --games 200 --seconds 0.1 --jobs 2 \
        --pairings strong:easy,medium:easy,strong:medium
    bench/bots.py --games 100 --seconds 0.1 --jobs 2 \
        --pairings strong:easy:easy,strong:easy:easy:easy
    bench/bots.py --games 4 --jobs 2 --pairings strong:easy
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.bots import choose  # noqa: E402
from games.engine.record import new_game  # noqa: E402

DEFAULT_PAIRINGS = (
    "strong:easy,strong:medium,medium:easy,strong:easy:easy,strong:easy:easy:easy"
)

Job = tuple[str, tuple[str, ...], int, float | None]
Result = tuple[list[int], list[int], list[int], list[list[float]]]


def play_game(job: Job) -> Result:
    """Play one game; return scores, winners, ranks and each seat's decision
    times."""
    variant, seats, seed, seconds = job
    rng = random.Random(seed)
    bots = random.Random(seed ^ 0x5EED)
    game = new_game(variant, len(seats), first_seat=rng.randrange(len(seats)))
    times: list[list[float]] = [[] for _ in seats]
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            continue
        seat = game.to_move()
        assert seat is not None
        start = time.process_time()
        level = seats[seat]
        budget = seconds if level == "strong" else None
        move = choose(game, level, seconds=budget, seed=bots.randrange(1 << 30))
        times[seat].append(time.process_time() - start)
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    return list(outcome.scores), list(outcome.winners), list(outcome.ranks), times


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion observed over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = share + z * z / (2 * n)
    spread = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return (centre - spread) / denominator, (centre + spread) / denominator


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(p * len(ordered)) - 1))
    return ordered[index]


def run_pairing(
    variant: str,
    levels: tuple[str, ...],
    games: int,
    seconds: float | None,
    seed: int,
    jobs: int,
) -> str:
    n = len(levels)
    plans: list[tuple[Job, tuple[int, ...]]] = []
    for i in range(games):
        shift = i % n
        seats = tuple(levels[(s + shift) % n] for s in range(n))
        owner = tuple((s + shift) % n for s in range(n))  # seat -> index in levels
        plans.append(((variant, seats, seed + i, seconds), owner))
    job_list = [job for job, _ in plans]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(play_game, job_list, chunksize=1)
    else:
        results = [play_game(job) for job in job_list]
    wins = [0.0] * n  # by place in the pairing
    ranks = [0.0] * n
    scores: dict[str, list[int]] = {level: [] for level in levels}
    times: dict[str, list[float]] = {level: [] for level in levels}
    for (_, owner), (final, winners, rank, seat_times) in zip(
        plans, results, strict=True
    ):
        for seat, index in enumerate(owner):
            scores[levels[index]].append(final[seat])
            times[levels[index]].extend(seat_times[seat])
            ranks[index] += rank[seat] / games
            if seat in winners:
                wins[index] += 1 / len(winners)
    share = wins[0] / games
    low, high = wilson(share, games)
    average = ", ".join(
        f"{level} {sum(v) / len(v):.1f}" for level, v in scores.items() if v
    )
    timing = ", ".join(
        f"{level} {percentile(v, 0.5) * 1000:.0f}/{percentile(v, 0.95) * 1000:.0f}"
        for level, v in times.items()
    )
    places = ", ".join(
        f"{level} {w / games:.0%} / {r:.2f}"
        for level, w, r in zip(levels, wins, ranks, strict=True)
    )
    return (
        f"| {variant} | {' v '.join(levels)} | {games} | {share:.1%} "
        f"[{low:.1%}, {high:.1%}] | {places} | {average} | {timing} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="per pairing")
    parser.add_argument("--seconds", type=float, default=None, help="strong budget")
    parser.add_argument("--variants", default="classic,pavilion")
    parser.add_argument("--pairings", default=DEFAULT_PAIRINGS)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    budget = "default" if args.seconds is None else f"{args.seconds} s"
    print(
        f"{args.games} games per pairing, strong budget {budget}, "
        f"{args.jobs} process(es); win share of the first level [95 % Wilson]"
    )
    print(
        "| variant | pairing | games | first level wins | each seat's wins / "
        "average rank | average score | decision CPU ms p50/p95 |"
    )
    print("|---|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        for pairing in args.pairings.split(","):
            levels = tuple(pairing.split(":"))
            line = run_pairing(
                variant, levels, args.games, args.seconds, args.seed, args.jobs
            )
            print(line, flush=True)


if __name__ == "__main__":
    main()
