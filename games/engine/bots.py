"""Computer players for every variant and player count (issue #16), pure Python.

:func:`choose` returns one of ``game.legal_moves()`` for the seat to move, at one
of three levels:

- ``easy``: one-move greedy on a few immediate features (tiles placed, tiles lost
  to the floor, points scored now), with random noise.
- ``medium``: one-move greedy on the full evaluation below (no look-ahead).
- ``strong``: an alpha-beta search with iterative deepening, a per-game move
  ordering and a beam of the most promising moves below the root, widened once
  the round's end is reached until the budget is spent, on the learned board
  values of ``value.py`` (``docs/computer.md``). Two players:
  minimax on the lead. Three or four: a paranoid search (every other seat plays
  against the root) over each other seat's four likeliest moves, on a lead taken
  over the blend of the best other seat and their mean, so the bot does not turn
  into a spoiler. The search stays within the current round: classic Azul is a
  game of perfect information once the factories are dealt, and so is a Summer
  Pavilion round except for supply refills.

The objective is the root seat's lead plus a quarter of its own value, so a bot
that wins anyway still plays for points.

``strong-1`` (``REFERENCE_LEVELS``, not offered on the site) is the strong level
before issue #27: the hand-set evaluation below, a fixed beam, its old node
rates; ``bench/bots.py`` measures the strong level against it.

Hand-set evaluation (medium, ``strong-1``; the strong level's Azul leaves that
end the game): each seat's score plus what its position is worth.

- Classic: the round is tiled as the rules would tile it now (full lines scored,
  on the grey wall into the best column, the floor charged), so a search leaf at
  the end of the round is exact; if that ends the game the end bonuses are exact
  too. Otherwise partial pattern lines count for a share of the points their tile
  would score (less when their colour is no longer on the table), and rows,
  columns and colours for a share of their end bonus that grows with the square
  of their progress and shrinks when too few rounds look left to finish them
  (the game's end is estimated from the fullest wall row).
- Summer Pavilion: each seat's hand is played out by a greedy one-seat planner
  (the placement with the best points, bonus tiles, star and number bonuses,
  minus a cost per tile spent), then the leftovers are kept (up to 4) or charged;
  complete stars and number sets count in full, incomplete ones for a share of
  their bonus that grows with progress and vanishes in the last round.

Chance and information: the search never crosses a deal (a leaf). A Summer
Pavilion supply refill inside a round is determinised: it is drawn by the engine's
``chance`` on a copy with the bot's own ``random.Random``, which draws from the
public bag and tower counts (the bag has no order to read, and the game holds no
random generator). Nothing else about the future is consulted.

Determinism: the budget is a node count, ``seconds * NODES_PER_SECOND`` of the
game family times ``(2 / players) ** 1.5`` (a node evaluates every board; the
rates were measured on the 2-core development machine, so a second's budget
costs about a second of CPU), never the clock. A
search iteration that runs out of nodes is thrown away and the best move of the
last completed iteration is played, so the decision depends only on the position,
the level, ``seconds`` and ``seed``, never on the machine's speed or load.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from . import classic, pavilion
from . import value as model
from .classic import FLOOR, FLOOR_PENALTIES, Board, ClassicGame, Take, wall_points
from .classic import Move as ClassicMove
from .common import CENTER, Game
from .pavilion import (
    NUM_COLOURS,
    NUMBER_MASKS_COLOURED,
    NUMBER_MASKS_GREY,
    POPCOUNT,
    RUN,
    SINGLE_COLOUR,
    SPACE_STRUCTURES,
    STAR_COLOUR,
    STRUCTURE_BONUSES,
    STRUCTURE_MASKS,
    Bonus,
    Pass,
    PavilionGame,
    Place,
)
from .pavilion import Move as PavilionMove
from .pavilion import Take as PavilionTake
from .variants import CLASSIC_FAMILY, PAVILION_FAMILY

Decision = ClassicMove | PavilionMove
"""A decision of either family, as :func:`choose` returns it."""

G = TypeVar("G", bound=Game)
"""The engine game of one family (``ClassicGame``, ``PavilionGame``)."""
M = TypeVar("M", bound=Decision)
"""That family's decisions (``classic.Move``, ``pavilion.Move``)."""

LEVELS = ("easy", "medium", "strong")
"""The levels the site offers, weakest first: their one home. The command line
offers these (``__main__``); the site's account field spells them again as
``accounts.models.User.ComputerLevel``, since accounts imports no other app and
the engine no Django (``docs/style.md``): ``tests/games/test_computers.py``
holds the two equal."""
REFERENCE_LEVELS = ("strong-1",)
"""Levels the site does not offer, kept to measure the others against
(``bench/bots.py``): ``strong-1`` is the strong level as it was before the
learned value (its hand-set classic evaluation, a fixed beam)."""
DEFAULT_SECONDS = dict(zip(LEVELS, (0.0, 0.0, 0.25), strict=True))
"""Budget of a decision by level, keyed by ``LEVELS`` in its order (a level
added there without its budget here fails at import; easy and medium do not
search): a quarter of a second of CPU, what a computer's move costs the site's
workers (``strong-1`` spent a tenth of that at its nominal second:
``docs/computer.md``)."""
NODES_PER_SECOND = {CLASSIC_FAMILY.name: 32000, PAVILION_FAMILY.name: 29000}
"""Search nodes one second of the strong level buys on the development machine,
by game family (measured: ``bench/README.md``)."""
REFERENCE_NODES_PER_SECOND = {CLASSIC_FAMILY.name: 7000, PAVILION_FAMILY.name: 2500}
"""The same for ``strong-1``, as it was set (its search used a small share of
its second)."""
EASY_NOISE = 1.2
OWN_SHARE = 0.25
"""Weight of the seat's own value beside its lead in the objective."""
OTHER_BEAM = 4
WIDEN_STEP = 4
"""How many more moves each widening of the strong level's beam looks at."""
"""With 3-4 players, the moves searched for each other seat (their likeliest)."""


