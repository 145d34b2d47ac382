"""The mover's answer to a game's final move shows the final standings."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games import selectors, services

from .helpers import (
    decide_every_move,
    move_event,
    move_post_data,
    pavilion_choose,
    pavilion_post_data,
)
from .marks import standings

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize(
    ("variant", "seats", "seed"),
    [
        ("classic", 2, 1),
        ("classic-grey", 3, 2),
        ("pavilion", 2, 3),
        ("pavilion-grey", 3, 4),
    ],
)
def test_answer_to_the_final_move_shows_every_rank_and_score(
    players, start_game, client_for, variant, seats, seed
):
    rng = random.Random(seed)
    pavilion = variant.startswith("pavilion")
    decide_every_move(players)  # under days per move (a bank plays them all)
    game = start_game(players[:seats], variant=variant, days_per_move=3)
    while True:
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        move = (
            pavilion_choose(engine, rng)
            if pavilion
            else rng.choice(engine.legal_moves())
        )
        probe = engine.copy()
        probe.push(move)
        mover = game.seats.all()[game.seat_to_move].user
        if probe.is_over():
            break
        services.game_play_move(
            game_id=game.pk,
            user=mover,
            move=move_event(move),
            expected_ply=game.ply,
        )
    post = pavilion_post_data if pavilion else move_post_data
    response = client_for(mover).post(
        reverse("games:move", args=[game.pk]), post(move, game.ply), **HTMX
    )
    assert response.status_code == 200
    outcome = probe.outcome()
    assert outcome is not None
    expected = {
        seat: (outcome.ranks[seat], outcome.scores[seat]) for seat in range(seats)
    }
    assert standings(response.text) == expected
    # And the partner's board, drawn afresh, shows the same table.
    partner = next(s.user for s in game.seats.all() if s.user != mover)
    page = client_for(partner).get(reverse("games:detail", args=[game.pk]), **HTMX)
    assert standings(page.text) == expected
    # The end is announced: who won, with their score.
    names = [seat.user.username for seat in game.seats.all()]
    for html in (response.text, page.text):
        match = re.search(
            r'<p class="winners" data-winners="([\d ]*)">([^<]*)</p>', html
        )
        assert match is not None
        assert [int(seat) for seat in match.group(1).split()] == list(outcome.winners)
        top = outcome.scores[outcome.winners[0]]
        if len(outcome.winners) == 1:
            assert match.group(2) == (
                f"{names[outcome.winners[0]]} wins with {top} "
                f"point{'' if top == 1 else 's'}."
            )
        else:
            winners = ", ".join(names[seat] for seat in outcome.winners)
            assert match.group(2).startswith(f"{winners} share the win with {top} ")
