"""How long the Summer Pavilion board takes to draw (context + template), per page.

Replays random games (``record.random_game``) to several points and times the
family's ``live_context`` plus rendering its ``live_template``
(``games/pavilion/_live.html``) for the player to move, and the read-only
``position_template`` (``_position.html``) alone. No database,
no request: this is the part of a move's response the pavilion page adds.

Run ``python bench/pavilion_page.py [repeats]``; it prints milliseconds per page.
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
os.environ.setdefault("DEBUG", "true")  # a throwaway in-process render

import django  # noqa: E402

django.setup()

from django.template.loader import render_to_string  # noqa: E402

from games.engine import record  # noqa: E402
from games.engine.pavilion import PavilionGame  # noqa: E402
from games.models import Game, Seat  # noqa: E402
from games.pavilion import FAMILY  # noqa: E402
from games.selectors import SeatView  # noqa: E402


class _Game:
    """What ``_live.html`` reads of a ``Game`` row."""

    pk = 1
    ply = 0


def _position_at(final: PavilionGame, fraction: float) -> PavilionGame:
    events = final.events()
    game = PavilionGame(final.players, grey=final.grey, first_seat=final.first_seat)
    for event in events[: int(len(events) * fraction)]:
        game.apply_event(event)
    return game


def _time(function: Callable[[], object], repeats: int) -> float:
    samples = []
    for _n in range(repeats):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def _mover_view(game: PavilionGame) -> SeatView:
    """The player to move's view of an unsaved game row at ``game``'s position."""
    row = Game(status=Game.Status.ACTIVE, seat_to_move=game.to_move())
    seats = tuple(
        Seat(game=row, number=n, invite_status=Seat.Invite.JOINED)
        for n in range(game.players)
    )
    mover = seats[game.to_move() or 0]
    return SeatView(game=row, viewer=None, seats=seats, seat=mover, is_creator=False)


def _live(game: PavilionGame, names: list[str]) -> str:
    board = FAMILY.live_context(game, names=names, view=_mover_view(game), query={})
    return render_to_string(FAMILY.live_template, {"board": board, "game": _Game()})


def _read_only(game: PavilionGame, names: list[str]) -> str:
    return render_to_string(
        FAMILY.position_template,
        {"position": FAMILY.position_context(game, names)},
    )


def _replay(final: PavilionGame, events: list[dict[str, Any]]) -> None:
    game = PavilionGame(final.players, grey=final.grey, first_seat=final.first_seat)
    for event in events:
        game.apply_event(event)


def main(repeats: int = 30) -> None:
    print(f"median of {repeats} renders, milliseconds per page")
    print(f"{'position':<32}{'live page':>10}{'read-only':>11}{'replay':>9}")
    for variant, players in (("pavilion", 2), ("pavilion-grey", 4)):
        final = record.random_game(variant, players, seed=1)
        final = cast(PavilionGame, final)  # a pavilion variant's game
        names = [f"p{n}" for n in range(players)]
        for fraction in (0.5, 1.0):
            game = _position_at(final, fraction)
            events = final.events()[: int(len(final.events()) * fraction)]
            label = f"{variant} {players}p, {len(events)} events"
            live = _time(partial(_live, game, names), repeats)
            read_only = _time(partial(_read_only, game, names), repeats)
            replay = _time(partial(_replay, final, events), repeats)
            print(f"{label:<32}{live:>10.2f}{read_only:>11.2f}{replay:>9.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
