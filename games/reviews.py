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
    seats: list[SeatSummary] = field(default_factory=list)
    chart: list[dict[str, Any]] = field(default_factory=list)
    """One polyline per seat: ``points`` (SVG), ``seat``."""
    moments: list[Moment] = field(default_factory=list)
    step: dict[str, Any] | None = None
    """The replay step's own decision: label, lost, best in words."""
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


def _best_words(
    game: Game, events: Sequence[Mapping[str, Any]], index: int, best: Mapping[str, Any]
) -> str:
    """The best decision at event ``index``, in the log's words."""
    engine = engine_after(game=game, events=events, ply=index)
    start = engine.log_size()
    engine.apply_event(best)
    names = [seat.shown_name for seat in game.seats.all()]
    lines = family_for(game.variant).describe_log(engine, names)
    return lines[start] if start < len(lines) else ""


def review_view(
    *, game: Game, events: Sequence[Mapping[str, Any]], ply: int, names: Sequence[str]
) -> ReviewView | None:
    """The review of finished ``game`` at replay position ``ply``, or None (no
    review: not finished, or imported and not asked for)."""
    if game.status != Game.Status.FINISHED:
        return None
    stored = GameReview.objects.filter(game=game).first()
    if stored is None:
        return None
    view = ReviewView(status=stored.status, done=stored.done, total=stored.total)
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
    here = next((d for d in data["decisions"] if d["event"] == ply - 1), None)
    if here is not None and not here["forced"]:
        view.step = {
            "label": here["label"],
            "lost": here["lost"],
            "best": _best_words(game, events, here["event"], here["best"])
            if here["best"] != here["played"]
            else "",
        }
    return view
