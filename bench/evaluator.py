"""Calibration of the evaluator (games/engine/evaluate.py, issue #27 item 1).

Plays ``--games`` two-player games of each family with each pair of players
(the greedy policy the evaluator's playouts use; the medium computer; the
strong computer at ``--strong-seconds``), evaluates the position after each
deal with ``--samples`` playouts, and compares the prediction for seat 0 with
how the game ended. Prints, per family, players and round: how many
positions, the mean predicted and actual margin, their mean error (bias) and
mean absolute error, and the Brier score of the predicted win (0.25 = a coin,
0 = certain and right); then the CPU time of one evaluation. Usage:

    .venv/bin/python bench/evaluator.py
    .venv/bin/python bench/evaluator.py --games 100 --samples 64
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import bots, policy  # noqa: E402
from games.engine.common import Game  # noqa: E402
from games.engine.evaluate import evaluate  # noqa: E402
from games.engine.record import new_game  # noqa: E402

Player = Callable[[Game, random.Random], object]


def players(strong_seconds: float) -> dict[str, Player]:
    return {
        "greedy": policy.choose_move,
        "medium": lambda game, rng: bots.choose(
            game, "medium", seed=rng.randrange(9**9)
        ),
        "strong": lambda game, rng: bots.choose(
            game, "strong", seconds=strong_seconds, seed=rng.randrange(9**9)
        ),
    }


def one_game(
    variant: str, play: Player, seed: int, samples: int
) -> tuple[list[tuple[int, float, float]], float, bool, list[float]]:
    """(round, predicted margin, predicted win) of seat 0 after each deal; the
    final margin; whether seat 0 won; the CPU seconds of each evaluation."""
    rng = random.Random(seed)
    game = new_game(variant, 2, first_seat=seed % 2)
    seen: list[tuple[int, float, float]] = []
    costs: list[float] = []
    while not game.is_over():
        if game.needs_chance():
            dealt = "deal" in game.chance(rng)
            if dealt and not game.is_over():
                start = time.process_time()
                value = evaluate(game, samples=samples, seed=seed)
                costs.append(time.process_time() - start)
                seen.append((game.round, value.margins[0], value.wins[0]))
            continue
        game.push(play(game, rng))
    outcome = game.outcome()
    assert outcome is not None
    margin = outcome.scores[0] - outcome.scores[1]
    return (
        seen,
        float(margin),
        0 in outcome.winners and len(outcome.winners) == 1,
        costs,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--strong-seconds", type=float, default=0.1)
    parser.add_argument("--players", default="greedy,medium,strong")
    args = parser.parse_args()
    print(
        f"{args.games} two-player games per family and player; {args.samples} "
        f"playouts an evaluation; strong at {args.strong_seconds:g} s a decision"
    )
    print(
        f"{'family':9} {'players':8} {'round':>5} {'n':>4} {'predicted':>10} "
        f"{'actual':>8} {'bias':>7} {'MAE':>6} {'Brier':>6}"
    )
    costs: dict[str, list[float]] = defaultdict(list)
    for variant in ("classic", "pavilion"):
        for name in args.players.split(","):
            play = players(args.strong_seconds)[name]
            rows: dict[int, list[tuple[float, float, float, float]]] = defaultdict(list)
            for number in range(args.games):
                seen, margin, won, spent = one_game(
                    variant, play, 1000 + number, args.samples
                )
                costs[variant] += spent
                for number_, predicted, win in seen:
                    rows[number_].append((predicted, margin, win, float(won)))
            everything = [r for rs in rows.values() for r in rs]
            cuts = [(str(r), rows[r]) for r in sorted(rows)] + [("all", everything)]
            for label, cut in cuts:
                predicted = statistics.fmean(r[0] for r in cut)
                actual = statistics.fmean(r[1] for r in cut)
                bias = statistics.fmean(r[0] - r[1] for r in cut)
                mae = statistics.fmean(abs(r[0] - r[1]) for r in cut)
                brier = statistics.fmean((r[2] - r[3]) ** 2 for r in cut)
                print(
                    f"{variant:9} {name:8} {label:>5} {len(cut):>4} "
                    f"{predicted:>10.2f} {actual:>8.2f} {bias:>7.2f} {mae:>6.2f} "
                    f"{brier:>6.3f}"
                )
    for variant, spent in costs.items():
        print(
            f"{variant}: one evaluation ({args.samples} playouts, after a deal) "
            f"median {statistics.median(spent) * 1000:.0f} ms CPU, "
            f"max {max(spent) * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
