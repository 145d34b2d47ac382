"""Helpers for game tests: turn engine moves into posted forms and events."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine.classic import COLOURS, FLOOR, MARKER, Take
from games.engine.common import CENTER


def _colour_counts(counts: list[int]) -> Counter[str]:
    return Counter({COLOURS[c]: n for c, n in enumerate(counts) if n})


def classic_zones(engine: Any) -> dict[str, Counter[str]]:
    """Where a classic engine has each tile, in the page marks' zone names
    (``tests/games/marks.py``), every zone present."""
    found = {f"factory-{i}": _colour_counts(f) for i, f in enumerate(engine.factories)}
    found["centre"] = _colour_counts(engine.center)
    for seat, board in enumerate(engine.boards):
        for line in range(5):
            count = board.line_count[line]
            held = {COLOURS[board.line_colour[line]]: count} if count else {}
            found[f"line-{seat}-{line}"] = Counter(held)
        found[f"wall-{seat}"] = Counter(
            COLOURS[c] for row in board.wall for c in row if c >= 0
        )
        found[f"floor-{seat}"] = Counter(COLOURS[c] for c in board.floor if c != MARKER)
    found["bag"] = _colour_counts(engine.bag)
    found["lid"] = _colour_counts(engine.lid)
    return found


def move_event(move: Any) -> dict[str, Any]:
    """A legal engine move as the service's ``move`` (record event without seat)."""
    event = move.to_event()
    event.pop("seat")
    return event


def engine_seat_view(engine: Any, seat: int | None, *, active: bool = True) -> Any:
    """``seat``'s view (None: a spectator's) of an unsaved game at ``engine``'s
    position, in progress or (``active=False``) ended: for a board drawn from the
    engine alone, without the database."""
    from games.models import Game, Seat
    from games.selectors import SeatView

    status = Game.Status.ACTIVE if active else Game.Status.FINISHED
    game = Game(status=status, seat_to_move=engine.to_move())
    seats = tuple(
        Seat(game=game, number=number, invite_status=Seat.Invite.JOINED)
        for number in range(engine.players)
    )
    mine = seats[seat] if seat is not None else None
    return SeatView(game=game, viewer=None, seats=seats, seat=mine, is_creator=False)


def play_random_moves(game: Any, rng: Any, count: int) -> Any:
    """``count`` random legal moves through the move service, each by the seat
    to move; returns the game as read after the last."""
    from games import selectors, services

    for _ in range(count):
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(rng.choice(engine.legal_moves())),
            expected_ply=game.ply,
        )
    return selectors.game_get(game_id=game.pk)


def move_post_data(move: Any, expected_ply: int) -> dict[str, Any]:
    """A legal engine move as the board form would post it."""
    if isinstance(move, Take):
        return {
            "expected_ply": expected_ply,
            "kind": "take",
            "source": "center" if move.source == CENTER else str(move.source),
            "colour": COLOURS[move.colour],
            "line": "floor" if move.line == FLOOR else str(move.line),
        }
    return {
        "expected_ply": expected_ply,
        "kind": "wall",
        "line": str(move.line),
        "column": str(move.column),
    }


def pavilion_post_data(move: Any, expected_ply: int) -> dict[str, Any]:
    """A legal Summer Pavilion engine move as the board's forms post it."""
    from games.engine.pavilion import Bonus, Pass, Place
    from games.engine.pavilion import Take as PavilionTake
    from games.engine.pavilion_board import COLOURS as PAVILION_COLOURS
    from games.engine.pavilion_board import STARS

    data: dict[str, Any] = {"expected_ply": expected_ply}
    if isinstance(move, PavilionTake):
        data.update(
            kind="take",
            source="center" if move.source == CENTER else str(move.source),
            colour=PAVILION_COLOURS[move.colour],
        )
    elif isinstance(move, Place):
        data.update(
            kind="place",
            space=f"{STARS[move.star]}-{move.space}",
            payment=f"{PAVILION_COLOURS[move.colour]}:{move.wilds}",
        )
    elif isinstance(move, Bonus):
        data["kind"] = "bonus"
        for colour in move.tiles:
            key = f"bonus_{PAVILION_COLOURS[colour]}"
            data[key] = data.get(key, 0) + 1
    elif isinstance(move, Pass):
        data["kind"] = "pass"
        for colour in move.keep:
            key = f"keep_{PAVILION_COLOURS[colour]}"
            data[key] = data.get(key, 0) + 1
    else:  # pragma: no cover - a test bug
        raise TypeError(move)
    return data


def pavilion_choose(engine: Any, rng: Any) -> Any:
    """A plausible player: takes anything, places cheaply most of the time."""
    from games.engine.pavilion import Pass, Place

    moves = engine.legal_moves()
    if engine.phase != "place":
        return rng.choice(moves)
    places = [m for m in moves if isinstance(m, Place)]
    passes = [m for m in moves if isinstance(m, Pass)]
    if places and rng.random() < 0.85:
        fewest = min(m.wilds for m in places)
        return rng.choice([m for m in places if m.wilds == fewest])
    most = max(len(m.keep) for m in passes)
    return rng.choice([m for m in passes if len(m.keep) == most])


def decide_every_move(users: Any) -> None:
    """Turn the site's forced play off for ``users``: a test that plays each
    decision itself (and counts on it) gets every one, even the only legal one,
    in a game under days per move (a bank clock plays every person's only
    decision whatever their setting: docs/clock.md)."""
    for user in users:
        user.play_forced = False
        user.save(update_fields=["play_forced"])


def resigned_game(players: Any, start_game: Any) -> Any:
    """Two players, a dozen random moves, then the second resigns: a finished
    game to review (the caller sets ``REVIEW_SECONDS`` low)."""

    from games import selectors, services

    ana, binh = players[:2]
    game = play_random_moves(start_game([ana, binh]), random.Random(4), 12)
    services.game_resign(game_id=game.pk, user=binh)
    return selectors.game_get(game_id=game.pk)
