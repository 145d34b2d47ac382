"""The review of a finished game (issue #27 item 3, the engine's part): what
each decision cost, how lucky each deal and supply draw was, and each seat's
accuracy, by the strong level's search (``bots.weigh``) and, with more than
two players, the evaluator (``evaluate.py``).

- **Decisions.** At each decision the one played and the strong level's most
  promising others (``bots.candidates``, ``CANDIDATES`` of them) are each
  weighed by the strong level's search from the position after it to the
  round's end, on the margin alone, with a full window (``bots.weigh``), the
  budget shared between them and their searches deepened in step, so that
  all are valued at the same depth: a judge that looks deeper at each
  decision than the strong level did when it chose (issue #34: greedy
  playouts, the first judge, charged searched play with their own
  shallowness). A decision's *loss* is the best one's value minus the played
  one's, in expected final points; its *spread*, how far that moved in the
  search's last two completed iterations of one parity (0 when the rest of
  the round was searched whole). Its label, by ``THRESHOLDS`` on the loss
  less its spread: a blunder from 10 points, a mistake from 5, an inaccuracy
  from 2; a loss that would be a mistake or a blunder is weighed again
  first, deeper and over other draws of the refills (:func:`_again`). A
  forced decision (the only legal one) is not weighed and never labelled.
  The budget is pooled within a round (:func:`_judged`). At two players the
  played decision is worth what the next decision's weighing found
  (``bots.Verdicts``), the others as much more or less than it as they were
  weighed: the judge keeps one verdict from one decision to the next.
- **Chance.** Each deal and supply draw: its *luck* for each seat is the
  seat's expected margin after the draw minus before it. At two players the
  story is told on the judge's yardstick: before a deal, the value the
  judge's leaves give a round's end (``bots.margins``), before a supply
  draw, the decision's before it; after, the judge's value of the best
  decision at the next decision weighed (draws in a row: their luck on the
  first); the chart's line after a decision, the value of the one played.
  So a seat's story (below) misses its result only by the judge's second
  thoughts, none within a round. With more players the judge values the
  mover's margin only: the evaluator measures the draws (before, it averages
  over every draw the public counts allow; so over many draws a seat's luck
  averages about zero) and the chart.
- **Seats.** A seat's *lost* is the sum of its losses (skill), its *luck* the
  sum of its draws' luck; its *accuracy* the mean over its weighed decisions
  of ``100 × exp(−loss / ACCURACY_SCALE)``: 100 for a game of best decisions,
  37 for a decision that threw away 5 points.

Only a finished game is reviewed (:func:`review` refuses any other). The
budget is ``seconds`` per decision, counted as search nodes as the strong level
counts them, three times over (:func:`judge_nodes`, ``JUDGE_TIMES``),
and with more than two players as the evaluator's playouts for the draws and
the timeline (``PLAYOUTS_PER_SECOND`` of the family, fewer with more players),
never the clock: the same record, ``seconds`` and ``seed`` give the same
review on any machine.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from . import bots
from .bots import NODES_PER_SECOND, Decision, candidates, weigh
from .common import Game
from .evaluate import evaluate
from .record import new_game
from .variants import CLASSIC_FAMILY, PAVILION_FAMILY, find_variant

CANDIDATES = 5
"""The strong level's likeliest decisions weighed beside the played one."""
THRESHOLDS = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
"""Labels by expected points lost, worst first."""
CONFIRMED = ("blunder", "mistake")
"""The labels a decision is weighed again for before it is given one
(:func:`_again`)."""
AGAIN_NODES = 4
"""The second weighing's nodes, in times the first's."""
AGAIN_SEEDS = 4
"""The most draws of Summer Pavilion's refills the second weighing averages."""
AGAIN_SEED_STEP = 7919
"""The second weighing's seeds: the first's plus multiples of this prime, so
that no two decisions' weighings share a draw."""
ACCURACY_SCALE = 5.0
PLAYOUTS_PER_SECOND = {CLASSIC_FAMILY.name: 5000, PAVILION_FAMILY.name: 1400}
"""Evaluator playouts one second buys on the development machine with two
players, by family (measured over a game's positions: 0.18 ms and 0.67 ms a
playout to the round's end)."""
MIN_SAMPLES = 8
MIN_NODES = 200
TIMELINE_SHARE = 8
"""The evaluator's playouts after each decision (the chart's line) cost this
fraction of what the budget would buy in playouts."""
DEFAULT_SECONDS = 0.75
"""The budget of each decision, in seconds of the development machine: the
command line's default and the site's (``settings.REVIEW_SECONDS``, unset).
Three quarters of a second since the search's nodes were re-priced at what
they cost (issue #40, ``bots.NODES_PER_SECOND``): the CPU a review cost at
one second before, its judge a fifth deeper."""
JUDGE_TIMES = {CLASSIC_FAMILY.name: 3.0, PAVILION_FAMILY.name: 3.0}
"""The judge's nodes a decision, in times what ``seconds`` buy, by family.
The judge must look deeper than the play it judges: on the nodes
``seconds`` buy it could not tell play at sixteen times the strong level's
budget from the strong level's (more accurate in 14 of 20 Azul games, 7 of
14 Summer Pavilion ones; issue #34), on three times them it does (19 of 20
in Azul, 20 of 20 in Summer Pavilion; ``bench/README.md``). A two-player
review then costs about two minutes of one core in Azul (about 55
decisions weighed) and about five in Summer Pavilion (about 135)."""
FORMAT_VERSION = 1
"""The version of :meth:`Review.to_json`'s format, which :meth:`Review.from_json`
checks (a review stored before it was written has none: version 1)."""
ALTERNATIVES_KEPT = 3
"""A weighed decision's best others that :meth:`Review.to_json` keeps (the
Review tab lists three)."""


