"""``bench/fill_pg.py`` (issue #40 item 1) on the PostgreSQL test database: the
games it COPYs are the site's own, move for move and rating for rating."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games.fill import current_standing


@pytest.mark.django_db(transaction=True)
def test_fill_pg_games_replay_to_their_scores_and_rate_as_the_site_does(
    client: Any,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("bench/fill_pg.py fills PostgreSQL only (COPY)")
    from accounts.models import User
    from bench.fill_pg import fill
    from games.models import Game, Move, PlayerStats, RatingChange
    from games.ratings.ratings import ratings_update_for_game
    from games.selectors.games import game_engine_from_moves

    fill(30, players=12, seed=3, jobs=1)

    games = list(Game.objects.order_by("finished_at", "id"))
    assert len(games) == 30
    assert User.objects.count() == 12
    for game in games:
        seats = list(game.seats.order_by("number"))
        assert game.moves.count() == game.ply
        engine = game_engine_from_moves(game)
        if game.end_reason == Game.EndReason.NORMAL:
            outcome = engine.outcome()
            assert outcome is not None
            assert list(outcome.scores) == [seat.score for seat in seats]
            assert list(outcome.ranks) == [seat.rank for seat in seats]
        else:
            scores, _rows = current_standing(engine)
            assert scores == [seat.score for seat in seats]
    table = games[0].seats.select_related("user")
    names = [seat.user.username for seat in table if seat.user is not None]
    assert len(names) == games[0].players
    page = client.get(f"/games/{games[0].pk}/replay/?ply=10")
    assert page.status_code == 200
    assert all(name in page.content.decode() for name in names)

    # The totals and ratings as the site's own update makes them, game by game.
    fields = ["user_id", "family", "mu", "sigma", "ordinal", "rated_games"]
    fields += ["rated_wins", "rated_best_score", "last_rated_at", "games", "wins"]
    fields += ["score_sum", "best_score"]
    filled = list(PlayerStats.objects.order_by("user_id", "family").values(*fields))
    changes = ["user_id", "game_id", "family", "mu_before", "sigma_before", "mu"]
    changes += ["sigma", "ordinal", "created_at"]
    filled_changes = list(
        RatingChange.objects.order_by("game_id", "user_id").values(*changes)
    )
    PlayerStats.objects.all().delete()
    RatingChange.objects.all().delete()
    for game in games:
        ratings_update_for_game(game=game)
    assert filled == list(
        PlayerStats.objects.order_by("user_id", "family").values(*fields)
    )
    assert filled_changes == list(
        RatingChange.objects.order_by("game_id", "user_id").values(*changes)
    )

    # The sequences are past the rows: the site's own inserts go on.
    user = User.objects.create_user(username="newcomer", password="x")
    Move.objects.create(game=games[0], ply=games[0].ply, event={}, user=user)
