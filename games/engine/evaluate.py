"""What a position is worth (issue #27 item 1): each seat's expected final
outcome, averaged over the deals and supply refills still to come.

Method: Monte Carlo over the rest of the round, then the learned value. From
the position, ``samples`` playouts each draw every deal and refill with the
evaluator's own ``random.Random`` — from the public bag, lid and tower counts
only, as the engine's ``chance`` draws (the bag has no order to read, and the
game holds no random generator) — and play every decision with the built-in
greedy policy (``policy.choose_move``, tens of microseconds a decision) to the
end of the round: the round in progress, or, at a round's end, the next one
(its deal drawn first, so that a deal's luck is what it changed). There each
seat's final score is its score plus the future gain the strong computer's
learned value predicts (``value.finals``); a playout that reaches the game's
end is exact. A seat's chance of beating another, in one playout, is that of
a normal difference of their predictions with the learned value's own error
(``Model.spread``, held out of its fit): the win shares and ranks come from
those pairwise chances.

Why this method: the rounds still to come are valued as the strong computer
values them — the value it searches on, fitted to how strong players go on to
score — and not as two greedy players would play them out (this module's first
method: its win predictions for games between strong players were no better
than a coin); the round in progress, whose tiles are on the table, is played
out, so a decision's consequences inside the round are seen. It is right for
every variant and player count the learned value covers (all of them), and a
playout is a round, not a game, so it is several times cheaper. Its error over
games of other players is what ``bench/evaluator.py`` measures (the
calibration table in ``bench/README.md``).

Determinism: the same position, ``samples`` and ``seed`` give the same
evaluation; two positions evaluated with the same seed share their random
draws where they can (common random numbers), which makes their difference —
what a decision cost — less noisy than either value.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from . import value
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
    """``game`` (a copy) played on to a round's end (see the module docstring)
    or the game's: chance drawn with ``rng`` from the public counts, decisions
    by the greedy policy."""
    game = game.copy()
    played = False
    while not game.is_over():
        if game.needs_chance():
            if _deal_due(game):
                if played:
                    break  # a round's end
                played = True  # the deal is drawn: its round is played out
            game.chance(rng)
        else:
            game.push(choose_move(game, rng))
            played = True
    return game


def _deal_due(game: Game) -> bool:
    """A round's deal is due (each family's ``Phase.DEAL``)."""
    return game.deal_due()


def _beats(difference: float, spread: float) -> float:
    """The chance that a seat predicted ``difference`` points ahead of another
    ends ahead of it, each prediction off by about ``spread`` (a shared end
    counts a half)."""
    if spread <= 0.0:
        return 1.0 if difference > 0 else 0.5 if difference == 0 else 0.0
    return 0.5 * (1.0 + math.erf(difference / (2.0 * spread)))


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
        finals, spread = value.finals(end)
        outcome = end.outcome()
        for seat in range(seats):
            final = finals[seat]
            scores[seat] += final
            margins[seat] += final - max(
                f for other, f in enumerate(finals) if other != seat
            )
        if outcome is not None:  # the game's end: exact, ties by the rules
            for seat in range(seats):
                ranks[seat] += outcome.ranks[seat]
                if seat in outcome.winners:
                    wins[seat] += 1 / len(outcome.winners)
            continue
        ahead = [
            [_beats(finals[s] - finals[t], spread) for t in range(seats)]
            for s in range(seats)
        ]
        first = [
            math.prod(ahead[s][t] for t in range(seats) if t != s) for s in range(seats)
        ]
        total = sum(first)
        for seat in range(seats):
            ranks[seat] += 1 + sum(ahead[t][seat] for t in range(seats) if t != seat)
            wins[seat] += first[seat] / total if total else 1 / seats
    return Evaluation(
        scores=tuple(v / samples for v in scores),
        margins=tuple(v / samples for v in margins),
        wins=tuple(v / samples for v in wins),
        ranks=tuple(v / samples for v in ranks),
        samples=samples,
    )