@dataclass(frozen=True)
class DecisionReview:
    event: int
    """Its index in the record's events."""
    seat: int
    played: dict[str, Any]
    best: dict[str, Any]
    lost: float
    """Expected final points the played decision gave away against the best."""
    label: str
    """``blunder``, ``mistake``, ``inaccuracy`` or empty."""
    forced: bool
    alternatives: tuple[tuple[dict[str, Any], float], ...]
    """The decisions weighed and the mover's expected margin after each, best first."""
    spread: float
    """How sure the loss is, in the same points: a label needs the loss less
    this to clear its threshold."""


@dataclass(frozen=True)
class ChanceReview:
    event: int
    kind: str
    """``deal`` or ``supply``."""
    luck: tuple[float, ...]
    """Each seat's expected margin after the draw minus before it."""


@dataclass(frozen=True)
class SeatReview:
    seat: int
    lost: float
    luck: float
    accuracy: float
    labels: Mapping[str, int]
    start: float = 0.0
    """Its expected margin at the start (before the first draw)."""
    others: float = 0.0
    """What the other seats' losses gave it: their points lost, shared
    between the seats they did not lose them to (all of them at two)."""
    actual: float | None = None
    """Its final margin (score minus the best other's), when the game was
    played to its end."""

    @property
    def expected(self) -> float:
        """The story of its game told by the review: the margin expected at
        the start, plus its luck, less its own losses, plus the others'."""
        return self.start + self.luck - self.lost + self.others

    @property
    def gap(self) -> float | None:
        """How far the story is from the result: actual less expected."""
        return None if self.actual is None else self.actual - self.expected


