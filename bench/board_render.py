"""How long a board takes to render, per page: the classic and the Summer Pavilion
board of a 4-player game, as a move's response draws it.

Replays a random game (``record.random_game``, seed 1) to half-way and renders
the family's ``live_template`` (the live board for the player to move, its
context made once, outside the timing) and its read-only ``position_template``
(the replay's board), N times each, and prints the median and the p95 in
milliseconds. DEBUG is off and templates come through Django's cached loader, as
in production: the first render (compiling every template) is not timed.

Run ``python bench/board_render.py [N]`` (N defaults to 300).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
# bench/http.py would shadow the standard library's http package Django imports
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-board-render-only")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

# No collectstatic here: static URLs unhashed (the manifest is a dict look-up).
settings.STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
from django.template import engines  # noqa: E402
from django.template.backends.django import DjangoTemplates  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402

from games.engine import record  # noqa: E402
from games.families import family_for  # noqa: E402
from games.models import Game, Seat  # noqa: E402
from games.selectors import SeatView  # noqa: E402

PLAYERS = 4


class _Game:
    """What the families' ``_live.html`` read of a ``Game`` row."""

    pk = 1
    ply = 0


def _half_way(variant: str) -> Any:
    final: Any = record.random_game(variant, PLAYERS, seed=1)
    events = final.events()
    game = type(final)(final.players, grey=final.grey, first_seat=final.first_seat)
    for event in events[: len(events) // 2]:
        game.apply_event(event)
    return game


def _mover_view(game: Any) -> SeatView:
    """The player to move's view of an unsaved game row at ``game``'s position."""
    row = Game(status=Game.Status.ACTIVE, seat_to_move=game.to_move())
    seats = tuple(
        Seat(game=row, number=n, invite_status=Seat.Invite.JOINED)
        for n in range(game.players)
    )
    mover = seats[game.to_move() or 0]
    return SeatView(game=row, viewer=None, seats=seats, seat=mover, is_creator=False)


def _times(render: Callable[[], str], repeats: int) -> tuple[float, float]:
    render()  # compiles and caches every template it reaches
    samples = []
    for _n in range(repeats):
        start = time.perf_counter()
        render()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * len(samples)) - 1)]
    return statistics.median(samples), p95


def main(repeats: int = 300) -> None:
    assert not settings.DEBUG
    engine = cast(DjangoTemplates, engines["django"]).engine
    assert not engine.debug
    # template_partials' loader wraps Django's cached one, as in production
    assert "django.template.loaders.cached.Loader" in repr(engine.loaders)
    print(f"{PLAYERS} players, half-way; {repeats} renders; milliseconds per page")
    print(f"{'board':<26}{'median':>8}{'p95':>8}")
    for variant, name in (("classic", "classic"), ("pavilion", "Summer Pavilion")):
        rules = family_for(variant)
        game = _half_way(variant)
        names = [f"p{n}" for n in range(PLAYERS)]
        board = rules.live_context(game, names=names, view=_mover_view(game), query={})
        live = {"board": board, "game": _Game()}
        position = {"position": rules.position_context(game, names)}
        for page, template, context in (
            ("live", rules.live_template, live),
            ("read-only", rules.position_template, position),
        ):
            median, p95 = _times(partial(render_to_string, template, context), repeats)
            print(f"{name + ' ' + page:<26}{median:>8.2f}{p95:>8.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
