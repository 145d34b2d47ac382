"""Fit the classic board value (``games/engine/value.py``) from self-play.

    .venv/bin/python tools/train_value.py play --games 600 --level strong-1 \\
        --seconds 0.1 --jobs 2 --out /tmp/value-data.jsonl
    .venv/bin/python tools/train_value.py fit /tmp/value-data.jsonl [more.jsonl]

``play`` plays games of one family's variants (2, 3 and 4 players in turn) with
one computer level in every seat, its deals drawn from ``random.Random(seed +
i)``, and writes one line per seat and sampled position — classic: every
round's end; Summer Pavilion: every round's end and a tenth of the other
positions — with the seat's features (``value.FEATURES``,
``value.PAVILION_FEATURES``), the stage and the points it went on to add to its
score by the game's end (the target). ``fit`` fits one ridge regression per stage over
the files it is given and writes ``games/engine/value_classic.json``, printing
each stage's sample count and its mean absolute error on a held-out fifth.

Fitting needs NumPy (the project's ``dev`` extra); the site does not: it reads
the weights with the standard library.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import value  # noqa: E402
from games.engine.bots import choose, pavilion_row  # noqa: E402
from games.engine.classic import ClassicGame  # noqa: E402
from games.engine.pavilion import PavilionGame  # noqa: E402
from games.engine.record import new_game  # noqa: E402
from games.engine.variants import CLASSIC_FAMILY, PAVILION_FAMILY, Family  # noqa: E402

FAMILIES: dict[str, tuple[Family, value.Model]] = {
    CLASSIC_FAMILY.name: (CLASSIC_FAMILY, value.CLASSIC),
    PAVILION_FAMILY.name: (PAVILION_FAMILY, value.PAVILION),
}

PAVILION_SAMPLED = 0.1
"""The share of Summer Pavilion positions sampled besides every round's end
(their leaves are mostly in the middle of a round)."""
RIDGE = 1.0
"""The ridge penalty on every weight but the bias (features are counts of a few)."""

Job = tuple[str, int, str, float, int]


def pavilion_rows(game: PavilionGame) -> list[tuple[int, list[float], int, int]]:
    """Each seat, its features, the stage and its score, where the strong level
    would value them (``bots.pavilion_row``)."""
    rows = []
    for seat in range(game.players):
        learned = pavilion_row(game, seat)
        if learned is not None:
            rows.append((seat, learned[0], learned[1], game.scores[seat]))
    return rows


def play(job: Job) -> list[dict[str, Any]]:
    """One self-play game's samples."""
    variant, players, level, seconds, seed = job
    rng = random.Random(seed)
    bots = random.Random(seed ^ 0x5EED)
    game = new_game(variant, players, first_seat=rng.randrange(players))
    sampler = random.Random(seed ^ 0xDA7A)
    pending: list[tuple[int, list[float], int, int]] = []
    while not game.is_over():
        if game.family is PAVILION_FAMILY and (
            game.deal_due() or sampler.random() < PAVILION_SAMPLED
        ):
            pending.extend(pavilion_rows(cast(PavilionGame, game)))
        if game.needs_chance():
            if game.family is CLASSIC_FAMILY and game.round > 1:
                classic = cast(ClassicGame, game)
                for seat, (row, stage) in enumerate(value.classic_round_end(classic)):
                    pending.append((seat, row, stage, classic.boards[seat].score))
            game.chance(rng)
            continue
        move = choose(game, level, seconds=seconds, seed=bots.randrange(1 << 30))
        game.play(move)
    final = game.scores
    return [
        {"x": row, "stage": stage, "y": final[seat] - score}
        for seat, row, stage, score in pending
    ]


def play_command(args: argparse.Namespace) -> None:
    variants = [variant.name for variant in FAMILIES[args.family][0].variants()]
    jobs = [
        (variants[i % 2], 2 + (i // 2) % 3, args.level, args.seconds, args.seed + i)
        for i in range(args.games)
    ]
    with multiprocessing.Pool(args.jobs) as pool, open(args.out, "a") as out:
        for samples in pool.imap_unordered(play, jobs, chunksize=1):
            for sample in samples:
                out.write(json.dumps(sample) + "\n")
            out.flush()


def fit_command(args: argparse.Namespace) -> None:
    import numpy as np

    model = FAMILIES[args.family][1]
    samples: list[dict[str, Any]] = []
    for path in args.data:
        with open(path) as lines:
            samples.extend(json.loads(line) for line in lines)
    random.Random(args.seed).shuffle(samples)
    stages: list[list[float]] = []
    spreads: list[float] = []
    print("| stage | samples | held-out MAE | RMSE | MAE of the mean | mean gain |")
    print("|---|---|---|---|---|---|")
    for stage in range(model.stages):
        chosen = [s for s in samples if s["stage"] == stage]
        if len(chosen) < 2 * len(model.features):
            stages.append([0.0] * len(model.features))
            spreads.append(0.0)
            continue
        x = np.array([s["x"] for s in chosen], dtype=float)
        y = np.array([s["y"] for s in chosen], dtype=float)
        held = len(chosen) // 5
        penalty = RIDGE * np.eye(x.shape[1])
        penalty[0, 0] = 0.0
        train_x, train_y = x[held:], y[held:]
        w = np.linalg.solve(train_x.T @ train_x + penalty, train_x.T @ train_y)
        error = float(np.mean(np.abs(x[:held] @ w - y[:held])))
        plain = float(np.mean(np.abs(np.mean(train_y) - y[:held])))
        spread = float(np.sqrt(np.mean((x[:held] @ w - y[:held]) ** 2)))
        w = np.linalg.solve(x.T @ x + penalty, x.T @ y)  # then on all of them
        print(
            f"| {stage} | {len(chosen)} | {error:.2f} | {spread:.2f} | {plain:.2f} "
            f"| {float(np.mean(y)):.1f} |"
        )
        stages.append([round(float(v), 4) for v in w])
        spreads.append(round(spread, 3))
    document = {
        "about": "games/engine/value.py's weights, written by tools/train_value.py",
        "features": list(model.features),
        "samples": len(samples),
        "stages": stages,
        "rmse": spreads,
    }
    model.file.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {model.file} from {len(samples)} samples")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play_parser = commands.add_parser("play", help="self-play samples")
    play_parser.add_argument("--family", choices=sorted(FAMILIES), default="classic")
    play_parser.add_argument("--games", type=int, default=600)
    play_parser.add_argument("--level", default="strong-1")
    play_parser.add_argument("--seconds", type=float, default=0.1)
    play_parser.add_argument("--jobs", type=int, default=2)
    play_parser.add_argument("--seed", type=int, default=1)
    play_parser.add_argument("--out", required=True)
    fit_parser = commands.add_parser("fit", help="fit and write the weights")
    fit_parser.add_argument("--family", choices=sorted(FAMILIES), default="classic")
    fit_parser.add_argument("data", nargs="+")
    fit_parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.command == "play":
        play_command(args)
    else:
        fit_command(args)


if __name__ == "__main__":
    main()