@dataclass(frozen=True)
class Review:
    decisions: tuple[DecisionReview, ...]
    chances: tuple[ChanceReview, ...]
    seats: tuple[SeatReview, ...]
    timeline: tuple[tuple[float, ...], ...]
    """Each seat's expected margin after each event (the chart's line)."""

    def to_json(self) -> dict[str, Any]:
        """What ``python -m games.engine review`` prints and the site stores
        (``GameReview.data``): the figures rounded (points to two decimals,
        accuracy to one), each weighed decision's ``ALTERNATIVES_KEPT`` best
        others by its event's index, and the format's ``version``;
        :meth:`from_json` reads it back."""
        return {
            "version": FORMAT_VERSION,
            "decisions": [
                {
                    "event": d.event,
                    "seat": d.seat,
                    "played": d.played,
                    "best": d.best,
                    "lost": round(d.lost, 2),
                    "spread": round(d.spread, 2),
                    "label": d.label,
                    "forced": d.forced,
                }
                for d in self.decisions
            ],
            "chances": [
                {
                    "event": c.event,
                    "kind": c.kind,
                    "luck": [round(v, 2) for v in c.luck],
                }
                for c in self.chances
            ],
            "seats": [
                {
                    "seat": s.seat,
                    "lost": round(s.lost, 2),
                    "luck": round(s.luck, 2),
                    "accuracy": round(s.accuracy, 1),
                    **dict(s.labels),
                    "start": round(s.start, 2),
                    "others": round(s.others, 2),
                    "actual": s.actual,
                }
                for s in self.seats
            ],
            "timeline": [[round(v, 2) for v in point] for point in self.timeline],
            "alternatives": {
                str(d.event): [
                    [event, round(value, 2)]
                    for event, value in d.alternatives[:ALTERNATIVES_KEPT]
                ]
                for d in self.decisions
                if not d.forced
            },
        }

    @classmethod
    def from_json(cls, data: object) -> Review:
        """The review :meth:`to_json` wrote (its figures rounded, its
        decisions' ``ALTERNATIVES_KEPT`` best others), or ValueError for an
        unknown ``version`` or data of another shape. A review written before
        the format had a version reads as version 1, and what it lacks as its
        writer meant it: a decision's ``spread`` 0, a seat's ``start`` and
        ``others`` 0 and ``actual`` None (no story), labels never counted 0,
        no ``timeline`` or ``alternatives`` none."""
        review = _object(data, "the review")
        version = _int(review.get("version", FORMAT_VERSION), "its version")
        if version != FORMAT_VERSION:
            raise ValueError(
                f"review: unknown format version {version} (this one reads "
                f"{FORMAT_VERSION})"
            )
        weighed = _object(review.get("alternatives", {}), "its alternatives")
        decisions = []
        for number, item in enumerate(_list(review, "decisions")):
            decision = _object(item, f"decision {number}")
            event = _int(decision.get("event"), f"decision {number}'s event")
            forced = _bool(decision.get("forced"), f"decision {number}'s forced")
            decisions.append(
                DecisionReview(
                    event=event,
                    seat=_int(decision.get("seat"), f"decision {number}'s seat"),
                    played=_event(
                        decision.get("played"), f"decision {number}'s played"
                    ),
                    best=_event(decision.get("best"), f"decision {number}'s best"),
                    lost=_number(decision.get("lost"), f"decision {number}'s lost"),
                    label=_str(decision.get("label"), f"decision {number}'s label"),
                    forced=forced,
                    alternatives=()
                    if forced
                    else _alternatives(weighed.get(str(event), []), event),
                    spread=_number(
                        decision.get("spread", 0.0), f"decision {number}'s spread"
                    ),
                )
            )
        chances = []
        for number, item in enumerate(_list(review, "chances")):
            chance = _object(item, f"chance {number}")
            chances.append(
                ChanceReview(
                    event=_int(chance.get("event"), f"chance {number}'s event"),
                    kind=_str(chance.get("kind"), f"chance {number}'s kind"),
                    luck=_numbers(chance.get("luck"), f"chance {number}'s luck"),
                )
            )
        seats = []
        for number, item in enumerate(_list(review, "seats")):
            seat = _object(item, f"seat {number}")
            actual = seat.get("actual")
            seats.append(
                SeatReview(
                    seat=_int(seat.get("seat"), f"seat {number}'s number"),
                    lost=_number(seat.get("lost"), f"seat {number}'s lost"),
                    luck=_number(seat.get("luck"), f"seat {number}'s luck"),
                    accuracy=_number(seat.get("accuracy"), f"seat {number}'s accuracy"),
                    labels={
                        name: _int(seat.get(name, 0), f"seat {number}'s {name}s")
                        for name, _ in THRESHOLDS
                    },
                    start=_number(seat.get("start", 0.0), f"seat {number}'s start"),
                    others=_number(seat.get("others", 0.0), f"seat {number}'s others"),
                    actual=None
                    if actual is None
                    else _number(actual, f"seat {number}'s actual"),
                )
            )
        timeline = review.get("timeline", [])
        if not isinstance(timeline, list):
            raise ValueError("review: its timeline is not a list")
        return cls(
            decisions=tuple(decisions),
            chances=tuple(chances),
            seats=tuple(seats),
            timeline=tuple(
                _numbers(point, f"the timeline's point {number}")
                for number, point in enumerate(timeline)
            ),
        )


