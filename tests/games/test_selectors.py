"""games.selectors: "my games" in SQL order, open games, the engine cache."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.models import Game

from .helpers import play_random_moves

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
        creator=ana, variant="classic", players=2, days_per_move=1, rated=False
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
        creator=ana, variant="classic", players=2, days_per_move=1, rated=False
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


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_engine_cache_serves_copies_of_the_stored_events_only(
    players, start_game, monkeypatch, variant
):
    """A board read after a move copies the process's engine instead of replaying
    the game; a copy only, and only while its events are the stored ones."""
    import random

    from .helpers import move_event, pavilion_choose

    game = start_game(players[:2], variant=variant)
    rng = random.Random(3)
    for _ in range(6):
        game = selectors.game_get(game_id=game.pk)
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
    replays = []
    real_replay = selectors._replay
    monkeypatch.setattr(
        selectors, "_replay", lambda g, e: replays.append(len(e)) or real_replay(g, e)
    )
    # The partner's board after the move: no replay, the same state as a rebuild.
    game = selectors.game_get(game_id=game.pk)
    first = selectors.game_engine(game)
    assert replays == []
    rebuilt = selectors.game_engine_from_moves(game)
    assert first.events() == rebuilt.events() == game.cached_events
    assert first.to_move() == rebuilt.to_move() == game.seat_to_move
    replays.clear()  # game_engine_from_moves replays, by design
    # Mutating what a caller got does not leak into the next request's engine.
    first.apply_event({**move_event(first.legal_moves()[0]), "seat": first.to_move()})
    second = selectors.game_engine(selectors.game_get(game_id=game.pk))
    assert second is not first and second.events() == game.cached_events
    assert replays == []
    # Events that differ from the cached ones (another database, a rewritten
    # game) are replayed, never served from the cache.
    Game.objects.filter(pk=game.pk).update(
        state={"events": game.cached_events[:-1]}, ply=game.ply - 1
    )
    shorter = selectors.game_engine(selectors.game_get(game_id=game.pk))
    assert replays == [len(game.cached_events) - 1]
    assert shorter.events() == game.cached_events[:-1]


def test_engine_cache_extends_an_entry_a_few_moves_behind(
    players, start_game, monkeypatch
):
    """Another server process made the last moves: this process's entry is a
    prefix of the stored events, so it applies the new ones instead of replaying
    the whole game, and keeps the result."""
    import random

    rng = random.Random(8)
    game = play_random_moves(start_game(players[:2]), rng, 5)
    behind = selectors.game_engine(game)
    behind_events = game.cached_events
    game = play_random_moves(game, rng, 3)
    selectors._engine_store(game, behind_events, behind)  # as this process saw it
    replays = []
    real_replay = selectors._replay
    monkeypatch.setattr(
        selectors, "_replay", lambda g, e: replays.append(len(e)) or real_replay(g, e)
    )
    extended = selectors.game_engine(game)
    assert replays == []
    rebuilt = real_replay(game, game.cached_events)
    assert extended.events() == rebuilt.events() == game.cached_events
    assert extended.log == rebuilt.log
    assert [b.score for b in extended.boards] == [b.score for b in rebuilt.boards]
    assert extended.to_move() == game.seat_to_move
    # The extended state is what the process now remembers.
    again = selectors.game_engine(selectors.game_get(game_id=game.pk))
    assert again is not extended and again.events() == game.cached_events
    assert replays == []


def test_log_in_words_is_extended_from_the_last_drawing(
    players, start_game, monkeypatch
):
    """board.described_log describes only the entries added since it last drew
    the game, per language, and never reuses another game's lines."""
    import random

    from django.utils import translation

    from games import board
    from games.board import describe_log, described_log

    rng = random.Random(9)
    game = play_random_moves(start_game(players[:2]), rng, 4)
    names = [seat.name for seat in game.seats.all()]
    early_engine = selectors.game_engine(game)
    early = described_log(game, early_engine, names)
    assert early == describe_log(early_engine.log, names)
    game = play_random_moves(game, rng, 6)
    engine = selectors.game_engine(game)
    described = []
    monkeypatch.setattr(
        board,
        "describe_log",
        lambda entries, n: described.append(len(entries)) or describe_log(entries, n),
    )
    later = described_log(game, engine, names)
    assert described == [engine.log_size() - early_engine.log_size()]
    assert later == describe_log(engine.log, names)
    assert later[: len(early)] == early and len(later) > len(early)
    with translation.override("vi"):
        vietnamese = described_log(game, engine, names)
        assert vietnamese == describe_log(engine.log, names)
    assert vietnamese != later
    # Same primary key, other events (a rewritten game): described afresh.
    Game.objects.filter(pk=game.pk).update(state={"events": game.cached_events[:3]})
    rewritten = selectors.game_get(game_id=game.pk)
    rewritten_engine = selectors.game_engine(rewritten)
    assert described_log(rewritten, rewritten_engine, names) == describe_log(
        rewritten_engine.log, names
    )
    assert described_log(game, engine, ["x", "y"]) == describe_log(
        engine.log, ["x", "y"]
    )