class _OutOfNodes(Exception):
    """The node budget ran out in the middle of a search iteration."""


def choose(
    game: Game, level: str, *, seconds: float | None = None, seed: int = 0
) -> Decision:
    """The decision of ``level`` for the seat to move; one of ``legal_moves()``.

    ``game`` is not changed. ``seconds`` is the strong level's budget (converted to
    a node count, see the module docstring); the same arguments give the same move.
    """
    if level not in LEVELS and level not in REFERENCE_LEVELS:
        raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")
    budget = DEFAULT_SECONDS["strong"] if seconds is None else seconds
    family = game.family.name
    # a node costs more with more boards to evaluate
    rates = REFERENCE_NODES_PER_SECOND if level == "strong-1" else NODES_PER_SECOND
    per_second = rates[family] * (2 / game.players) ** 1.5
    nodes = max(200, int(budget * per_second))
    rules = _rules(game, learned=level == "strong")
    decision: Decision = _decide(game, rules, level, nodes, seed)
    return decision


def candidates(game: Game, limit: int) -> list[Decision]:
    """At most ``limit`` of the legal decisions of the seat to move, the most
    promising first, by the strong level's move ordering (what a review weighs
    beside the decision played: ``review.py``)."""
    moves: Sequence[Decision] = _rules(game).candidates(game, game.legal_moves())
    return list(moves[:limit])


def _decide(game: G, rules: _Rules[G, M], level: str, nodes: int, seed: int) -> M:
    """``choose`` once the family's rules are known: ``nodes`` is the strong
    level's budget."""
    seat = game.to_move()
    moves = rules.legal_moves(game)
    if seat is None or not moves:
        raise ValueError("no decision is awaited")
    if len(moves) == 1:
        return moves[0]
    rng = random.Random(seed)
    if level == "easy":
        return _easy(game, moves, rules, rng)
    if level == "medium":
        return _greedy(game, moves, seat, rules, rng)
    return _search(game, moves, seat, rules, rng, nodes, widen=level == "strong")


# ---------------------------------------------------------------- the framework


class _Rules(Generic[G, M]):
    """What the search needs to know about one game family: its game ``G``
    and its decisions ``M``."""

    def legal_moves(self, game: G) -> Sequence[M]:
        """``game.legal_moves()``, typed as the family's decisions."""
        raise NotImplementedError

    def values(self, game: G) -> list[float]:
        """Each seat's evaluation (points, bigger is better)."""
        raise NotImplementedError

    def candidates(self, game: G, moves: Sequence[M]) -> Sequence[M]:
        """``moves`` worth searching, most promising first."""
        raise NotImplementedError

    def easy_key(self, game: G, move: M) -> float:
        """An immediate, cheap value of ``move`` for the easy level."""
        raise NotImplementedError

    def round_over(self, game: G) -> bool:
        """True at a search leaf: the round is over (a deal is next) or the game."""
        raise NotImplementedError

    def key(self, game: G) -> int:
        """A hash of everything in ``game`` that the rest of its round and its
        leaves' values depend on (the review's :class:`Verdicts`)."""
        raise NotImplementedError

    beam = 8


def _lead(values: Sequence[float], seat: int, own_share: float = OWN_SHARE) -> float:
    """How far ``seat`` is ahead of the others, plus a share of its own value (so
    that, winning anyway, it still plays for points; none for a review, which
    weighs the margin alone).

    With 3-4 players "the others" blends the best of them with their mean: the
    paranoid bound alone makes a bot that only spoils.
    """
    others = [v for s, v in enumerate(values) if s != seat]
    best_other = max(others)
    if len(others) > 1:
        best_other = 0.5 * best_other + 0.5 * sum(others) / len(others)
    return values[seat] - best_other + own_share * values[seat]


def _settle(game: G, rules: _Rules[G, M], rng: random.Random) -> G:
    """Draw (on ``game``, a copy) any chance event inside the round."""
    while game.needs_chance() and not rules.round_over(game):
        game.chance(rng)
    return game


def _child(game: G, move: M, rules: _Rules[G, M], rng: random.Random) -> G:
    child = game.copy()
    child.push(move)
    return _settle(child, rules, rng)


def _pick(moves: Sequence[M], chosen: M) -> M:
    """The object of ``moves`` equal to ``chosen`` (the caller gets its own list's)."""
    for move in moves:
        if move == chosen:
            return move
    raise AssertionError("a bot chose a move that is not legal")


def _easy(game: G, moves: Sequence[M], rules: _Rules[G, M], rng: random.Random) -> M:
    best, best_value = moves[0], float("-inf")
    for move in moves:
        value = rules.easy_key(game, move) + rng.gauss(0.0, EASY_NOISE)
        if value > best_value:
            best, best_value = move, value
    return best


def _greedy(
    game: G, moves: Sequence[M], seat: int, rules: _Rules[G, M], rng: random.Random
) -> M:
    best, best_value = moves[0], float("-inf")
    for move in rules.candidates(game, moves):
        value = _lead(rules.values(_child(game, move, rules, rng)), seat)
        if value > best_value:
            best, best_value = move, value
    return _pick(moves, best)