def _object(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"review: {what} is not an object")
    return value


def _list(review: Mapping[str, Any], key: str) -> list[Any]:
    value = review.get(key)
    if not isinstance(value, list):
        raise ValueError(f"review: its {key} are not a list")
    return value


def _int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"review: {what} is not a whole number")
    return value


def _number(value: object, what: str) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ValueError(f"review: {what} is not a number")
    return value


def _numbers(value: object, what: str) -> tuple[float, ...]:
    if not isinstance(value, list):
        raise ValueError(f"review: {what} is not a list")
    return tuple(_number(v, what) for v in value)


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"review: {what} is not true or false")
    return value


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"review: {what} is not a string")
    return value


def _event(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"review: {what} is not a record event")
    return value


def _alternatives(
    value: object, event: int
) -> tuple[tuple[dict[str, Any], float], ...]:
    """A decision's stored alternatives: ``[event, value]`` pairs, best first."""
    what = f"the alternatives at event {event}"
    if not isinstance(value, list):
        raise ValueError(f"review: {what} are not a list")
    pairs = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"review: {what} are not [event, value] pairs")
        pairs.append((_event(pair[0], what), _number(pair[1], what)))
    return tuple(pairs)


def label(lost: float, spread: float = 0.0) -> str:
    """The label of a decision that gave away ``lost`` expected points, give
    or take ``spread``: only a loss that clears a threshold even at its
    smallest is labelled."""
    sure = lost - spread
    return next((name for name, limit in THRESHOLDS if sure >= limit), "")


def playouts(game: Game, seconds: float) -> int:
    """Playouts ``seconds`` buy for ``game``'s family and player count."""
    family = find_variant(game.variant).family.name
    rate = PLAYOUTS_PER_SECOND[family] * (2 / game.players) ** 1.4
    return max(MIN_SAMPLES, int(seconds * rate))


@dataclass(frozen=True)
class _Weighed:
    lost: float
    spread: float
    valued: tuple[tuple[dict[str, Any], float], ...]
    after: tuple[float, ...]
    """Every seat's expected margin after the played decision, by the
    evaluator (more than two players), or nothing."""
    spent: int
    """The search nodes it took."""


def judge_nodes(game: Game, seconds: float) -> int:
    """Search nodes ``seconds`` buy for ``game``'s family and player count, as
    the strong level counts them (``bots.NODES_PER_SECOND``), times the
    family's ``JUDGE_TIMES``."""
    family = find_variant(game.variant).family.name
    rate = NODES_PER_SECOND[family] * (2 / game.players) ** 1.5
    return max(MIN_NODES, int(seconds * JUDGE_TIMES[family] * rate))


