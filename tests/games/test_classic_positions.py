"""Every classic position a player or a replay viewer sees is the engine's.

Whole games, seeded (moves and deals), are played through the site: the move
POST, as the players. At every ply the live board (the HTMX partial a doorbell
fetches), the mover's answer and the replay show exactly the engine's tiles,
read off the page by its marks (``tests/games/marks.py``): per zone and colour,
with every zone present.
"""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games import selectors, services
from games.engine import record
from games.engine.classic import FLOOR, Take
from games.engine.common import CENTER
from games.models import Game

from .helpers import classic_zones, move_post_data
from .marks import zones

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _choose(engine, rng: random.Random):
    """A plausible player: the take that fills most of a pattern line (what
    overflows counts against it), so games end in a few rounds."""
    moves = engine.legal_moves()
    if not isinstance(moves[0], Take):
        return rng.choice(moves)  # a grey wall's column

    def gain(move: Take) -> int:
        if move.line == FLOOR:
            return -10
        counts = (
            engine.center if move.source == CENTER else engine.factories[move.source]
        )
        tiles = counts[move.colour]
        room = move.line + 1 - engine.boards[move.seat].line_count[move.line]
        return min(room, tiles) - max(0, tiles - room)

    best = max(gain(move) for move in moves)
    return rng.choice([move for move in moves if gain(move) == best])


TABLE = ("factory-", "centre", "bag", "lid")


def _check(html: str, engine, where: str) -> None:
    drawn = zones(html)
    assert drawn == classic_zones(engine), where
    assert sum(sum(c.values()) for c in drawn.values()) == 100, where


def _check_finished(html: str, engine, where: str) -> None:
    """A finished game's page draws the players' boards as the engine ends
    them, and no factories, centre, bag or lid."""
    drawn = zones(html)
    assert not [zone for zone in drawn if zone.startswith(TABLE)], where
    expected = classic_zones(engine)
    assert drawn == {z: t for z, t in expected.items() if not z.startswith(TABLE)}


@pytest.mark.once  # drawing, not storage: the SQLite pass is enough
@pytest.mark.parametrize(
    ("variant", "seats", "seed"),
    [("classic", 2, 33), ("classic", 3, 2), ("classic-grey", 2, 6)],
)
def test_live_board_and_replay_show_the_engines_position_at_every_ply(
    players, start_game, client_for, monkeypatch, variant, seats, seed
):
    rng = random.Random(seed)
    deals = random.Random(seed)
    monkeypatch.setattr(services.common, "system_rng", lambda: deals)
    game = start_game(players[:seats], variant=variant)
    clients = {seat.number: client_for(seat.user) for seat in game.seats.all()}
    detail = reverse("games:detail", args=[game.pk])
    move_url = reverse("games:move", args=[game.pk])
    decisions = 0
    while game.status == Game.Status.ACTIVE:
        engine = selectors.game_engine(game)
        mover = clients[game.seat_to_move]
        # The board the player to move fetches, with its tile buttons.
        _check(mover.get(detail, **HTMX).text, engine, f"live, ply {game.ply}")
        move = _choose(engine, rng)
        answer = mover.post(move_url, move_post_data(move, game.ply), **HTMX)
        assert 'role="alert"' not in answer.text
        decisions += 1
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        check = _check if game.status == Game.Status.ACTIVE else _check_finished
        check(answer.text, engine, f"answer, ply {game.ply}")
    _check_finished(clients[0].get(detail, **HTMX).text, engine, "finished")
    assert decisions > 20

    replay = reverse("games:replay", args=[game.pk])
    events = engine.events()
    position = record.new_game(variant, seats, engine.first_seat)
    for ply in range(len(events) + 1):
        if ply:
            position.apply_event(events[ply - 1])
        # The partial the replay's buttons fetch; the last ply as the whole page.
        headers = HTMX if ply < len(events) else {}
        page = clients[0].get(replay, {"ply": ply}, **headers).text
        _check(page, position, f"replay, ply {ply}")
