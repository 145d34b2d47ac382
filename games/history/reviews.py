"""The review as the replay shows it (issue #27, docs/review.md): the stored
review of a finished game (``GameReview``, made by ``tasks.review_game``), read
into what the Review part of ``templates/games/replay.html`` draws. Only a
finished game's review is ever read: a game in progress has none, and this
module returns nothing for one."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.formats import number_format

from games import clock
from games.engine.review import (
    ACCURACY_SCALE,
    THRESHOLDS,
    DecisionReview,
    Review,
    SeatReview,
)
from games.families import family_for
from games.history import review_queue
from games.models import Game, GameReview
from games.selectors import engine_after, game_continued, seat_view

CHART_WIDTH = 480
CHART_HEIGHT = 230
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 44, 14, 30, 50
"""Margins around the chart's plot: the vertical axis's title above it and its
ticks left, the positions and the horizontal axis's title below (SVG units;
the chart is drawn at most this wide, so its text keeps its size on a phone)."""
CHART_X_TICKS = 6
KEY_MOMENTS = 3

logger = logging.getLogger(__name__)


def stored_review(stored: GameReview) -> Review | None:
    """The engine's review that ``stored`` holds (``Review.from_json``: the
    task stores ``Review.to_json``), or None where it holds none (not made
    yet) or data of another shape (logged)."""
    if not isinstance(stored.data, dict):
        return None
    try:
        return Review.from_json(stored.data)
    except ValueError:
        logger.warning("game %s: its stored review is unreadable", stored.game_id)
        return None


@dataclass(frozen=True)
class SeatSummary:
    name: str
    seat: int
    accuracy: float
    lost: float
    luck: float
    labels: Mapping[str, int]
    story: Mapping[str, str] | None = None
    """The review's story of the seat's game, in signed figures of the
    reader's language (:func:`_story`): ``start``, ``luck``, ``lost``,
    ``others``, ``expected``, ``actual``, ``gap``; None for a review stored
    before it had one, or a game not played to its end."""


def _signed_points(value: float) -> str:
    """``value`` to one decimal in the reader's language, with its sign (a
    true minus sign, as the chart's ticks)."""
    shown = number_format(abs(value), 1)
    if shown == number_format(0, 1):
        return shown
    return ("+" if value > 0 else "\u2212") + shown


def _story(seat: SeatReview) -> dict[str, str] | None:
    """A seat's story (``games.engine.review.SeatReview``: the margin expected
    at the start, plus its luck, less its own losses, plus the others', beside
    its actual margin), or None (a game not played to its end, or a review
    stored before stories, which has no ``actual``)."""
    if seat.actual is None:
        return None
    return {
        "start": _signed_points(seat.start),
        "luck": _signed_points(seat.luck),
        "lost": _signed_points(-seat.lost),
        "others": _signed_points(seat.others),
        "expected": _signed_points(seat.expected),
        "actual": _signed_points(seat.actual),
        "gap": number_format(abs(seat.actual - seat.expected), 1),
    }


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
    queue, ``games.history.review_queue``)."""
    busy_hours: int | None = None
    """While the hour's cap (``REVIEW_PER_HOUR``) holds it back: within how
    many hours it starts (``review_queue.hours_to_wait``)."""
    seats: list[SeatSummary] = field(default_factory=list)
    chart: dict[str, Any] | None = None
    """The chart's geometry (``_chart``): a polyline per seat and the axes'
    ticks."""
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

    @property
    def failed(self) -> bool:
        """It could not be made (the Review tab says so, without a doorbell)."""
        return self.status == GameReview.Status.FAILED


def _nice_top(value: float) -> int:
    """The chart's vertical reach: ``value`` rounded up to a round number of
    points (a multiple of 10 up to 60, of 20 up to 100, then of 50), so the
    ticks at half of it are whole numbers too."""
    for step, limit in ((10, 60), (20, 100)):
        if value <= limit:
            return max(step, math.ceil(value / step) * step)
    return math.ceil(value / 50) * 50


def _signed(value: int) -> str:
    """A tick's label: "+20", "0", "−20" (a true minus sign)."""
    if value > 0:
        return f"+{value}"
    return f"\u2212{-value}" if value < 0 else "0"