def _weigh(
    game: Game,
    played: Decision,
    nodes: int,
    seed: int,
    *,
    evaluated: float | None = None,
    between: Callable[[], None] | None = None,
    verdicts: bots.Verdicts | None = None,
) -> _Weighed:
    """The played decision against the strong level's likeliest others, all
    weighed together by the strong level's search from their own positions
    to the round's end (``bots.weigh``: exact values on a full window, where
    the choice only bounded what it did not play; every decision valued at
    the same depth), on ``nodes``. The loss is the best's value minus the
    played one's; its spread, how far that moved two iterations earlier (0
    when the whole rest of the round was searched). With ``evaluated``
    (seconds), the evaluator's margins after the played decision too (more
    than two players). ``between`` is called as the weighing goes (a caller
    that must stop soon raises there). With ``verdicts`` (two players,
    shared by the round's decisions weighed after this one), the played
    decision is worth what the next decision's weighing found, the others as
    much more or less than it as they were weighed, and this decision's
    verdict is kept for the one before."""
    choices = [played] + [c for c in candidates(game, CANDIDATES) if c != played]
    found = weigh(game, choices, nodes=nodes, seed=seed, between=between)
    spent = sum(w.nodes for w in found)
    best, lost, spread = _loss(found)
    if label(lost, spread) in CONFIRMED:
        found, spread = _again(game, choices, nodes, seed, between)
        best, lost, _ = _loss(found)
    mine = found[0]
    verdict = None if verdicts is None else verdicts.after(game, played, seed)
    moved = 0.0 if verdict is None else verdict - mine.value
    if verdicts is not None:  # the decision before takes this one's verdict
        verdicts.decided(game, best.value + moved)
    weighed = sorted(found, key=lambda w: -w.value)
    after: tuple[float, ...] = ()
    if evaluated is not None:
        child = game.copy()
        child.push(played)
        samples = max(MIN_SAMPLES, playouts(game, evaluated) // TIMELINE_SHARE)
        after = evaluate(child, samples=samples, seed=seed).margins
    return _Weighed(
        lost=lost,
        spread=spread,
        valued=tuple((w.decision.to_event(), w.value + moved) for w in weighed),
        after=after,
        spent=spent,
    )


def _loss(found: Sequence[bots.Weighed]) -> tuple[bots.Weighed, float, float]:
    """The best of ``found`` (the played one, first, among equals), the
    played one's loss and its spread."""
    mine = found[0]
    best = max(found, key=lambda w: w.value)
    lost = best.value - mine.value
    return best, lost, abs(lost - (best.earlier - mine.earlier))


def _again(
    game: Game,
    choices: Sequence[Decision],
    nodes: int,
    seed: int,
    between: Callable[[], None] | None,
) -> tuple[list[bots.Weighed], float]:
    """``choices`` weighed again before a loss is called a mistake or worse:
    on ``AGAIN_NODES`` times ``nodes``, deeper, and with up to
    ``AGAIN_SEEDS`` other draws of Summer Pavilion's refills inside the round
    (once where the searches drew none: Azul's rounds, Summer Pavilion's
    first phase short of the placing; twice where two draws agree on every
    value). Each choice's value is its mean over the draws; the spread, the
    search's last two iterations' (as :func:`_loss`) and the draws' standard
    error together."""
    runs: list[list[bots.Weighed]] = []
    for again in range(1, AGAIN_SEEDS + 1):
        runs.append(
            weigh(
                game,
                choices,
                nodes=nodes * AGAIN_NODES,
                seed=seed + again * AGAIN_SEED_STEP,
                between=between,
            )
        )
        if not any(w.drew for w in runs[-1]):
            break  # nothing drawn: another seed would weigh it the same
        if len(runs) == 2 and all(
            a.value == b.value and a.earlier == b.earlier
            for a, b in zip(*runs, strict=True)
        ):
            break  # two draws that agree on every value: none mattered
    found = [
        replace(
            each[0],
            value=statistics.fmean(w.value for w in each),
            earlier=statistics.fmean(w.earlier for w in each),
            nodes=sum(w.nodes for w in each),
        )
        for each in zip(*runs, strict=True)
    ]
    _, _, searched = _loss(found)
    losses = [_loss(run)[1] for run in runs]
    drawn = statistics.stdev(losses) / math.sqrt(len(losses)) if runs[1:] else 0.0
    return found, math.hypot(searched, drawn)


def luck(
    game: Game, event: Mapping[str, Any], *, samples: int, seed: int
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Apply the chance ``event`` (a deal or supply draw) to ``game``; each
    seat's luck in it (expected margin after minus before), and the margins
    after."""
    before = evaluate(game, samples=samples, seed=seed).margins
    game.apply_event(event)
    after = evaluate(game, samples=samples, seed=seed).margins
    return tuple(a - b for a, b in zip(after, before, strict=True)), after


def review(
    events: Sequence[Mapping[str, Any]],
    *,
    variant: str,
    players: int,
    first_seat: int,
    seconds: float = DEFAULT_SECONDS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    to_the_end: bool = True,
) -> Review:
    """Review the finished game of ``events`` (a record's, already checked:
    ``record.load``); ``progress(done, total)`` hears how far it is, in events,
    after each decision weighed and while it weighs one (the same ``done``
    again: a caller that must stop soon raises there).
    Without ``to_the_end``, ``events`` may stop before the rules' end: a game
    that ended by resignation or on time (the site knows it is over; a record
    does not say so)."""
    game = new_game(variant, players, first_seat)
    end = game.copy()
    for event in events:
        end.apply_event(event)
    if to_the_end and not end.is_over():
        raise ValueError("only a finished game is reviewed")
    judged = _judged(events, game, seconds, seed, players, progress)
    decisions: list[DecisionReview] = []
    chances: list[ChanceReview] = []
    timeline: list[tuple[float, ...]] = []
    current: tuple[float, ...] = (0.0,) * players
    start: tuple[float, ...] | None = None
    # Two players: the story told on the judge's yardstick (module
    # docstring), each chance's luck known at the next decision weighed.
    yardstick = players == 2
    drawn: list[tuple[int, str]] = []  # the chances awaiting their luck
    before: tuple[float, ...] = current
    waiting = 0  # the timeline's entries since the first of them

    def settle(after: tuple[float, ...]) -> None:
        """The luck of the chances in ``drawn``: all of it on the first."""
        nonlocal waiting
        for number, (index, kind) in enumerate(drawn):
            luck = tuple(a - b for a, b in zip(after, before, strict=True))
            chances.append(
                ChanceReview(index, kind, luck if number == 0 else (0.0,) * players)
            )
        drawn.clear()
        for back in range(len(timeline) - waiting, len(timeline)):
            timeline[back] = after
        waiting = 0

    for index, event in enumerate(events):
        budget = playouts(game, seconds)
        if game.needs_chance():
            kind = next(iter(event))
            if yardstick:
                if not drawn:
                    # a deal follows a round's end, valued as the judge's
                    # leaves are; a supply draw, the decision before it
                    before = bots.margins(game) if kind == "deal" else current
                    if start is None:
                        start = before
                drawn.append((index, kind))
                waiting += 1
                game.apply_event(event)
            else:
                half = max(MIN_SAMPLES, budget // 2)
                chance, current = luck(game, event, samples=half, seed=seed)
                chances.append(ChanceReview(index, kind, chance))
                if start is None:  # the margins before the first draw
                    start = tuple(c - d for c, d in zip(current, chance, strict=True))
        else:
            seat = game.to_move()
            assert seat is not None
            moves = game.legal_moves()
            wanted = dict(event)
            played = next(m for m in moves if m.to_event() == wanted)
            if len(moves) == 1:  # forced: nothing to weigh, the value holds
                decision = DecisionReview(
                    index, seat, wanted, wanted, 0.0, "", True, (), 0.0
                )
                if drawn:
                    waiting += 1
            else:
                weighed = judged[index]
                decision = DecisionReview(
                    index,
                    seat,
                    wanted,
                    weighed.valued[0][0],
                    weighed.lost,
                    label(weighed.lost, weighed.spread),
                    False,
                    weighed.valued,
                    weighed.spread,
                )
                if yardstick:
                    best = weighed.valued[0][1]
                    if drawn:
                        settle(_pair(seat, best))
                    current = _pair(seat, best - weighed.lost)
                else:
                    current = weighed.after
            decisions.append(decision)
            game.push(played)
        timeline.append(current)
    if drawn:  # the record stops after a draw (a game resigned there)
        settle(bots.margins(game))
    chances.sort(key=lambda c: c.event)
    return Review(
        decisions=tuple(decisions),
        chances=tuple(chances),
        seats=tuple(
            _seat(seat, decisions, chances, start, _margins(end))
            for seat in range(players)
        ),
        timeline=tuple(timeline),
    )


def _judged(
    events: Sequence[Mapping[str, Any]],
    game: Game,
    seconds: float,
    seed: int,
    players: int,
    progress: Callable[[int, int], None] | None,
) -> dict[int, _Weighed]:
    """Every decision with a choice weighed, by its event's index. The budget
    is pooled within each round: its decisions are weighed last first, each
    given an equal share of what the round has left, so that the nodes a
    decision late in the round does not need (the rest of the round searched
    whole) go to the earlier ones, whose search stops short of its end."""
    rounds: dict[int, list[tuple[int, Game, Decision]]] = {}
    game = game.copy()
    for index, event in enumerate(events):
        if not game.needs_chance():
            moves = game.legal_moves()
            if len(moves) > 1:
                wanted = dict(event)
                played = next(m for m in moves if m.to_event() == wanted)
                rounds.setdefault(game.round, []).append((index, game.copy(), played))
        game.apply_event(event)
    total = sum(len(positions) for positions in rounds.values())
    judged: dict[int, _Weighed] = {}
    for positions in rounds.values():
        pool = sum(judge_nodes(position, seconds) for _, position, _ in positions)
        verdicts = bots.Verdicts() if players == 2 else None
        for left, (index, position, played) in enumerate(reversed(positions)):
            share = pool // (len(positions) - left)
            evaluated = seconds if players > 2 else None
            done = len(judged) * len(events) // total
            weighed = _weigh(
                position,
                played,
                share,
                seed + index,
                evaluated=evaluated,
                between=None
                if progress is None
                else partial(progress, done, len(events)),
                verdicts=verdicts,
            )
            pool -= min(pool, weighed.spent)
            judged[index] = weighed
            if progress is not None:
                progress(len(judged) * len(events) // total, len(events))
    if progress is not None and not total:
        progress(len(events), len(events))
    return judged


def _pair(seat: int, margin: float) -> tuple[float, ...]:
    """Both seats' margins at two players, from ``seat``'s."""
    return (margin, -margin) if seat == 0 else (-margin, margin)


def _margins(game: Game) -> tuple[float, ...] | None:
    """Each seat's final score less the best other's, if ``game`` is over."""
    outcome = game.outcome()
    if outcome is None:
        return None
    scores = outcome.scores
    return tuple(
        float(score - max(s for other, s in enumerate(scores) if other != seat))
        for seat, score in enumerate(scores)
    )


def _seat(
    seat: int,
    decisions: Sequence[DecisionReview],
    chances: Sequence[ChanceReview],
    start: Sequence[float] | None = None,
    actual: Sequence[float] | None = None,
) -> SeatReview:
    weighed = [d for d in decisions if d.seat == seat and not d.forced]
    accuracy = (
        sum(100 * math.exp(-d.lost / ACCURACY_SCALE) for d in weighed) / len(weighed)
        if weighed
        else 100.0
    )
    others = [d for d in decisions if d.seat != seat and not d.forced]
    players = len(start) if start is not None else 2
    return SeatReview(
        seat=seat,
        lost=sum(d.lost for d in weighed),
        luck=sum(c.luck[seat] for c in chances),
        accuracy=accuracy,
        labels={name: sum(d.label == name for d in weighed) for name, _ in THRESHOLDS},
        start=start[seat] if start is not None else 0.0,
        others=sum(d.lost for d in others) / max(1, players - 1),
        actual=actual[seat] if actual is not None else None,
    )
