"""games.selectors: "my games" in SQL order, open games, the engine cache."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _set_turn(game, seat, hours):
    Game.objects.filter(pk=game.pk).update(
        seat_to_move=seat, turn_deadline=timezone.now() + timedelta(hours=hours)
    )


def test_my_games_puts_my_moves_first_by_deadline(players, start_game):
    ana, binh, chloe, _ = players
    later = start_game([ana, binh])
    sooner = start_game([binh, ana])
    theirs = start_game([ana, chloe])
    _set_turn(later, 0, 48)  # ana is seat 0
    _set_turn(sooner, 1, 5)  # ana is seat 1
    _set_turn(theirs, 1, 1)  # chloe to move
    open_game = services.game_create(
        creator=ana, variant="classic", players=2, rated=False
    )
    awaiting = list(selectors.game_list_awaiting_move(user=ana))
    assert awaiting == [sooner, later]
    waiting = list(selectors.game_list_waiting(user=ana))
    assert set(waiting) == {theirs, open_game}
    assert list(selectors.game_list_awaiting_move(user=chloe)) == [theirs]


def test_recently_finished_and_open_lists(players, start_game):
    ana, binh, chloe, _ = players
    game = start_game([ana, binh])
    services.game_resign(game_id=game.pk, user=binh)
    assert list(selectors.game_list_recently_finished(user=ana)) == [game]
    assert list(selectors.game_list_awaiting_move(user=ana)) == []
    open_game = services.game_create(
        creator=ana, variant="classic", players=2, rated=False
    )
    assert list(selectors.game_list_open(user=chloe)) == [open_game]
    assert list(selectors.game_list_open(user=ana)) == []


def test_cache_matches_a_rebuild_from_the_move_rows(players, start_game):
    import random

    from .helpers import move_event

    game = start_game(players[:3], variant="classic-grey")
    rng = random.Random(5)
    for _ in range(40):
        game.refresh_from_db()
        engine = selectors.game_engine(game)
        moves = engine.legal_moves()
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.get(number=game.seat_to_move).user,
            move=move_event(moves[rng.randrange(len(moves))]),
            expected_ply=game.ply,
        )
    game.refresh_from_db()
    cached = selectors.game_engine(game)
    rebuilt = selectors.game_engine_from_moves(game)
    assert rebuilt.events() == cached.events() == game.cached_events
    assert rebuilt.log == cached.log
    assert [b.score for b in rebuilt.boards] == [b.score for b in cached.boards]
    assert rebuilt.to_move() == cached.to_move() == game.seat_to_move


def test_replayed_engine_steps_through_every_position_of_the_record(
    players, start_game
):
    from games.engine import record

    game = start_game(players[:2], variant="pavilion")
    played = record.random_game("pavilion", 2, 3)
    game.first_seat = played.first_seat
    events = played.events()
    logs = [
        engine.log_size()
        for engine in selectors.engine_replayed(game=game, events=events)
    ]
    assert len(logs) == len(events) + 1  # before the first event, then after each
    assert logs[0] == 0 and logs[-1] == played.log_size()
    halfway = selectors.engine_after(game=game, events=events, ply=40)
    assert halfway.events() == events[:40]
    assert halfway.log_size() == logs[40]
    final = selectors.engine_after(game=game, events=events, ply=len(events))
    assert final.is_over() and final.scores == played.scores


def test_an_unstarted_game_is_not_replayed(players):
    game = services.game_create(
        creator=players[0], variant="classic", players=2, rated=False
    )
    with pytest.raises(ValueError):
        selectors.engine_replayed(game=game, events=[])


def _games_of_every_kind(players, start_game):
    """Games in progress, finished, with a player who forfeited on time and
    with a computer to move, an open one, and a finished row that still names
    a seat to move (as rows finished before the seat was cleared may)."""
    from accounts.services import computer_player

    from .helpers import move_event

    ana, binh, chloe, dae = players
    active = start_game([ana, binh])
    resigned = start_game([binh, chloe])
    services.game_resign(game_id=resigned.pk, user=chloe)
    forfeited = start_game([ana, chloe, dae])
    Game.objects.filter(pk=forfeited.pk).update(
        turn_deadline=timezone.now() - timedelta(minutes=1)
    )
    assert services.game_timeout(game_id=forfeited.pk, expected_ply=forfeited.ply)
    computer = services.game_create(
        creator=binh,
        variant="pavilion",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
    computer.refresh_from_db()
    if computer.seat_to_move == 0:  # binh first: his move makes it the computer's
        engine = selectors.game_engine(computer)
        services.game_play_move(
            game_id=computer.pk,
            user=binh,
            move=move_event(engine.legal_moves()[0]),
            expected_ply=computer.ply,
        )
    stale = start_game([chloe, ana])
    Game.objects.filter(pk=stale.pk).update(status=Game.Status.FINISHED)
    waiting = services.game_create(
        creator=dae, variant="classic", players=2, rated=False
    )
    games = Game.objects.filter(
        pk__in=[g.pk for g in (active, resigned, forfeited, computer, stale, waiting)]
    )
    everyone = [*players, computer_player(level="easy")]
    return list(games.order_by("pk")), everyone


def test_the_lists_and_the_seat_view_agree_on_whose_turn_it_is(players, start_game):
    games, everyone = _games_of_every_kind(players, start_game)
    computer = everyone[-1]
    turns = {
        (game.pk, user.pk)
        for game in games
        for user in everyone
        if selectors.seat_view(game=game, user=user).my_turn
    }
    # One player to move in each game in progress: the computer in its game,
    # never the player who forfeited, nobody in a finished or open game.
    in_progress = [game for game in games if game.status == Game.Status.ACTIVE]
    assert len(in_progress) == 3
    assert sorted(pk for pk, _ in turns) == sorted(game.pk for game in in_progress)
    assert any(user_pk == computer.pk for _, user_pk in turns)
    left = Seat.objects.get(forfeited_at__isnull=False)
    assert left.game.status == Game.Status.ACTIVE
    assert (left.game_id, left.user_id) not in turns
    for game in games:
        to_move = selectors.game_user_to_move(game=game)
        mover = {user_pk for pk, user_pk in turns if pk == game.pk}
        assert ({to_move.pk} if to_move is not None else set()) == mover
    for user in everyone:
        mine = {pk for pk, user_pk in turns if user_pk == user.pk}
        awaiting = selectors.game_list_awaiting_move(user=user)
        assert {game.pk for game in awaiting} == mine
        assert selectors.game_count_awaiting_move(user=user) == len(mine)
        for game in games:
            found = selectors.game_get_awaiting_move(user=user, game_id=game.pk)
            assert (found is not None) == (game.pk in mine)
        seated = {game.pk for game in in_progress if game.seats.filter(user=user)}
        waiting = selectors.game_list_waiting(user=user)
        in_progress_waiting = {
            game.pk for game in waiting if game.status == Game.Status.ACTIVE
        }
        assert in_progress_waiting == seated - mine