class Verdicts:
    """The review's verdicts in a round, kept for the decisions before (issue
    #34 item 3). A round's decisions are weighed last first (``review.py``),
    and each decision's verdict (the value of its best decision weighed) is
    kept as the value of its position (:meth:`decided`): the decision before
    takes it as the value of the decision that was played (:meth:`after`).
    So the judge does not change its mind from one decision to the next: the
    value of a decision played is what the next decision's weighing found,
    and each seat's story adds up. Without it the judge's second thoughts
    (its depth and beam moving from one decision to the next, 10 points a
    game in Azul) were the story's gap.

    Two players only, on the margin alone (no share of a seat's own points):
    there one seat's value is the other's negated, so one value a position
    (kept for seat 0) answers both."""

    def __init__(self) -> None:
        self.values: dict[int, float] = {}

    def decided(self, game: Game, value: float) -> None:
        """Keep ``value``, the review's verdict on the decision awaited in
        ``game`` (the best of those it weighed, for the seat to decide)."""
        seat = game.to_move()
        assert seat is not None
        self.values[_rules(game).key(game)] = -value if seat else value

    def after(self, game: Game, decision: Decision, seed: int) -> float | None:
        """The verdict kept on the position after ``decision`` and the forced
        decisions that follow it (its draws inside the round drawn as
        :func:`weigh` draws them with ``seed``), for the seat deciding in
        ``game``; None where none is kept (the round's last decision, or a
        draw that went otherwise)."""
        seat = game.to_move()
        assert seat is not None
        rules = _rules(game)
        rng = random.Random(seed)
        child = _child(game, decision, rules, rng)
        while (kept := self.values.get(rules.key(child))) is None:
            if child.is_over() or rules.round_over(child):
                return None
            moves = rules.legal_moves(child)
            if len(moves) != 1:
                return None
            child = _child(child, moves[0], rules, rng)  # forced: not weighed
        return -kept if seat else kept


