"""Replays: positions rebuilt from the Move rows equal the live states."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games import selectors, services
from games.engine import record
from games.history.replay import game_replay
from games.models import Game

from .helpers import move_event, pavilion_choose

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


def _play_random_move(game, rng):
    """Play a random legal move through the service; reload ``game``."""
    moves = selectors.game_engine(game).legal_moves()
    services.game_play_move(
        game_id=game.pk,
        user=_user_to_move(game),
        move=move_event(moves[rng.randrange(len(moves))]),
        expected_ply=game.ply,
    )
    game.refresh_from_db()


@pytest.mark.once  # replaying, not storage: the SQLite pass is enough
@pytest.mark.parametrize(
    ("variant", "count"),
    [("classic", 2), ("classic-grey", 4), ("pavilion", 3), ("pavilion-grey", 2)],
)
def test_replay_equals_live_state_at_every_ply(players, start_game, variant, count):
    game = start_game(players[:count], variant=variant)
    rng = random.Random(11)
    live = {game.ply: state(selectors.game_engine(game))}
    while game.status == Game.Status.ACTIVE:
        _play_random_move(game, rng)
        live[game.ply] = state(selectors.game_engine(game))
    assert game.status == Game.Status.FINISHED
    events = list(selectors.game_moves(game=game).values_list("event", flat=True))
    full = game_replay(game=game, events=events, ply=len(events))
    assert full.last_ply == game.ply
    assert full.scores == [s.score for s in game.seats.order_by("number")]
    checked = 0
    for ply in range(game.ply + 1):
        replayed = state(selectors.engine_after(game=game, events=events, ply=ply))
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
    assert all(step.lines and all(step.lines) for step in replay.steps)
    assert replay.steps[-1].scores == list(engine.scores)
    assert replay.scores == replay.steps[9].scores


def test_a_bonus_is_its_own_step_and_the_last_step_tells_final_bonuses(
    players, start_game
):
    game = start_game(players[:3], variant="pavilion")
    engine = record.random_game("pavilion", 3, 4)  # completes structures with bonuses
    events = engine.events()
    game.first_seat = engine.first_seat
    replay = game_replay(game=game, events=events, ply=0)
    bonus_steps = [s for s in replay.steps if "bonus" in events[s.ply - 1]]
    assert len(bonus_steps) == 2
    for step in bonus_steps:
        assert step.head.startswith(f"{replay.names[step.seat]} took ")
        assert step.head.endswith(" as a bonus")
        before = replay.steps[step.ply - 2]
        assert before.seat == step.seat and " complete" in before.head
    # the final bonuses are lines of their own after the last decision's
    last = replay.steps[-1]
    assert not last.head.startswith("Final bonuses for ")
    assert any(line.startswith("Final bonuses for ") for line in last.more)


def test_pavilion_replay_page_draws_the_live_board(client, players, start_game):
    game = start_game(players[:2], variant="pavilion")
    rng = random.Random(5)
    for _n in range(12):
        _play_random_move(game, rng)
    html = client.get(f"/games/{game.pk}/replay/", {"ply": 5}).content.decode()
    # the live page's drawing: the SVG board as printed, one per player, read-only
    assert html.count('<svg viewBox="0 0 100 100"') == 2
    assert html.count('class="pv-diamond') == 2 * 42
    assert 'class="pv-space choice' not in html and 'name="take"' not in html
    assert 'aria-current="step"' in html


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_the_replays_last_step_shows_the_final_scores(
    client, players, start_game, variant
):
    rng = random.Random(11)
    game = start_game(players[:2], variant=variant)
    while game.status == Game.Status.ACTIVE:
        engine = selectors.game_engine(game)
        move = (
            pavilion_choose(engine, rng)
            if variant == "pavilion"
            else rng.choice(engine.legal_moves())
        )
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(move),
            expected_ply=game.ply,
        )
        game = selectors.game_get(game_id=game.pk)
    page = client.get(reverse("games:replay", args=[game.pk]), {"ply": game.ply})
    # the last position of a finished game shows its final result, winner first
    table = re.search(r'class="results final-results">(.*?)</table>', page.text, re.S)
    assert table is not None
    shown = re.findall(
        r'data-rank="(\d+)" data-score="(-?\d+)">'
        r"<td[^>]*>[^<]+</td><td><bdi>([^<]+)</bdi>",
        table.group(1),
    )
    seats = game.seats.order_by("rank", "number")
    final = [(str(s.rank), str(s.score), s.user.username) for s in seats]
    assert shown == final
    assert [int(rank) for rank, _score, _name in shown] == sorted(
        int(rank) for rank, _score, _name in shown
    )
