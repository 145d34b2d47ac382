"""The review as the replay shows it (issue #27, docs/review.md): the stored
review of a finished game (``GameReview``, made by ``tasks.review_game``), read
into what the Review part of ``templates/games/replay.html`` draws. Only a
finished game's review is ever read: a game in progress has none, and this
module returns nothing for one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.review import ACCURACY_SCALE, THRESHOLDS

from . import review_queue
from .families import family_for
from .models import Game, GameReview
from .selectors import engine_after

CHART_WIDTH = 600
CHART_HEIGHT = 160
KEY_MOMENTS = 3


@dataclass(frozen=True)
class SeatSummary:
    name: str
    seat: int
    accuracy: float
    lost: float
    luck: float
    labels: Mapping[str, int]


@dataclass(frozen=True)
class Moment:
    """A decision or a draw that moved the game most."""

    ply: int
    """The replay position just after it (its link)."""
    name: str
    """Whose decision it was; for a draw, the player it helped or hurt most."""
    lost: float | None
    luck: float | None


@dataclass
class ReviewView:
    status: str
    done: int
    total: int
    ahead: int | None = None
    """While it waits: the reviews to be made before it (its place in the
    queue, ``games.review_queue``)."""
    seats: list[SeatSummary] = field(default_factory=list)
    chart: list[dict[str, Any]] = field(default_factory=list)
    """One polyline per seat: ``points`` (SVG), ``seat``."""
    moments: list[Moment] = field(default_factory=list)
    step: dict[str, Any] | None = None
    """The replay step's own decision: label, lost, best in words, the
    decisions weighed (``choices``) and, when the best is another decision,
    ``before_ply``: the position before it, where the best can be shown."""
    best: dict[str, Any] | None = None
    """Asked for at the position before a decision (``?best``): the review's
    best decision there (``event``, to mark on the board; ``words``), the one
    played (``played``, ``label``, ``lost``), the position after it
    (``after_ply``) and the decisions weighed (``choices``)."""
    thresholds: Sequence[tuple[str, float]] = THRESHOLDS
    accuracy_scale: float = ACCURACY_SCALE

    @property
    def ready(self) -> bool:
        return self.status == GameReview.Status.DONE


def _chart(timeline: Sequence[Sequence[float]], seats: int) -> list[dict[str, Any]]:
    if not timeline:
        return []
    top = max(10.0, *(abs(v) for point in timeline for v in point))
    step = CHART_WIDTH / max(1, len(timeline) - 1)
    middle = CHART_HEIGHT / 2
    return [
        {
            "seat": seat,
            "points": " ".join(
                f"{i * step:.1f},{middle - point[seat] / top * (middle - 4):.1f}"
                for i, point in enumerate(timeline)
            ),
        }
        for seat in range(seats)
    ]


def decision_words(game: Game, engine: Any, decision: Mapping[str, Any]) -> str:
    """``decision`` (a record event), played on a copy of ``engine``, in the
    log's words."""
    engine = engine.copy()
    start = engine.log_size()
    engine.apply_event(decision)
    names = [seat.shown_name for seat in game.seats.all()]
    lines = family_for(game.variant).describe_log(engine, names)
    return lines[start] if start < len(lines) else ""


CHOICES_SHOWN = 3
"""The decisions weighed that a step lists, best first (the task stores three)."""


def _choices(
    game: Game,
    engine: Any,
    decision: Mapping[str, Any],
    weighed: Sequence[Sequence[Any]],
) -> list[dict[str, Any]]:
    """The decisions weighed at ``decision`` (stored as ``[event, value]``,
    best first; ``engine`` the position before it) in words, each with its
    expected final points against the best (0 for the best, less for the
    others) and whether it was the one played."""
    if not weighed:
        return []
    top = weighed[0][1]
    return [
        {
            "words": decision_words(game, engine, event),
            "value": round(value - top, 2),
            "best": index == 0,
            "played": event == decision["played"],
        }
        for index, (event, value) in enumerate(weighed[:CHOICES_SHOWN])
    ]


RETRY_LABELS = ("mistake", "blunder")
RETRY_MARGIN = 1
"""A puzzle's answer is accepted within this many expected points of the best."""


@dataclass(frozen=True)
class Choice:
    key: str
    """What the form sends back (its index among the choices)."""
    words: str
    value: float
    played: bool


@dataclass(frozen=True)
class Puzzle:
    """One of a player's mistakes, to find a better decision ("Retry your
    mistakes"): the position before it and the decisions the review weighed."""

    number: int
    count: int
    ply: int
    """The replay position of the puzzle (before the mistake)."""
    engine: Any
    choices: tuple[Choice, ...]
    best: float
    label: str
    lost: float

    def accepted(self, key: str) -> bool | None:
        """Whether the choice ``key`` is a better decision: not the one played,
        within ``RETRY_MARGIN`` of the best; None for no such choice."""
        choice = next((c for c in self.choices if c.key == key), None)
        if choice is None:
            return None
        return not choice.played and choice.value >= self.best - RETRY_MARGIN


