"""Replays: positions rebuilt from the Move rows equal the live states."""

from __future__ import annotations

import random

import pytest

from games import selectors, services
from games.engine import record
from games.models import Game
from games.replay import engine_at, game_replay

from .helpers import move_event

pytestmark = pytest.mark.django_db


def state(engine):
    """Everything public about a position, comparable with ==."""
    if engine.variant.startswith("pavilion"):
        return {
            key: value
            for key, value in vars(engine).items()
            if key not in ("_history", "log", "score_log")
        }
    boards = [
        (b.score, b.line_colour, b.line_count, b.wall, b.floor) for b in engine.boards
    ]
    return (
        engine.round,
        engine.phase,
        engine.factories,
        engine.center,
        engine.center_marker,
        engine.bag,
        engine.lid,
        boards,
        engine.to_move(),
        engine.pending_wall,
        engine.round_scores,
    )


def _user_to_move(game):
    return game.seats.get(number=game.seat_to_move).user


@pytest.mark.parametrize(
    ("variant", "count"),
    [("classic", 2), ("classic-grey", 4), ("pavilion", 3), ("pavilion-grey", 2)],
)
def test_replay_equals_live_state_at_every_ply(players, start_game, variant, count):
    game = start_game(players[:count], variant=variant)
    rng = random.Random(11)
    live = {game.ply: state(selectors.game_engine(game))}
    while game.status == Game.Status.ACTIVE:
        engine = selectors.game_engine(game)
        moves = engine.legal_moves()
        services.game_play_move(
            game_id=game.pk,
            user=_user_to_move(game),
            move=move_event(moves[rng.randrange(len(moves))]),
            expected_ply=game.ply,
        )
        game.refresh_from_db()
        live[game.ply] = state(selectors.game_engine(game))
    assert game.status == Game.Status.FINISHED
    events = list(selectors.game_moves(game=game).values_list("event", flat=True))
    full = game_replay(game=game, events=events, ply=len(events))
    assert full.last_ply == game.ply
    assert full.scores == [s.score for s in game.seats.order_by("number")]
    checked = 0
    for ply in range(game.ply + 1):
        replayed = state(engine_at(game=game, events=events, ply=ply))
        if ply in live:
            assert replayed == live[ply], f"ply {ply}"
            checked += 1
        if ply % 17 == 0 or ply == game.ply:
            # the viewer's own snapshot is the same position
            snapshot = game_replay(game=game, events=events, ply=ply).engine
            assert state(snapshot) == replayed
    assert checked == len(live) > 20


def test_every_step_has_words_and_scores(players, start_game):
    game = start_game(players[:2], variant="pavilion")
    engine = record.random_game("pavilion", 2, 5)
    events = engine.events()
    game.first_seat = engine.first_seat
    replay = game_replay(game=game, events=events, ply=10)
    assert len(replay.steps) == len(events)
    assert all(step.text for step in replay.steps)
    assert replay.steps[-1].scores == list(engine.scores)
    assert replay.scores == replay.steps[9].scores
