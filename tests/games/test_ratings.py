"""games.ratings.ratings: OpenSkill Plackett-Luce per family, checked against
openskill."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from games import selectors, services
from games.models import Game, PlayerStats, RatingChange
from games.ratings.ratings import conservative, rating_shown, ratings_update_for_game

from .test_services import play_out

pytestmark = pytest.mark.django_db


def _finish_by_hand(game, scores, ranks):
    """Set final scores and ranks as game_finish would, then count the game."""
    for seat in game.seats.order_by("number"):
        seat.score, seat.rank = scores[seat.number], ranks[seat.number]
        seat.save()
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.save()
    ratings_update_for_game(game=game)


def _direct(previous, ranks):
    """openskill itself, called directly, as the reference."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in previous]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def _rating(user, family="classic"):
    stats = PlayerStats.objects.get(user=user, family=family)
    return stats.mu, stats.sigma


def _flat(pairs):
    return [value for pair in pairs for value in pair]


@pytest.mark.parametrize(
    ("count", "ranks"),
    [
        (2, [2, 1]),
        (2, [1, 1]),  # a tie
        (3, [1, 3, 2]),
        (3, [2, 1, 2]),  # tie for second
        (4, [4, 1, 3, 2]),
        (4, [1, 1, 3, 3]),  # two ties
    ],
)
def test_rated_game_matches_openskill(players, start_game, count, ranks):
    users = players[:count]
    first = start_game(users, rated=True)
    _finish_by_hand(first, [10 * (5 - r) for r in ranks], ranks)
    fresh = PlackettLuce()
    expected = _direct([(fresh.mu, fresh.sigma)] * count, ranks)
    assert _flat(_rating(u) for u in users) == pytest.approx(_flat(expected))
    # a second game starts from the ratings the first one left
    second_ranks = list(reversed(ranks))
    second = start_game(users, rated=True)
    _finish_by_hand(second, [10] * count, second_ranks)
    assert _flat(_rating(u) for u in users) == pytest.approx(
        _flat(_direct(expected, second_ranks))
    )
    stats = PlayerStats.objects.get(user=users[0], family="classic")
    assert stats.rated_games == stats.games == 2
    assert stats.ordinal == pytest.approx(conservative(stats.mu, stats.sigma))
    assert stats.provisional
    history = RatingChange.objects.filter(user=users[0]).order_by("id")
    assert [h.game_id for h in history] == [first.pk, second.pk]
    assert history[1].mu_before == pytest.approx(expected[0][0])


def test_forfeit_counts_as_last_place(players, start_game):
    """Players who leave (resign, or forfeit on time) rank last and are rated so."""
    users = players[:3]
    game = start_game(users, rated=True)
    services.game_resign(game_id=game.pk, user=users[0])  # the others play on
    game.refresh_from_db()
    mover = game.seats.get(number=game.seat_to_move).user
    move = selectors.game_engine(game).legal_moves()[0]
    services.game_play_move(
        game_id=game.pk, user=mover, move=move.to_event(), expected_ply=game.ply
    )
    services.game_resign(game_id=game.pk, user=users[1])  # one left: it ends
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    ranks = [s.rank for s in game.seats.order_by("number")]
    assert ranks == [3, 2, 1]
    fresh = PlackettLuce()
    expected = _direct([(fresh.mu, fresh.sigma)] * 3, ranks)
    assert _flat(_rating(u) for u in users) == pytest.approx(_flat(expected))
    assert _rating(users[0])[0] < fresh.mu


def test_unrated_game_counts_totals_but_not_ratings(players, start_game):
    game = start_game(players[:2], rated=False)
    _finish_by_hand(game, [30, 40], [2, 1])
    stats = PlayerStats.objects.get(user=players[1], family="classic")
    assert (stats.games, stats.wins, stats.best_score) == (1, 1, 40)
    assert stats.rated_games == 0
    assert stats.mu == PlackettLuce().mu
    assert not RatingChange.objects.exists()


def test_families_are_rated_separately(players, start_game):
    classic = start_game(players[:2], variant="classic-grey", rated=True)
    _finish_by_hand(classic, [10, 20], [2, 1])
    pavilion = start_game(players[:2], variant="pavilion", rated=True)
    _finish_by_hand(pavilion, [20, 10], [1, 2])
    winner_classic = PlayerStats.objects.get(user=players[1], family="classic")
    winner_pavilion = PlayerStats.objects.get(user=players[0], family="pavilion")
    assert winner_classic.rated_games == winner_pavilion.rated_games == 1
    assert winner_classic.mu == pytest.approx(winner_pavilion.mu)
    assert PlayerStats.objects.count() == 4


def test_a_whole_rated_game_updates_ratings_in_game_finish(players, start_game):
    game = play_out(start_game(players[:2], rated=True), random.Random(3))
    ranks = [s.rank for s in game.seats.order_by("number")]
    fresh = PlackettLuce()
    expected = _direct([(fresh.mu, fresh.sigma)] * 2, ranks)
    assert _flat(_rating(u) for u in players[:2]) == pytest.approx(_flat(expected))
    assert RatingChange.objects.filter(game=game).count() == 2


def test_shown_rating_moves_with_the_result_not_with_games_played(players, start_game):
    """Third of four in a first game: μ − 3σ rises (σ shrinks more than μ falls),
    but the number shown falls below 1500, as a player who lost to two expects;
    the shown number is 1500 + 200 points per β of μ gained."""
    ranks = [1, 2, 3, 4]
    _finish_by_hand(start_game(players, rated=True), [40, 30, 20, 10], ranks)
    fresh = PlackettLuce()
    expected = _direct([(fresh.mu, fresh.sigma)] * 4, ranks)
    shown = []
    for user, (mu, _sigma) in zip(players, expected, strict=True):
        stats = PlayerStats.objects.get(user=user, family="classic")
        shown.append(
            rating_shown(mu=stats.mu, sigma=stats.sigma, rated_games=stats.rated_games)
        )
        assert shown[-1].value == round(1500 + (mu - fresh.mu) * 200 / fresh.beta)
    third = PlayerStats.objects.get(user=players[2], family="classic")
    assert third.ordinal > conservative(fresh.mu, fresh.sigma)
    assert shown[2].value < 1500
    assert [s.value for s in shown] == sorted((s.value for s in shown), reverse=True)
    assert all(s.provisional and s.games == 1 for s in shown)
