"""Command line: ``replay FILE``, ``random --variant V --players N --seed S``,
``suggest --level L [--seconds S] [--seed N] FILE`` and
``review [--seconds S] [--seed N] FILE``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .bots import LEVELS, choose
from .common import RecordError
from .record import (
    default_names,
    dumps,
    export,
    load,
    random_game,
    replay_summary,
)
from .review import DEFAULT_SECONDS, review
from .variants import PLAYERS, VARIANT_NAMES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a record, print the scores")
    replay.add_argument("file", type=Path)
    rand = commands.add_parser("random", help="print a record of a random game")
    rand.add_argument("--variant", choices=VARIANT_NAMES, required=True)
    rand.add_argument("--players", type=int, choices=PLAYERS, required=True)
    rand.add_argument("--seed", type=int, required=True)
    suggest = commands.add_parser(
        "suggest", help="print a computer player's next decision for a record"
    )
    suggest.add_argument("--level", choices=LEVELS, required=True)
    suggest.add_argument("--seconds", type=float, default=None, help="strong's budget")
    suggest.add_argument("--seed", type=int, default=0)
    suggest.add_argument("file", type=Path)
    reviewed = commands.add_parser(
        "review", help="review a finished record, print the review as JSON"
    )
    reviewed.add_argument(
        "--seconds", type=float, default=DEFAULT_SECONDS, help="budget a decision"
    )
    reviewed.add_argument("--seed", type=int, default=0)
    reviewed.add_argument("file", type=Path)
    args = parser.parse_args(argv)

    if args.command == "review":
        return _review(args.file, args.seconds, args.seed)
    if args.command == "suggest":
        return _suggest(args.file, args.level, args.seconds, args.seed)

    if args.command == "replay":
        try:
            text = args.file.read_bytes()
        except OSError as error:
            print(f"record: cannot read {args.file}: {error.strerror}", file=sys.stderr)
            return 1
        try:
            summary = replay_summary(text)
        except RecordError as error:
            print(str(error), file=sys.stderr)
            return 1
        print(json.dumps(summary))
        return 0

    game = random_game(args.variant, args.players, args.seed)
    print(dumps(export(game, default_names(args.players))))
    return 0


def _review(file: Path, seconds: float, seed: int) -> int:
    """Print the review of a finished record (refused as ``replay`` refuses)."""
    try:
        text = file.read_bytes()
    except OSError as error:
        print(f"record: cannot read {file}: {error.strerror}", file=sys.stderr)
        return 1
    try:
        replay_summary(text)  # malformed or unfinished: the same refusal
        game = load(text).game
    except RecordError as error:
        print(str(error), file=sys.stderr)
        return 1
    done = review(
        game.events(),
        variant=game.variant,
        players=game.players,
        first_seat=game.first_seat,
        seconds=seconds,
        seed=seed,
    )
    print(json.dumps(done.to_json()))
    return 0


def _suggest(file: Path, level: str, seconds: float | None, seed: int) -> int:
    """Print the decision of ``level`` for a record in progress as one event."""
    try:
        text = file.read_bytes()
    except OSError as error:
        print(f"record: cannot read {file}: {error.strerror}", file=sys.stderr)
        return 1
    try:
        game = load(text).game
    except RecordError as error:
        print(str(error), file=sys.stderr)
        return 1
    count = len(game.events())
    if game.is_over():
        print(
            f"event {count}: the game is over, there is no decision to make",
            file=sys.stderr,
        )
        return 1
    if game.needs_chance():
        due = "a deal" if game.deal_due() else "a supply draw"
        print(
            f"event {count}: the next event is {due} (chance), not a decision",
            file=sys.stderr,
        )
        return 1
    move = choose(game, level, seconds=seconds, seed=seed)
    print(json.dumps(move.to_event()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
