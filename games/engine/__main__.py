"""Command line: ``replay FILE`` and ``random --variant V --players N --seed S``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import RecordError
from .record import VARIANTS, default_names, dumps, export, random_game, replay_summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a record, print the scores")
    replay.add_argument("file", type=Path)
    rand = commands.add_parser("random", help="print a record of a random game")
    rand.add_argument("--variant", choices=VARIANTS, required=True)
    rand.add_argument("--players", type=int, choices=(2, 3, 4), required=True)
    rand.add_argument("--seed", type=int, required=True)
    args = parser.parse_args(argv)

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


if __name__ == "__main__":
    sys.exit(main())