def puzzles(*, game: Game, seat: int) -> list[Mapping[str, Any]]:
    """The reviewed decisions of ``seat`` labelled a mistake or a blunder, in
    order (empty without a finished review)."""
    if game.status != Game.Status.FINISHED:
        return []
    stored = GameReview.objects.filter(game=game, status=GameReview.Status.DONE).first()
    if stored is None or not isinstance(stored.data, dict):
        return []
    alternatives = stored.data.get("alternatives", {})
    return [
        {**d, "alternatives": alternatives.get(str(d["event"]), [])}
        for d in stored.data["decisions"]
        if d["seat"] == seat and d["label"] in RETRY_LABELS
    ]


def puzzle(
    *, game: Game, events: Sequence[Mapping[str, Any]], seat: int, number: int
) -> Puzzle | None:
    """The ``number``-th (1-based) of ``seat``'s mistakes as a puzzle, or None."""
    found = puzzles(game=game, seat=seat)
    if not 1 <= number <= len(found):
        return None
    decision = found[number - 1]
    engine = engine_after(game=game, events=events, ply=decision["event"])
    weighed = [(event, value) for event, value in decision["alternatives"]]
    if not any(event == decision["played"] for event, _ in weighed):
        best_value = weighed[0][1] if weighed else 0.0
        weighed.append((decision["played"], best_value - decision["lost"]))
    # A fixed order that tells nothing of the values: by the decision's words.
    worded = sorted(
        (
            (decision_words(game, engine, event), event, value)
            for event, value in weighed
        ),
        key=lambda item: item[0],
    )
    choices = tuple(
        Choice(
            key=str(index),
            words=words,
            value=value,
            played=event == decision["played"],
        )
        for index, (words, event, value) in enumerate(worded)
    )
    return Puzzle(
        number=number,
        count=len(found),
        ply=decision["event"],
        engine=engine,
        choices=choices,
        best=max(c.value for c in choices),
        label=decision["label"],
        lost=decision["lost"],
    )


def review_view(
    *,
    game: Game,
    events: Sequence[Mapping[str, Any]],
    ply: int,
    names: Sequence[str],
    best: bool = False,
) -> ReviewView | None:
    """The review of finished ``game`` at replay position ``ply``, or None (no
    review: not finished, or imported and not asked for). With ``best``, the
    review's best decision at ``ply`` (the position before it) when it is not
    the one played: ``ReviewView.best``, instead of the step's own decision."""
    if game.status != Game.Status.FINISHED:
        return None
    stored = GameReview.objects.filter(game=game).first()
    if stored is None:
        return None
    view = ReviewView(status=stored.status, done=stored.done, total=stored.total)
    if view.status == GameReview.Status.QUEUED:
        view.ahead = review_queue.ahead_of(game.pk)
    if not view.ready or not isinstance(stored.data, dict):
        return view
    data = stored.data
    view.seats = [
        SeatSummary(
            name=names[s["seat"]],
            seat=s["seat"],
            accuracy=s["accuracy"],
            lost=s["lost"],
            luck=s["luck"],
            labels={name: s.get(name, 0) for name, _ in THRESHOLDS},
        )
        for s in data["seats"]
    ]
    view.chart = _chart(data.get("timeline", []), game.players)
    swings = [
        Moment(ply=d["event"] + 1, name=names[d["seat"]], lost=d["lost"], luck=None)
        for d in data["decisions"]
        if d["lost"] > 0
    ]
    for chance in data["chances"]:
        seat = max(range(game.players), key=lambda s: abs(chance["luck"][s]))
        swings.append(
            Moment(
                ply=chance["event"] + 1,
                name=names[seat],
                lost=None,
                luck=chance["luck"][seat],
            )
        )
    swings.sort(key=lambda m: -(m.lost if m.lost is not None else abs(m.luck or 0)))
    view.moments = sorted(swings[:KEY_MOMENTS], key=lambda m: m.ply)
    weighed = data.get("alternatives", {})
    if best:
        ahead = _weighed_decision(data, ply)
        if ahead is not None and ahead["best"] != ahead["played"]:
            engine = engine_after(game=game, events=events, ply=ply)
            view.best = {
                "event": ahead["best"],
                "words": decision_words(game, engine, ahead["best"]),
                "played": decision_words(game, engine, ahead["played"]),
                "label": ahead["label"],
                "lost": ahead["lost"],
                "after_ply": ply + 1,
                "choices": _choices(
                    game, engine, ahead, weighed.get(str(ahead["event"]), [])
                ),
            }
            return view
    here = _weighed_decision(data, ply - 1)
    if here is not None:
        engine = engine_after(game=game, events=events, ply=here["event"])
        other = here["best"] != here["played"]
        view.step = {
            "label": here["label"],
            "lost": here["lost"],
            "best": decision_words(game, engine, here["best"]) if other else "",
            "before_ply": here["event"] if other else None,
            "choices": _choices(
                game, engine, here, weighed.get(str(here["event"]), [])
            ),
        }
    return view


def _weighed_decision(data: Mapping[str, Any], event: int) -> Mapping[str, Any] | None:
    """The stored review of the decision at ``event`` (its index in the
    record), if it was weighed (not forced); None for a draw or a forced one."""
    found = next((d for d in data["decisions"] if d["event"] == event), None)
    return found if found is not None and not found["forced"] else None