class _Searcher(Generic[G, M]):
    """The strong level's alpha-beta within the round (module docstring), for
    ``seat``, on at most ``budget`` nodes: shared by the strong level's choice
    (:func:`_search`) and the review's weighing (:func:`weigh`)."""

    def __init__(
        self,
        rules: _Rules[G, M],
        seat: int,
        rng: random.Random,
        budget: int,
        own_share: float = OWN_SHARE,
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.rng = rng
        self.budget = budget
        self.own_share = own_share
        self.whole: G | None = None
        """A node whose every candidate is searched, whatever the beam."""
        self.nodes = 0
        self.depth = 1
        self.beam = rules.beam
        self.cut = False
        """The last iteration stopped somewhere at its depth, not at the round's end."""
        self.narrowed = False
        """The last iteration left out moves beyond the beam."""

    def lead(self, node: G) -> float:
        return _lead(self.rules.values(node), self.seat, self.own_share)

    def start_iteration(self) -> None:
        self.cut = False
        self.narrowed = False

    def value(self, node: G, depth: int, alpha: float, beta: float) -> float:
        """``node``'s value, searched ``depth`` decisions deep (raises
        ``_OutOfNodes`` when the budget is spent)."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfNodes
        if node.is_over() or self.rules.round_over(node):
            return self.lead(node)
        if depth == 0:
            self.cut = True
            return self.lead(node)
        return self._expand(node, depth, alpha, beta)

    def _expand(self, node: G, depth: int, alpha: float, beta: float) -> float:
        """``node``'s value from its children's (:meth:`value`)."""
        rules, seat = self.rules, self.seat
        mover = node.to_move()
        if mover == seat or node.players == 2:
            width = self.beam
        else:  # the others: their likeliest, more as the beam widens
            width = OTHER_BEAM + (self.beam - rules.beam) // 2
        ranked = rules.candidates(node, rules.legal_moves(node))
        if node is self.whole:
            width = len(ranked)
        if len(ranked) > width:
            self.narrowed = True
        options = ranked[:width]
        if mover == seat:
            value = float("-inf")
            for move in options:
                child = _child(node, move, rules, self.rng)
                value = max(value, self.value(child, depth - 1, alpha, beta))
                if value >= beta:
                    return value
                alpha = max(alpha, value)
            return value
        value = float("inf")
        for move in options:
            child = _child(node, move, rules, self.rng)
            value = min(value, self.value(child, depth - 1, alpha, beta))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value

    def deeper(self, widen: bool) -> bool:
        """After a completed iteration: whether another one can see more (and
        set it up: a wider beam, or one decision deeper)."""
        if not self.cut:
            if widen and self.narrowed:
                self.beam += WIDEN_STEP
                return True  # the round's end reached: look at more moves
            return False  # the whole rest of the round was searched
        self.depth += 1
        return True


def _search(
    game: G,
    moves: Sequence[M],
    seat: int,
    rules: _Rules[G, M],
    rng: random.Random,
    budget: int,
    *,
    widen: bool = False,
) -> M:
    """Iterative deepening paranoid alpha-beta within the round (module docstring).

    With ``widen``, once an iteration has searched to the round's end it starts
    again with a wider beam, until the budget is spent or nothing was left out.
    """
    search = _Searcher(rules, seat, rng, budget)
    root_moves = rules.candidates(game, moves)
    children = [_child(game, move, rules, rng) for move in root_moves]
    search.nodes = len(children)
    # Depth 1: order the root by the static value of each child.
    scores = [search.lead(child) for child in children]
    order = sorted(range(len(root_moves)), key=lambda i: -scores[i])
    best = root_moves[order[0]]
    while True:
        search.start_iteration()
        try:
            alpha = float("-inf")
            results: dict[int, float] = {}
            for i in order:
                value = search.value(children[i], search.depth, alpha, float("inf"))
                results[i] = value
                alpha = max(alpha, value)
        except _OutOfNodes:
            break
        # Completed: best first, the rest by this iteration's (bounded) values.
        order = sorted(order, key=lambda i: -results[i])
        best = root_moves[order[0]]
        if not search.deeper(widen):
            break
    return _pick(moves, best)


@dataclass(frozen=True)
class Weighed:
    """A decision as the review weighs it (:func:`weigh`)."""

    decision: Decision
    value: float
    """The mover's margin at the round's end (or the game's) after it, as the
    searched line of play gives it: minimax within the round, the learned
    value beyond (no share of its own points: a margin)."""
    earlier: float
    """The same, two completed search iterations earlier (one decision less
    deep on both sides, or less wide): how far the verdict moved when the
    search looked further; ``value`` itself when the whole rest of the round
    was searched."""
    nodes: int = 0
    """The nodes its search visited."""
    depth: int = 0
    """The search iterations ``value`` is of: the same for every decision
    weighed together, but where the whole rest of the round was searched
    (then ``value`` is exact, and ``depth`` the iterations that took)."""
    drew: bool = False
    """Whether its search drew a chance event inside the round (a Summer
    Pavilion refill): another ``seed`` could have valued it otherwise."""


@dataclass
class _Weighing:
    """One decision's search in :func:`weigh`."""

    decision: Decision
    child: Game
    search: _Searcher[Any, Any]
    values: list[float]
    """Each completed iteration's value, from depth 0 (the leaf's)."""
    done: bool = False
    """The whole rest of the round searched: its last value is exact."""

    def at(self, depth: int) -> float:
        return self.values[min(depth, len(self.values) - 1)]


def weigh(
    game: Game,
    decisions: Sequence[Decision],
    *,
    nodes: int,
    seed: int = 0,
    between: Callable[[], None] | None = None,
) -> list[Weighed]:
    """Each of ``decisions`` (legal decisions of the seat to move) weighed by
    the strong level's search, each from its own position with a full window
    (exact values, where the strong level's root search only bounds the moves
    it does not choose), on ``nodes`` nodes together: the review's judge
    (``review.py``), deeper than the choice it weighs when ``nodes`` is more
    than the strong level spends on its root. Summer Pavilion's refills
    inside the round are drawn with ``seed``, the same for every decision
    (common random numbers). The first reply to each decision is searched
    whole, every legal decision of the seat that replies (the strong level's
    root weighs them all; within its beam the judge missed the replies that
    refuted a decision).

    The searches are deepened in step, each iteration taking every decision
    one decision deeper (or wider, once its search reaches the round's end),
    and each decision is valued at the last iteration all of them completed
    (issue #34): a search's value swings with its depth (in Summer
    Pavilion's first phase by ten points from one iteration to the next, as
    it reaches the placing), so decisions valued at different depths, each
    as deep as its own share of the nodes went, were compared with their
    depth as much as with each other. ``between`` is called after each
    decision's iteration (a caller that must stop soon raises there)."""
    seat = game.to_move()
    if seat is None:
        raise ValueError("no decision is awaited")
    rules = _rules(game)
    weighings = []
    for decision in decisions:
        rng = random.Random(seed)
        child = _child(game, decision, rules, rng)
        search: _Searcher[Any, Any] = _Searcher(rules, seat, rng, nodes, own_share=0.0)
        search.whole = child
        weighings.append(_Weighing(decision, child, search, [search.lead(child)]))
    depth = 0  # the iterations every search has completed
    try:
        while not all(w.done for w in weighings):
            for w in weighings:
                if w.done:
                    continue
                search = w.search
                spent = sum(other.search.nodes for other in weighings)
                search.budget = search.nodes + nodes - spent
                search.start_iteration()
                inf = float("inf")
                w.values.append(search.value(w.child, search.depth, -inf, inf))
                # the whole rest of the round searched: exact (on the learned value)
                w.done = not search.deeper(widen=True)
                if between is not None:
                    between()
            depth += 1
    except _OutOfNodes:
        pass  # the node it stopped at is not visited
    # Two iterations back: one decision less deep on both sides, as a search
    # one decision deeper favours whoever moves last.
    earlier = depth if all(w.done for w in weighings) else max(0, depth - 2)
    undrawn = random.Random(seed).getstate()
    return [
        Weighed(
            w.decision,
            w.at(depth),
            w.at(earlier),
            min(w.search.nodes, w.search.budget),
            min(depth, len(w.values) - 1),
            w.search.rng.getstate() != undrawn,
        )
        for w in weighings
    ]


def margins(game: Game) -> tuple[float, ...]:
    """Each seat's margin where the review's judge stops looking (a round's
    end, before the deal, or the game's): the learned value of
    :func:`weigh`'s leaves, on the margin alone. The review's yardstick for
    the luck of a deal (``review.py``)."""
    values = _rules(game).values(game)
    return tuple(_lead(values, seat, 0.0) for seat in range(game.players))


# ---------------------------------------------------------------- classic


def _best_grey_column(
    wall: Sequence[Sequence[int]], row: int, colour: int
) -> int | None:
    """The grey-wall column (§8) where ``colour`` scores most now, or ``None``."""
    best, best_points = None, -1
    if colour in wall[row]:
        return None
    for column in range(5):
        if wall[row][column] >= 0:
            continue
        if any(wall[r][column] == colour for r in range(5)):
            continue
        points = wall_points(wall, row, column)
        if points > best_points:  # ties: the leftmost such column
            best, best_points = column, points
    return best


# Weights of the classic evaluation (points).
PARTIAL_LINE_SHARE = 0.6
ROW_SHARE, COLUMN_SHARE, COLOUR_SHARE = 0.9, 0.8, 0.8
FLOOR_TILE_RISK = 0.6


class _ClassicRules(_Rules[ClassicGame, ClassicMove]):
    beam = 8

    def __init__(self, *, learned: bool = True) -> None:
        self.learned = learned
        """Boards valued by the learned model (``value.py``), or by the
        hand-set shares below (the reference level, ``strong-1``)."""

    def legal_moves(self, game: ClassicGame) -> Sequence[ClassicMove]:
        return game.legal_moves()

    def round_over(self, game: ClassicGame) -> bool:
        return game.phase == classic.PHASE_DEAL or game.phase == classic.PHASE_OVER

    def key(self, game: ClassicGame) -> int:
        boards = tuple(
            (
                board.score,
                *board.line_colour,
                *board.line_count,
                *(board.row_mask if not game.grey else sum(board.wall, [])),
                -1,
                *board.floor,
            )
            for board in game.boards
        )
        return hash(
            (
                game.round,
                game.phase,
                game.to_move(),
                game.pending_wall,
                game.center_marker,
                game.marker_holder,
                *game.center,
                *map(tuple, game.factories),
                *game.lid,
                boards,
            )
        )

    def values(self, game: ClassicGame) -> list[float]:
        boards = game.boards
        if game.is_over():
            return [b.score + 0.01 * b.complete_rows() for b in boards]
        projected = [_projection(board, game.grey) for board in boards]
        game_ends = any(ends for _key, _score, _wall, ends in projected)
        if game_ends and game.phase != classic.PHASE_OFFER:
            return [
                s + _classic_bonus(wall) + 0.01 * _rows(wall)
                for _key, s, wall, _ends in projected
            ]
        if game_ends:
            # the round is not over yet: the bonuses are nearly certain
            return [s + _classic_bonus(wall) for _key, s, wall, _ends in projected]
        if self.learned:
            return _learned_values(game, projected)
        fullest = max(
            sum(1 for c in row if c >= 0)
            for _key, _score, wall, _ends in projected
            for row in wall
        )
        rounds_left = max(1, 5 - fullest)
        table: list[int] | None = None
        if game.phase == classic.PHASE_OFFER:
            table = game.center[:]
            for factory in game.factories:
                for colour in range(5):
                    table[colour] += factory[colour]
        values = []
        for seat, (_key, score, wall, _ends) in enumerate(projected):
            board = boards[seat]
            value = float(score)
            for line in range(5):
                count = board.line_count[line]
                if 0 < count <= line:
                    colour = board.line_colour[line]
                    column = (
                        _best_grey_column(wall, line, colour)
                        if game.grey
                        else (colour + line) % 5
                    )
                    if column is None:
                        continue
                    missing = line + 1 - count
                    points = wall_points(wall, line, column)
                    share = PARTIAL_LINE_SHARE * count / (line + 1)
                    if missing > 2:
                        share *= 0.7
                    if table is not None and table[colour] < missing:
                        share *= 0.7  # not this round: the line waits
                    value += points * share
            value += _classic_potential(wall, rounds_left)
            values.append(value)
        return values

    def candidates(
        self, game: ClassicGame, moves: Sequence[ClassicMove]
    ) -> Sequence[ClassicMove]:
        if game.phase != classic.PHASE_OFFER:
            return list(moves)  # grey wall columns: few
        takes = [move for move in moves if isinstance(move, Take)]
        board = game.boards[takes[0].seat]
        marker = game.center_marker
        keyed = []
        groups_with_line = set()
        for move in takes:
            if move.line != FLOOR:
                groups_with_line.add((move.source, move.colour))
        for move in takes:
            counts = (
                game.center if move.source == CENTER else game.factories[move.source]
            )
            count = counts[move.colour]
            group = (move.source, move.colour)
            if move.line == FLOOR and group in groups_with_line and count > 2:
                continue
            keyed.append((self._order_key(game, board, move, count, marker), move))
        keyed.sort(key=lambda item: -item[0])
        return [move for _, move in keyed]

    def _order_key(
        self, game: ClassicGame, board: Board, move: Take, count: int, marker: bool
    ) -> float:
        floor = len(board.floor)
        taken_marker = move.source == CENTER and marker
        placed = 0
        value = 0.0
        if move.line != FLOOR:
            room = move.line + 1 - board.line_count[move.line]
            placed = min(count, room)
            if placed == room:
                value += 2.0 + move.line * 0.3
        overflow = count - placed + (1 if taken_marker else 0)
        penalty = sum(FLOOR_PENALTIES[floor : min(7, floor + overflow)])
        return value + placed - penalty * 1.2

    def easy_key(self, game: ClassicGame, move: ClassicMove) -> float:
        if not isinstance(move, Take):  # a grey wall's column
            after = game.copy()
            after.push(move)
            return float(after.boards[move.seat].score)
        board = game.boards[move.seat]
        counts = game.center if move.source == CENTER else game.factories[move.source]
        return self._order_key(
            game, board, move, counts[move.colour], game.center_marker
        )


_Projection = tuple[tuple[Any, ...], int, tuple[tuple[int, ...], ...], bool]
"""A board at the round's end (:func:`_projection`): its key, score, wall,
and whether a wall row is full (the game ends)."""

_MEMO_SIZE = 50_000
"""Boards remembered by :func:`_projection` and :func:`_learned_values` (a
search meets the same board again and again: the other seat's moves leave
it as it was); forgotten all at once when full."""
_PROJECTIONS: dict[tuple[Any, ...], _Projection] = {}
_GAINS: dict[tuple[Any, ...], float] = {}


def _projection(board: Board, grey: bool) -> _Projection:
    """``board`` as the round's end leaves it: its full pattern lines tiled
    (on a grey wall, each in its best column), its floor's penalties taken.
    Remembered by the board's contents (``_MEMO_SIZE``)."""
    key = (
        grey,
        board.score,
        len(board.floor),
        tuple(board.line_count),
        tuple(board.line_colour),
        tuple(map(tuple, board.wall)),
    )
    known = _PROJECTIONS.get(key)
    if known is not None:
        return known
    wall = [row[:] for row in board.wall]
    score = board.score
    floor = len(board.floor)
    for line in range(5):
        if board.line_count[line] == line + 1:
            colour = board.line_colour[line]
            column: int | None
            column = (
                _best_grey_column(wall, line, colour) if grey else ((colour + line) % 5)
            )
            if column is None:
                floor += line + 1
                continue
            score += wall_points(wall, line, column)
            wall[line][column] = colour
    score = max(0, score - sum(FLOOR_PENALTIES[: min(floor, 7)]))
    ends = any(all(c >= 0 for c in row) for row in wall)
    if len(_PROJECTIONS) >= _MEMO_SIZE:
        _PROJECTIONS.clear()
    found = (key, score, tuple(map(tuple, wall)), ends)
    _PROJECTIONS[key] = found
    return found


def _learned_values(game: ClassicGame, projected: Sequence[_Projection]) -> list[float]:
    """Each seat's projected score plus the future gain ``value.py`` predicts
    for its projected wall and the pattern lines it carries on (remembered by
    the board and what else the prediction reads, ``_MEMO_SIZE``)."""
    fills = [
        max(sum(1 for c in r if c >= 0) for r in wall)
        for _key, _score, wall, _ends in projected
    ]
    fullest = max(fills)
    starter = game.marker_holder
    if starter is None:
        starter = game.round_starter
    values = []
    for seat, (key, score, wall, _ends) in enumerate(projected):
        others_fullest = max(f for s, f in enumerate(fills) if s != seat)
        memo = (key, seat == starter, game.players, others_fullest, game.round, fullest)
        gain = _GAINS.get(memo)
        if gain is None:
            board = game.boards[seat]
            counts = board.line_count[:]
            colours = board.line_colour[:]
            for line in range(5):
                if counts[line] == line + 1:  # tiled (or to the floor) this round
                    counts[line] = 0
                    colours[line] = -1
            row = model.features(
                wall,
                counts,
                colours,
                starts_next=seat == starter,
                players=game.players,
                grey=game.grey,
                others_fullest=others_fullest,
                round_number=game.round,
            )
            gain = model.future_gain(row, fullest)
            if len(_GAINS) >= _MEMO_SIZE:
                _GAINS.clear()
            _GAINS[memo] = gain
        values.append(score + gain)
    return values


def _rows(wall: Sequence[Sequence[int]]) -> int:
    return sum(1 for row in wall if all(c >= 0 for c in row))


def _classic_bonus(wall: Sequence[Sequence[int]]) -> int:
    """End bonuses of ``wall`` (docs/rules/azul.md §7)."""
    rows = _rows(wall)
    columns = sum(1 for c in range(5) if all(wall[r][c] >= 0 for r in range(5)))
    counts = [0] * 5
    for row in wall:
        for colour in row:
            if colour >= 0:
                counts[colour] += 1
    return 2 * rows + 7 * columns + 10 * sum(1 for n in counts if n == 5)


def _classic_potential(wall: Sequence[Sequence[int]], rounds_left: int) -> float:
    """A share of the end bonuses ``wall`` is on its way to (see module docstring)."""
    value = 0.0
    counts = [0] * 5
    for row in wall:
        filled = 0
        for colour in row:
            if colour >= 0:
                filled += 1
                counts[colour] += 1
        value += ROW_SHARE * 2 * _progress(filled, rounds_left)
    for column in range(5):
        filled = sum(1 for r in range(5) if wall[r][column] >= 0)
        value += COLUMN_SHARE * 7 * _progress(filled, rounds_left)
    for n in counts:
        value += COLOUR_SHARE * 10 * _progress(n, rounds_left)
    return value


def _progress(filled: int, rounds_left: int) -> float:
    if filled == 5:
        return 1.0
    share = (filled / 5) ** 2
    if 5 - filled > rounds_left:
        share *= 0.25
    return share


# ---------------------------------------------------------------- pavilion

# Weights of the pavilion evaluation (points).
BONUS_TILE_VALUE = 0.9
KEPT_TILE_VALUE = 0.6
SPEND_COST = 0.35
STAR_SHARE = 0.7
NUMBER_SHARE = 0.5


class _PavilionRules(_Rules[PavilionGame, PavilionMove]):
    beam = 7

    def __init__(self, *, learned: bool = True) -> None:
        self.learned = learned
        """Boards valued by the learned model (``value.py``) after the hand's
        plan, or by the hand-set shares below (medium, ``strong-1``)."""

    def legal_moves(self, game: PavilionGame) -> Sequence[PavilionMove]:
        return game.legal_moves()

    def round_over(self, game: PavilionGame) -> bool:
        phase = game.phase
        return (
            phase == pavilion.PHASE_DEAL
            or phase == pavilion.PHASE_OVER
            or (phase == pavilion.PHASE_SUPPLY and all(game.passed))
        )

    def key(self, game: PavilionGame) -> int:
        return hash(
            (
                game.round,
                game.phase,
                game.turn,
                game.token_holder,
                game.bonus_owed,
                game._refill_then_deal,
                game._last_seat,
                *game.passed,
                *game.scores,
                *game.bag,
                *game.tower,
                *game.supply,
                *game.centre,
                *map(tuple, game.factories),
                *map(tuple, game.hands),
                *map(tuple, game.corners),
                *map(tuple, game.boards),
            )
        )

    def values(self, game: PavilionGame) -> list[float]:
        if game.is_over():
            return [float(s) for s in game.scores]
        learned = self.learned
        return [_pavilion_value(game, seat, learned) for seat in range(game.players)]

    def candidates(
        self, game: PavilionGame, moves: Sequence[PavilionMove]
    ) -> Sequence[PavilionMove]:
        phase = game.phase
        if phase == pavilion.PHASE_TAKE:
            takes = [move for move in moves if isinstance(move, PavilionTake)]
            return sorted(takes, key=lambda m: -_take_key(game, m))
        seat = moves[0].seat
        if phase == pavilion.PHASE_BONUS:
            bonuses = [move for move in moves if isinstance(move, Bonus)]
            return sorted(bonuses, key=lambda m: -_bonus_key(game, seat, m))[:6]
        places: dict[tuple[int, int, int], Place] = {}
        passes: list[Pass] = []
        for move in moves:
            if isinstance(move, Place):
                key = (move.star, move.space, move.colour)
                known = places.get(key)
                if known is None or move.wilds < known.wilds:
                    places[key] = move
            elif isinstance(move, Pass):
                passes.append(move)
        ranked = sorted(places.values(), key=lambda m: -_place_key(game, seat, m))
        chosen: list[PavilionMove] = list(ranked)
        keep = _keep_choice(game, seat)
        for move in passes:
            if move.keep == keep:
                chosen.append(move)
                break
        else:
            chosen.append(passes[-1])
        return chosen

    def easy_key(self, game: PavilionGame, move: PavilionMove) -> float:
        if isinstance(move, PavilionTake):
            return _take_key(game, move)
        if isinstance(move, Bonus):
            return 0.0
        if isinstance(move, Place):
            return 4.0 + _place_key(game, move.seat, move) - move.wilds * 0.5
        return len(move.keep) * 0.5


def _take_key(game: PavilionGame, move: PavilionTake) -> float:
    tiles = game.centre if move.source == CENTER else game.factories[move.source]
    wild = game.wild
    hand = game.hands[move.seat]
    if move.colour == wild:
        taken, extra = 1, 0
    else:
        taken, extra = tiles[move.colour], 1 if tiles[wild] else 0
    value: float = taken + 1.3 * extra + 0.2 * min(hand[move.colour], 6)
    if move.source == CENTER and game.token_holder is None:
        value -= 0.7 * (taken + extra)
    return value


def _place_key(game: PavilionGame, seat: int, move: Place) -> float:
    index = move.star * 6 + move.space - 1
    filled: int = game.filled[seat] | 1 << index
    points = RUN[filled >> (move.star * 6) & 63][move.space - 1]
    bonus = 0
    for j in SPACE_STRUCTURES[index]:
        mask = STRUCTURE_MASKS[j]
        if filled & mask == mask:
            bonus += STRUCTURE_BONUSES[j]
    cost: int = game.costs[index]
    return points + bonus * BONUS_TILE_VALUE - cost * SPEND_COST


def _bonus_key(game: PavilionGame, seat: int, move: Bonus) -> float:
    hand = game.hands[seat]
    wild = game.wild
    value = 0.0
    for colour in move.tiles:
        value += 1.5 if colour == wild else 0.2 * hand[colour]
    return value


def _keep_choice(game: PavilionGame, seat: int) -> tuple[int, ...]:
    """Tiles to keep at a pass: next round's wild colour first, then the most held."""
    if game.round >= 6:
        return ()
    hand = game.hands[seat][:]
    next_wild = game.round  # COLOURS[round] is the wild colour of round + 1
    keep: list[int] = []
    while len(keep) < 4 and any(hand):
        colour = max(
            range(NUM_COLOURS),
            key=lambda c: (hand[c] > 0, c == next_wild, hand[c], -c),
        )
        keep.append(colour)
        hand[colour] -= 1
    return tuple(sorted(keep))


def _board_worth(
    game: PavilionGame, filled: int, star_colours: Sequence[int], w: float
) -> float:
    """Complete stars and number sets in full, incomplete ones in part (×``w``)."""
    grey = game.grey
    value = 0.0
    for star in range(7):
        ring = filled >> (star * 6) & 63
        if ring == 63:
            value += model.star_bonus(grey, star, star_colours[star])
        elif ring and w:
            n = POPCOUNT[ring]
            value += (
                w
                * STAR_SHARE
                * model.star_bonus(grey, star, star_colours[star])
                * (n / 6) ** 2
            )
    masks = NUMBER_MASKS_GREY if grey else NUMBER_MASKS_COLOURED
    for mask, bonus in masks:
        have = filled & mask
        if have == mask:
            value += bonus
        elif have and w:
            share = bin(have).count("1") / bin(mask).count("1")
            value += w * NUMBER_SHARE * bonus * share**3
    return value


def _allowed(grey: bool, filled: int, colours: int, star: int) -> int:
    """Colours ``star`` may take (docs/rules/summer-pavilion.md §5, §8), as a
    bitmask."""
    if grey:
        if POPCOUNT[filled >> (star * 6) & 63] <= 1:
            return 63
        return colours if SINGLE_COLOUR[colours] else 63 & ~colours
    if star == 0:
        return 63 & ~colours
    return 1 << STAR_COLOUR[star]


def _pavilion_value(game: PavilionGame, seat: int, learned: bool) -> float:
    """Score, plus the greedy one-seat plan of the hand, plus the board's worth
    (``learned``: as ``value.py`` predicts what the seat adds by the game's end)."""
    rounds = 6
    phase = game.phase
    if learned:
        learned_row = pavilion_row(game, seat)
        if learned_row is not None:
            row, stage = learned_row
            return game.scores[seat] + model.pavilion_future_gain(row, stage)
    future = rounds - game.round + (1 if phase == pavilion.PHASE_DEAL else 0)
    w = min(1.0, future / 3)
    if phase != pavilion.PHASE_DEAL and game.round == rounds:
        w = 0.0
    filled: int = game.filled[seat]
    star_colours: list[int] = game.star_colours[seat][:]
    score: int = game.scores[seat]
    if phase == pavilion.PHASE_DEAL or game.passed[seat]:
        # kept tiles: on the corners, or back in the hand before the deal
        kept: int = sum(game.hands[seat]) + sum(game.corners[seat])
        worth = _board_worth(game, filled, star_colours, w)
        return score + worth + KEPT_TILE_VALUE * kept
    gained, left, filled = _pavilion_plan(game, seat, w, star_colours)
    if game.round >= rounds:
        gained -= left
    else:
        kept = min(4, left)
        gained += KEPT_TILE_VALUE * kept - (left - kept)
    return score + gained + _board_worth(game, filled, star_colours, w)


def pavilion_row(game: PavilionGame, seat: int) -> tuple[list[float], int] | None:
    """The learned value's features of ``seat`` (``value.PAVILION_FEATURES``) and
    its stage, or ``None`` where the value is exact (the last round's end)."""
    rounds = 6
    phase = game.phase
    star_colours: list[int] = game.star_colours[seat][:]
    if phase == pavilion.PHASE_DEAL or game.passed[seat]:
        ended = game.round - 1 if phase == pavilion.PHASE_DEAL else game.round
        if ended >= rounds:
            return None
        return model.pavilion_round_end(game, seat, ended)
    future = rounds - game.round
    w = min(1.0, future / 3)
    gained, left, filled = _pavilion_plan(game, seat, w, star_colours)
    kept = min(4, left) if game.round < rounds else 0
    taking = phase == pavilion.PHASE_TAKE
    table = 0
    if taking:
        table = sum(game.centre) + sum(sum(f) for f in game.factories)
    key = (filled, tuple(star_colours), kept, game.players, game.grey)
    board = _PAVILION_FEATURES.get(key)
    if board is None:
        board = model.pavilion_features(
            filled, star_colours, kept, players=game.players, grey=game.grey
        )
        if len(_PAVILION_FEATURES) >= _MEMO_SIZE:
            _PAVILION_FEATURES.clear()
        _PAVILION_FEATURES[key] = board
    extra = [gained, float(left - kept), table / game.players, 1.0 if taking else 0.0]
    return board + extra, model.pavilion_stage(game.round, taking)


_PAVILION_FEATURES: dict[tuple[Any, ...], list[float]] = {}
"""The board features of :func:`pavilion_row`, remembered (``_MEMO_SIZE``)."""


def _pavilion_plan(
    game: PavilionGame, seat: int, w: float, star_colours: list[int]
) -> tuple[float, int, int]:
    """The greedy one-seat plan of ``seat``'s hand: the points it scores (bonus
    tiles at ``BONUS_TILE_VALUE``), the tiles left in the hand and the filled
    spaces after it; ``star_colours`` (a copy) is brought up to date.
    Remembered by what it reads (``_MEMO_SIZE``)."""
    key = (
        game.grey,
        game.wild,
        w,
        game.filled[seat],
        tuple(game.hands[seat]),
        tuple(star_colours),
    )
    known = _PLANS.get(key)
    if known is None:
        known = _planned(game, seat, w, star_colours)
        if len(_PLANS) >= _MEMO_SIZE:
            _PLANS.clear()
        _PLANS[key] = known
    gained, left, filled, colours = known
    star_colours[:] = colours
    return gained, left, filled


_PLANS: dict[tuple[Any, ...], tuple[float, int, int, tuple[int, ...]]] = {}


def _planned(
    game: PavilionGame, seat: int, w: float, star_colours: list[int]
) -> tuple[float, int, int, tuple[int, ...]]:
    """:func:`_pavilion_plan` worked out, with the star colours after it."""
    star_colours = star_colours[:]
    filled: int = game.filled[seat]
    hand: list[int] = game.hands[seat][:]
    wild: int = game.wild
    costs: Sequence[int] = game.costs
    grey = game.grey
    gained = 0.0
    while True:
        best_gain = 0.0
        best: tuple[int, int, int, int] | None = None
        n_wild = hand[wild]
        for star in range(7):
            ring = filled >> (star * 6) & 63
            if ring == 63:
                continue
            allowed = _allowed(grey, filled, star_colours[star], star)
            for colour in range(NUM_COLOURS):
                have = hand[colour]
                if not have or not allowed >> colour & 1:
                    continue
                for pos in range(6):
                    if ring >> pos & 1:
                        continue
                    index = star * 6 + pos
                    k = costs[index]
                    if colour == wild:
                        if have < k:
                            continue
                        wilds = 0
                    else:
                        if have + n_wild < k:
                            continue
                        wilds = k - have if k > have else 0
                        if wilds > k - 1:
                            continue
                    gain = RUN[ring | 1 << pos][pos] - SPEND_COST * k - 0.15 * wilds
                    new = filled | 1 << index
                    for j in SPACE_STRUCTURES[index]:
                        mask = STRUCTURE_MASKS[j]
                        if new & mask == mask:
                            gain += STRUCTURE_BONUSES[j] * BONUS_TILE_VALUE
                    if ring | 1 << pos == 63:
                        gain += (1.0 - w * STAR_SHARE * 25 / 36) * model.star_bonus(
                            grey, star, star_colours[star] | 1 << colour
                        )
                    elif w:
                        n = POPCOUNT[ring]
                        gain += (
                            w
                            * STAR_SHARE
                            * model.star_bonus(
                                grey, star, star_colours[star] | 1 << colour
                            )
                            * ((n + 1) ** 2 - n**2)
                            / 36
                        )
                    if gain > best_gain:
                        best_gain = gain
                        best = (star, pos, colour, wilds)
        if best is None:
            break
        star, pos, colour, wilds = best
        index = star * 6 + pos
        k = costs[index]
        hand[colour] -= k - wilds
        hand[wild] -= wilds
        filled |= 1 << index
        star_colours[star] |= 1 << colour
        gained += RUN[filled >> (star * 6) & 63][pos]
        for j in SPACE_STRUCTURES[index]:
            mask = STRUCTURE_MASKS[j]
            if filled & mask == mask and game.filled[seat] & mask != mask:
                gained += STRUCTURE_BONUSES[j] * BONUS_TILE_VALUE
    return gained, sum(hand), filled, tuple(star_colours)


_RULES: dict[str, Callable[..., _Rules[Any, Any]]] = {
    CLASSIC_FAMILY.name: _ClassicRules,
    PAVILION_FAMILY.name: _PavilionRules,
}
"""Each family's rules for the search, by family name (``game.family``)."""


def _rules(game: Game, *, learned: bool = True) -> _Rules[Any, Any]:
    """The search's rules for ``game``'s family."""
    return _RULES[game.family.name](learned=learned)