def _position_ticks(last: int) -> list[int]:
    """A few replay positions along the horizontal axis, 1 to ``last``: the
    first and the multiples of a round step (1, 2, 5, 10, 20, 25, 50…) giving at
    most ``CHART_X_TICKS`` in all."""
    steps = sorted({1, 2, 5, *(m * 10**k for k in range(1, 4) for m in (1, 2, 2.5, 5))})
    step = next((int(s) for s in steps if last // s < CHART_X_TICKS), last)
    ticks = [1, *range(step, last + 1, step)]
    # The first position, unless the first round one sits right beside it.
    if len(ticks) > 1 and ticks[1] - 1 < step / 2:
        ticks.pop(0)
    return sorted(set(ticks))


def _chart(timeline: Sequence[Sequence[float]], seats: int) -> dict[str, Any] | None:
    """The chart of each seat's expected final margin after each event (the
    replay position just after it: 1 for the first), as SVG geometry
    (``templates/games/_review.html``): a line per seat (``lines``: ``seat``,
    ``points``), the vertical axis in expected final points (``y_ticks`` at
    −top, −top/2, 0, +top/2, +top: ``value``, ``label``, ``y``), the horizontal
    in positions (``x_ticks``: ``ply``, ``x``) and the plot's edges (``plot``);
    None without a timeline."""
    if not timeline:
        return None
    top = _nice_top(max(10.0, *(abs(v) for point in timeline for v in point)))
    left, right = CHART_LEFT, CHART_WIDTH - CHART_RIGHT
    upper, lower = CHART_TOP, CHART_HEIGHT - CHART_BOTTOM
    last = len(timeline)

    def x(ply: int) -> float:
        if last == 1:
            return (left + right) / 2
        return left + (right - left) * (ply - 1) / (last - 1)

    def y(value: float) -> float:
        return upper + (lower - upper) * (top - value) / (2 * top)

    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "plot": {
            "left": left,
            "right": right,
            "top": upper,
            "bottom": lower,
            "middle_x": f"{(left + right) / 2:.1f}",
        },
        "top": top,
        "lines": [
            {
                "seat": seat,
                "points": " ".join(
                    f"{x(i + 1):.1f},{y(point[seat]):.1f}"
                    for i, point in enumerate(timeline)
                ),
            }
            for seat in range(seats)
        ],
        "y_ticks": [
            {"value": value, "label": _signed(value), "y": f"{y(value):.1f}"}
            for value in (top, top // 2, 0, -top // 2, -top)
        ],
        "x_ticks": [
            {"ply": ply, "x": f"{x(ply):.1f}"} for ply in _position_ticks(last)
        ],
    }


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
"""The decisions weighed that a step lists, best first (the review stores
three: ``games.engine.review.ALTERNATIVES_KEPT``); the one played comes after
them when it is not among them."""


def _choices(game: Game, engine: Any, decision: DecisionReview) -> list[dict[str, Any]]:
    """The decisions weighed at ``decision`` (its ``alternatives``, best first;
    ``engine`` the position before it) in words, each with its expected final
    points against the best (0 for the best, less for the others) and whether
    it was the one played. The one played is always listed: when it is not
    among the first ``CHOICES_SHOWN``, it comes last, worth the best's value
    less its loss (as in ``puzzle``)."""
    weighed = decision.alternatives
    if not weighed:
        return []
    top = weighed[0][1]
    played = decision.played
    shown = [(event, value) for event, value in weighed[:CHOICES_SHOWN]]
    if not any(event == played for event, _ in shown):
        stored = (value for event, value in weighed if event == played)
        shown.append((played, next(stored, top - decision.lost)))
    return [
        {
            "words": decision_words(game, engine, event),
            "value": round(value - top, 2),
            "best": index == 0,
            "played": event == played,
        }
        for index, (event, value) in enumerate(shown)
    ]


@dataclass(frozen=True)
class PageReview:
    """What a finished game's own page shows of its review (docs/review.md,
    "On the site"): a link to the replay's Review tab beside the Replay link
    and, in the final result table, each seat's accuracy."""

    url: str
    """The replay's Review tab."""
    column: bool
    """The final table has an Accuracy column: there is a review, made or
    being made, and the viewer does not wait to look at it."""
    accuracy: Mapping[int, float]
    """Each seat's accuracy, by seat number, once the review is made (while
    it is being made, the column shows "…")."""


def may_ask(*, game: Game, user: Any) -> bool:
    """Whether ``user`` may ask for the review of finished ``game``
    (``SeatView.may_ask_review``, the rule's one home)."""
    return seat_view(game=game, user=user).may_ask_review


def page_review(*, game: Game, user: Any) -> PageReview | None:
    """The review as the game page of finished ``game`` shows it to ``user``,
    or None where its replay has no Review tab: a game in progress, an
    imported record that continues one (``selectors.game_continued``) or one
    nobody asked to review (but for its uploader, who may ask). A player who
    waits to look (``review_hidden``) gets the link, no numbers."""
    if game.status != Game.Status.FINISHED or game_continued(game=game) is not None:
        return None
    stored = GameReview.objects.filter(game=game).only("status", "data").first()
    signed_in = bool(getattr(user, "is_authenticated", False))
    if stored is None and not may_ask(game=game, user=user):
        return None
    url = reverse("games:replay", kwargs={"pk": game.pk}) + "?tab=review"
    waits = signed_in and bool(getattr(user, "review_hidden", False))
    if stored is None or waits or stored.status == GameReview.Status.FAILED:
        return PageReview(url=url, column=False, accuracy={})
    accuracy: dict[int, float] = {}
    made = stored_review(stored) if stored.status == GameReview.Status.DONE else None
    if made is not None:
        accuracy = {s.seat: s.accuracy for s in made.seats}
    return PageReview(url=url, column=True, accuracy=accuracy)


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


def puzzles(*, game: Game, seat: int) -> list[DecisionReview]:
    """The reviewed decisions of ``seat`` labelled a mistake or a blunder, in
    order (empty without a finished review)."""
    if game.status != Game.Status.FINISHED:
        return []
    stored = GameReview.objects.filter(game=game, status=GameReview.Status.DONE).first()
    made = stored_review(stored) if stored is not None else None
    if made is None:
        return []
    return [d for d in made.decisions if d.seat == seat and d.label in RETRY_LABELS]


def puzzle(
    *, game: Game, events: Sequence[Mapping[str, Any]], seat: int, number: int
) -> Puzzle | None:
    """The ``number``-th (1-based) of ``seat``'s mistakes as a puzzle, or None."""
    found = puzzles(game=game, seat=seat)
    if not 1 <= number <= len(found):
        return None
    decision = found[number - 1]
    engine = engine_after(game=game, events=events, ply=decision.event)
    weighed = list(decision.alternatives)
    if not any(event == decision.played for event, _ in weighed):
        best_value = weighed[0][1] if weighed else 0.0
        weighed.append((decision.played, best_value - decision.lost))
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
            played=event == decision.played,
        )
        for index, (words, event, value) in enumerate(worded)
    )
    return Puzzle(
        number=number,
        count=len(found),
        ply=decision.event,
        engine=engine,
        choices=choices,
        best=max(c.value for c in choices),
        label=decision.label,
        lost=decision.lost,
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
        view.busy_hours = review_queue.hours_to_wait(view.ahead, clock.now())
    made = stored_review(stored) if view.ready else None
    if made is None:
        return view
    view.seats = [
        SeatSummary(
            name=names[s.seat],
            seat=s.seat,
            accuracy=s.accuracy,
            lost=s.lost,
            luck=s.luck,
            labels=s.labels,
            story=_story(s),
        )
        for s in made.seats
    ]
    view.chart = _chart(made.timeline, game.players)
    swings = [
        Moment(ply=d.event + 1, name=names[d.seat], lost=d.lost, luck=None)
        for d in made.decisions
        if d.lost > 0
    ]
    for chance in made.chances:
        seat = max(range(game.players), key=lambda s: abs(chance.luck[s]))
        swings.append(
            Moment(
                ply=chance.event + 1,
                name=names[seat],
                lost=None,
                luck=chance.luck[seat],
            )
        )
    swings.sort(key=lambda m: -(m.lost if m.lost is not None else abs(m.luck or 0)))
    view.moments = sorted(swings[:KEY_MOMENTS], key=lambda m: m.ply)
    if best:
        ahead = _weighed_decision(made, ply)
        if ahead is not None and ahead.best != ahead.played:
            engine = engine_after(game=game, events=events, ply=ply)
            view.best = {
                "event": ahead.best,
                "words": decision_words(game, engine, ahead.best),
                "played": decision_words(game, engine, ahead.played),
                "label": ahead.label,
                "lost": ahead.lost,
                "spread": _shown_spread(ahead),
                "after_ply": ply + 1,
                "choices": _choices(game, engine, ahead),
            }
            return view
    here = _weighed_decision(made, ply - 1)
    if here is not None:
        engine = engine_after(game=game, events=events, ply=here.event)
        other = here.best != here.played
        view.step = {
            "label": here.label,
            "lost": here.lost,
            "spread": _shown_spread(here),
            "best": decision_words(game, engine, here.best) if other else "",
            "before_ply": here.event if other else None,
            "choices": _choices(game, engine, here),
        }
    return view


SPREAD_SHOWN = 0.05
"""A loss's uncertainty is shown beside it ("6.0 ± 2.0") from this many points
(rounded to one decimal, a smaller one reads ± 0.0)."""


def _shown_spread(decision: DecisionReview) -> float | None:
    """The uncertainty of a stored decision's loss, when there is one to show
    (reviews made before it was stored have none: read as 0)."""
    spread = decision.spread
    return float(spread) if spread >= SPREAD_SHOWN else None


def _weighed_decision(made: Review, event: int) -> DecisionReview | None:
    """The review of the decision at ``event`` (its index in the record), if
    it was weighed (not forced); None for a draw or a forced one."""
    found = next((d for d in made.decisions if d.event == event), None)
    return found if found is not None and not found.forced else None
