"""Replays: every position of a game, rebuilt from its Move rows by the engine.

Nothing is stored per move. One request replays the game once: it keeps the engine
state at the ply asked for (a cheap ``copy()``), the scores after every event and
the move list in words. Each game family plugs in its read-only position drawing
(``FAMILIES``): the live page's own (``board.board_context`` with
``replay/_classic_position.html``; ``pavilion_board.position_context`` with
``pavilion/_position.html``), and its own log wording, so a new family adds one
entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import record
from games.engine.common import Game as EngineGame

from . import pavilion_board
from .board import board_context, describe_log
from .models import Game, variant_family


@dataclass
class Step:
    """One event of the game: who, what, and the scores after it."""

    ply: int
    """Position number after this event (1-based: position 0 is before any)."""
    seat: int | None
    text: str
    scores: list[int]


@dataclass
class Replay:
    game: Game
    names: list[str]
    ply: int
    engine: EngineGame
    steps: list[Step] = field(default_factory=list)

    @property
    def last_ply(self) -> int:
        return len(self.steps)

    @property
    def scores(self) -> list[int]:
        return self.steps[self.ply - 1].scores if self.ply else _scores(self.engine)


def _scores(engine: Any) -> list[int]:
    if engine.variant.startswith("pavilion"):
        return list(engine.scores)
    return [board.score for board in engine.boards]


def seat_names(game: Game) -> list[str]:
    return [seat.name for seat in game.seats.all()]


def game_replay(*, game: Game, events: list[dict[str, Any]], ply: int) -> Replay:
    """Replay ``events`` of ``game``; keep the position after ``ply`` events.

    ``ply`` is clamped to ``0..len(events)``.
    """
    ply = max(0, min(ply, len(events)))
    names = seat_names(game)
    assert game.first_seat is not None
    engine = record.new_game(game.variant, game.players, game.first_seat)
    pavilion = game.variant.startswith("pavilion")
    snapshot = engine.copy() if ply == 0 else None
    log_ends: list[int] = []
    scores: list[list[int]] = []
    for index, event in enumerate(events):
        engine.apply_event(event)
        log_ends.append(len(engine.log))
        scores.append(_scores(engine))
        if index + 1 == ply:
            snapshot = engine.copy()
    assert snapshot is not None
    log = engine.log
    texts: list[str | None]
    if pavilion:
        texts = list(pavilion_board.describe_entries(log, names))
    else:
        texts = list(describe_log(log, names))
    steps = []
    start = 0
    for index, event in enumerate(events):
        end = log_ends[index]
        words = [text for text in texts[start:end] if text]
        if pavilion and index + 1 == len(events) and engine.is_over():
            words += pavilion_board.final_bonus_lines(engine, names)
        steps.append(
            Step(
                ply=index + 1,
                seat=event.get("seat"),
                text=" ".join(words),
                scores=scores[index],
            )
        )
        start = end
    return Replay(game=game, names=names, ply=ply, engine=snapshot, steps=steps)


def engine_at(*, game: Game, events: list[dict[str, Any]], ply: int) -> EngineGame:
    """The engine state after the first ``ply`` events (no move list)."""
    assert game.first_seat is not None
    engine = record.new_game(game.variant, game.players, game.first_seat)
    for event in events[:ply]:
        engine.apply_event(event)
    return engine


def _classic_position(game: Game, engine: Any) -> dict[str, Any]:
    context = board_context(game=game, engine=engine, viewer_seat=None, group=None)
    to_move = engine.to_move()
    context["to_move"] = to_move
    context["to_move_name"] = context["names"][to_move] if to_move is not None else None
    for player in context["players"]:
        player["to_move"] = player["seat"] == to_move
    return context


def _pavilion_position(game: Game, engine: Any) -> dict[str, Any]:
    """The live page's read-only drawing (``pavilion/_position.html``)."""
    return pavilion_board.position_context(engine, seat_names(game))


FAMILIES: dict[str, tuple[Callable[[Game, Any], dict[str, Any]], str]] = {
    "classic": (_classic_position, "games/replay/_classic_position.html"),
    "pavilion": (_pavilion_position, "games/pavilion/_position.html"),
}
"""Per game family: (position context function, read-only position partial).
``replay.html`` includes the partial with the context as ``position``."""


def position_context(game: Game, engine: Any) -> tuple[dict[str, Any], str]:
    """What the family's position partial draws, and that partial's name."""
    context_function, template = FAMILIES[variant_family(game.variant)]
    return context_function(game, engine), template
