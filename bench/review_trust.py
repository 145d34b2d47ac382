"""Can the review be believed (issue #34 item 1)? Its verdicts on games whose
better side is known, printed against the issue's targets.

Pairings, two players, ``--games`` games each per family (seeds 1, 2, …; each
game's seats alternate who starts):

- ``self``: strong against strong. Target: mean loss at most 0.5 points a
  decision, at most one blunder in ten games; and, reviewed a second time with
  another seed, the same label on at least 90 % of the decisions.
- ``medium`` and ``easy``: strong against them. Target: strong rated more
  accurate in at least 95 % of the games against medium, in all against easy.
- ``deep``: strong at ``--deep`` times its default budget against strong at
  the default. Target: the deeper side rated more accurate in at least 80 %.

And in every pairing, the story the review tells of each seat (its margin
expected at the start, plus luck, less its losses, plus the others') against
its actual margin: the mean gap, at most 5 points at two players.

Each game is reviewed at ``--seconds`` a decision (the site's
``REVIEW_SECONDS``). The games are kept as records in ``bench/games/`` (a
game of strong at 16 times its budget costs a quarter of an hour of CPU in
Azul, more in Summer Pavilion) and read back when run again: the review is
what changes between runs, the games are the benchmark's fixed set. Prints
one line per game, then the figures per pairing.
Run the families in parallel on two cores with ``--family``. Usage:

    .venv/bin/python bench/review_trust.py --games 20 --family classic
    .venv/bin/python bench/review_trust.py --family classic --no-again
    .venv/bin/python bench/review_trust.py --games 3 --pairings self,medium
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import bots  # noqa: E402
from games.engine.common import Game  # noqa: E402
from games.engine.record import dumps, export, load, new_game  # noqa: E402
from games.engine.review import DEFAULT_SECONDS, Review, review  # noqa: E402

PAIRINGS = ("self", "medium", "easy", "deep")
GAMES = Path(__file__).resolve().parent / "games"


def kept(
    variant: str, pairing: str, number: int, levels: list[tuple[str, float | None]]
) -> Game:
    """Game ``number`` of ``pairing``: read from ``GAMES``, or played and kept."""
    path = GAMES / f"review-trust-{variant}-{pairing}-{number:02}.json"
    if path.exists():
        return load(path.read_text()).game
    seed = 1000 * PAIRINGS.index(pairing) + number
    game = play(variant, seed, levels)
    names = [f"{level} {seconds or 'default'} s" for level, seconds in levels]
    GAMES.mkdir(exist_ok=True)
    path.write_text(dumps(export(game, names)))
    return game


def play(variant: str, seed: int, levels: list[tuple[str, float | None]]) -> Game:
    rng = random.Random(seed)
    game = new_game(variant, 2, first_seat=seed % 2)
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            continue
        seat = game.to_move()
        assert seat is not None
        level, seconds = levels[seat]
        game.push(bots.choose(game, level, seconds=seconds, seed=rng.randrange(10**6)))
    return game


def reviewed(game: Game, seconds: float, seed: int) -> Review:
    return review(
        game.events(),
        variant=game.variant,
        players=2,
        first_seat=game.first_seat,
        seconds=seconds,
        seed=seed,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument(
        "--first", type=int, default=1, help="start at this game (the others kept)"
    )
    parser.add_argument("--family", default="classic,pavilion")
    parser.add_argument("--pairings", default=",".join(PAIRINGS))
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    parser.add_argument("--deep", type=float, default=16.0)
    parser.add_argument(
        "--again",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="review each self-play game a second time, with another seed "
        "(--no-again: Azul draws nothing inside a round, so its labels are "
        "the same twice by construction)",
    )
    args = parser.parse_args()
    strong = bots.DEFAULT_SECONDS["strong"]
    print(f"review at {args.seconds:g} s a decision; {args.games} games a pairing")
    for variant in args.family.split(","):
        for pairing in args.pairings.split(","):
            losses: list[float] = []
            blunders = 0
            agree = weighed = 0
            wins = 0
            gaps: list[float] = []
            played = range(args.first - 1, args.games)
            for number in played:
                other = {
                    "self": ("strong", None),
                    "medium": ("medium", None),
                    "easy": ("easy", None),
                    "deep": ("strong", strong),
                }[pairing]
                first: tuple[str, float | None] = (
                    ("strong", strong * args.deep)
                    if pairing == "deep"
                    else ("strong", None)
                )
                # the side judged better (first) plays seat 0 in odd games
                levels = [first, other] if number % 2 else [other, first]
                better = 0 if number % 2 else 1
                game = kept(variant, pairing, number + 1, levels)
                start = time.process_time()
                done = reviewed(game, args.seconds, seed=0)
                spent = time.process_time() - start
                decisions = [d for d in done.decisions if not d.forced]
                accuracy = [s.accuracy for s in done.seats]
                line = (
                    f"{variant:8} {pairing:6} game {number + 1:>2}: "
                    f"{game.scores[0]:>3}-{game.scores[1]:<3} "
                    f"accuracy {accuracy[0]:5.1f} / {accuracy[1]:5.1f}  "
                    f"lost {done.seats[0].lost:5.1f} / {done.seats[1].lost:5.1f}  "
                    f"story gap {done.seats[0].gap:+5.1f} / {done.seats[1].gap:+5.1f}  "
                    f"CPU {spent:5.1f} s  weighed {len(decisions)}  "
                    f"labels {sum(bool(d.label) for d in decisions)} "
                    f"(blunders {sum(d.label == 'blunder' for d in decisions)})"
                )
                gaps += [abs(s.gap) for s in done.seats if s.gap is not None]
                if pairing == "self":
                    losses += [d.lost for d in decisions]
                    blunders += sum(d.label == "blunder" for d in decisions)
                if pairing == "self" and args.again:
                    again = reviewed(game, args.seconds, seed=1)
                    labels = [d.label for d in again.decisions if not d.forced]
                    same = sum(
                        a == d.label for a, d in zip(labels, decisions, strict=True)
                    )
                    agree += same
                    weighed += len(decisions)
                    line += f"  same label twice {same}"
                if pairing != "self":
                    wins += accuracy[better] > accuracy[1 - better]
                print(line, flush=True)
            print(
                f"== {variant} {pairing}: the story's mean gap "
                f"{sum(gaps) / max(1, len(gaps)):.1f} points (target <= 5)",
                flush=True,
            )
            if pairing == "self":
                mean = sum(losses) / max(1, len(losses))
                print(
                    f"== {variant} self: mean loss {mean:.2f} a decision "
                    f"(target <= 0.5); blunders {blunders} in {len(played)} games "
                    f"(target <= {len(played) / 10:g}); same label twice "
                    + (
                        f"{100 * agree / weighed:.1f} % (target >= 90 %)"
                        if weighed
                        else "not measured (--no-again)"
                    ),
                    flush=True,
                )
            else:
                target = {"medium": 95, "easy": 100, "deep": 80}[pairing]
                print(
                    f"== {variant} {pairing}: the better side more accurate in "
                    f"{wins} of {len(played)} ({100 * wins / len(played):.0f} %; "
                    f"target >= {target} %)",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
