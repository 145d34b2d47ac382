"""What a position is worth (issue #27 item 1): each seat's expected final
outcome, averaged over the deals and supply refills still to come.

Method: Monte Carlo over the future. From the position, ``samples`` playouts
each draw every deal and refill still to come with the evaluator's own
``random.Random`` — from the public bag, lid and tower counts only, as the
engine's ``chance`` draws (the bag has no order to read, and the game holds no
random generator) — and play every decision with the built-in greedy policy
(``policy.choose_move``, tens of microseconds a decision) to the end. The
evaluation is the mean over the playouts of each seat's final score, margin
and rank, and each seat's share of the wins (a shared win split).

Why this method: it is right by construction where a learned value is only
right on what it was trained on — a Summer Pavilion position, a grey wall,
four players, a game's last round with nine tiles left in the bag all come
for free, exactly scored, with no weights to train or keep; and it needs
nothing beyond the engine. What it is not: a prediction of how *these*
players will play on. Its playouts play like the greedy policy, so it reads a
position as two greedy players would carry it on. Its error over games played
by other players is what ``bench/evaluator.py`` measures (the calibration
table in ``bench/README.md``); a learned correction on top of it, and the
search that uses it, are the next steps of issue #27.

Determinism: the same position, ``samples`` and ``seed`` give the same
evaluation; two positions evaluated with the same seed share their random
draws where they can (common random numbers), which makes their difference —
what a decision cost — less noisy than either value.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .common import Game
from .policy import choose_move

DEFAULT_SAMPLES = 64
"""Playouts of one evaluation unless the caller says otherwise."""


@dataclass(frozen=True)
class Evaluation:
    """Each seat's expected final outcome (seat order), over ``samples`` playouts."""

    scores: tuple[float, ...]
    """Expected final score."""
    margins: tuple[float, ...]
    """Expected final score minus the best other seat's final score."""
    wins: tuple[float, ...]
    """Probability of winning (a win shared by k seats counts 1/k each)."""
    ranks: tuple[float, ...]
    """Expected final rank (1 = first; tied seats share the better rank)."""
    samples: int


def playout(game: Game, rng: random.Random) -> Game:
    """``game`` (a copy) played to its end: chance drawn with ``rng`` from the
    public counts, decisions by the greedy policy."""
    game = game.copy()
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
        else:
            game.push(choose_move(game, rng))
    return game


def evaluate(
    game: Game, *, samples: int = DEFAULT_SAMPLES, seed: int = 0
) -> Evaluation:
    """What ``game``'s position is worth to each seat; ``game`` is not changed."""
    if samples < 1:
        raise ValueError("an evaluation needs at least one playout")
    seats = game.players
    scores = [0.0] * seats
    margins = [0.0] * seats
    wins = [0.0] * seats
    ranks = [0.0] * seats
    for sample in range(samples):
        end = playout(game, random.Random(seed * 1_000_003 + sample))
        outcome = end.outcome()
        assert outcome is not None  # played to its end
        for seat in range(seats):
            final = outcome.scores[seat]
            best_other = max(
                s for other, s in enumerate(outcome.scores) if other != seat
            )
            scores[seat] += final
            margins[seat] += final - best_other
            ranks[seat] += outcome.ranks[seat]
            if seat in outcome.winners:
                wins[seat] += 1 / len(outcome.winners)
    return Evaluation(
        scores=tuple(v / samples for v in scores),
        margins=tuple(v / samples for v in margins),
        wins=tuple(v / samples for v in wins),
        ranks=tuple(v / samples for v in ranks),
        samples=samples,
    )
