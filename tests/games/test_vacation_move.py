"""A move made during one's vacation ends it then, as coming back early does
(docs/clock.md, "A move ends a vacation"), and a vacation that begins or ends
rings every open page of the player's games in progress (the note "… is on
vacation until …" comes and goes live)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.urls import reverse

from accounts.models import User, Vacation
from accounts.services import (
    vacation_current,
    vacation_days_used,
    vacation_end,
    vacation_start,
)
from games import notifications, selectors, services
from games.models import Game

from .helpers import move_event, move_post_data

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ENDED = "Your vacation has ended: you are playing again."


def to_move(game: Game):
    game.refresh_from_db()
    return game.seats.get(number=game.seat_to_move).user


def play(game: Game, user=None):
    game.refresh_from_db()
    move = selectors.game_engine(game).legal_moves()[0]
    return services.game_play_move(
        game_id=game.pk,
        user=user or to_move(game),
        move=move_event(move),
        expected_ply=game.ply,
    )


def game_where(start_game, users, *, to_move_user, days_per_move=2) -> Game:
    """A two-player classic game of ``users`` where ``to_move_user`` is to move
    (one move played by the other first if needed)."""
    game = start_game(users, days_per_move=days_per_move)
    if to_move(game) != to_move_user:
        play(game)
    assert to_move(game) == to_move_user
    return game


def test_a_move_during_a_vacation_ends_it_and_moves_the_deadlines_back(
    players, start_game, fake_clock
):
    ana, binh, chloe, _dae = players
    here = game_where(start_game, [ana, binh], to_move_user=ana)
    elsewhere = game_where(start_game, [ana, chloe], to_move_user=ana)
    waiting = game_where(start_game, [ana, binh], to_move_user=binh)
    deadline_elsewhere = elsewhere.turn_deadline
    deadline_waiting = waiting.turn_deadline
    vacation_start(user=ana, days=5)
    elsewhere.refresh_from_db()
    assert elsewhere.turn_deadline == deadline_elsewhere + timedelta(days=5)

    fake_clock.advance(days=1, hours=3)
    played = play(here, ana)

    assert played.vacation_ended
    assert vacation_current(user=ana) is None
    vacation = Vacation.objects.get(user=ana)
    assert vacation.ends_at == fake_clock.now
    # 1 day 3 hours used: two whole days charged, twelve return
    assert vacation_days_used(user=ana) == 2
    # the clock stood still 1 day 3 hours in the game where she still moves
    elsewhere.refresh_from_db()
    assert elsewhere.turn_deadline == deadline_elsewhere + timedelta(days=1, hours=3)
    # where she waits nothing moved; where she moved, the next turn is binh's
    waiting.refresh_from_db()
    assert waiting.turn_deadline == deadline_waiting
    assert to_move(here) == binh
    assert here.turn_deadline == fake_clock.now + timedelta(days=2)
    # back from vacation, her next turn starts now, not at the old end
    play(here)
    here.refresh_from_db()
    assert to_move(here) == ana
    assert here.turn_deadline == fake_clock.now + timedelta(days=2)


def test_a_move_off_vacation_ends_nothing(players, start_game, fake_clock):
    ana, binh = players[:2]
    game = game_where(start_game, [ana, binh], to_move_user=ana)
    played = play(game, ana)
    assert not played.vacation_ended
    assert not Vacation.objects.exists()


def test_a_refused_move_leaves_the_vacation_as_it_was(players, start_game, fake_clock):
    ana, binh = players[:2]
    game = game_where(start_game, [ana, binh], to_move_user=ana)
    vacation = vacation_start(user=ana, days=3)
    move = selectors.game_engine(game).legal_moves()[0]
    with pytest.raises(services.GameActionError) as info:
        services.game_play_move(
            game_id=game.pk, user=ana, move=move_event(move), expected_ply=game.ply - 1
        )
    assert info.value.code == "stale"
    assert vacation_current(user=ana) == vacation
    assert Vacation.objects.get().ends_at == vacation.ends_at


def test_a_vacation_rings_every_game_of_the_player_in_progress(
    players, start_game, fake_clock, monkeypatch, django_capture_on_commit_callbacks
):
    ana, binh, chloe, _dae = players
    moving = game_where(start_game, [ana, binh], to_move_user=ana)
    waiting = game_where(start_game, [ana, chloe], to_move_user=chloe)
    others = game_where(start_game, [binh, chloe], to_move_user=binh)
    rings: list[tuple[int, int, bool]] = []
    monkeypatch.setattr(
        notifications,
        "game_updated",
        lambda *, game_id, ply, redraw=False, **_: rings.append((game_id, ply, redraw)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        vacation_start(user=ana, days=3)
    assert sorted(rings) == sorted(
        [(moving.pk, moving.ply, True), (waiting.pk, waiting.ply, True)]
    )
    assert others.pk not in {game_id for game_id, _ply, _redraw in rings}

    rings.clear()
    with django_capture_on_commit_callbacks(execute=True):
        vacation_end(user=ana)
    assert sorted(rings) == sorted(
        [(moving.pk, moving.ply, True), (waiting.pk, waiting.ply, True)]
    )


def test_the_players_board_says_the_vacation_ended_and_drops_the_note(
    players, start_game, fake_clock, client_for
):
    ana, binh = players[:2]
    game = game_where(start_game, [ana, binh], to_move_user=ana)
    vacation_start(user=ana, days=3)
    note = f"{ana.username} is on vacation until"
    assert note in client_for(binh).get(reverse("games:detail", args=[game.pk])).text
    move = selectors.game_engine(game).legal_moves()[0]
    response = client_for(ana).post(
        reverse("games:move", args=[game.pk]), move_post_data(move, game.ply), **HTMX
    )
    assert ENDED in response.text
    assert note not in response.text
    assert (
        note not in client_for(binh).get(reverse("games:detail", args=[game.pk])).text
    )


def test_without_javascript_the_vacations_end_is_a_message(
    players, start_game, fake_clock, client_for
):
    ana, binh = players[:2]
    game = game_where(start_game, [ana, binh], to_move_user=ana)
    vacation_start(user=ana, days=3)
    move = selectors.game_engine(game).legal_moves()[0]
    response = client_for(ana).post(
        reverse("games:move", args=[game.pk]),
        move_post_data(move, game.ply),
        follow=True,
    )
    messages = [str(m) for m in response.context["messages"]]
    assert messages == [ENDED]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_watcher_s_socket_hears_redraw_when_a_vacation_starts(
    players, start_game, settings
):
    from asgiref.sync import sync_to_async
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from games.routing import websocket_urlpatterns

    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }
    ana, binh = players[:2]
    game = await sync_to_async(start_game)([ana, binh])
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns),
        f"/ws/games/{game.pk}/",
        headers=[(b"origin", b"http://127.0.0.1")],
    )
    comm.scope["user"] = binh
    connected, _ = await comm.connect()
    assert connected
    hello = await comm.receive_json_from()
    assert "redraw" not in hello

    await sync_to_async(vacation_start)(user=ana, days=2)
    message = await comm.receive_json_from(timeout=2)
    assert message == {
        "type": "game",
        "ply": game.ply,
        "status": "active",
        "redraw": True,
    }
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
def test_a_move_on_vacation_while_the_account_is_locked_elsewhere_is_sent_again(
    players, start_game, fake_clock
):
    """The move's one transaction holds its game's lock, so it takes the
    vacation's locks without waiting: while another transaction holds the
    account (the settings page ending the vacation at that moment), the move
    is refused unplayed, with words to send it again, and nothing changed."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers; row locks are PostgreSQL's")
    ana, binh = players[:2]
    game = game_where(start_game, [ana, binh], to_move_user=ana)
    vacation_start(user=ana, days=3)
    game.refresh_from_db()
    ply, deadline = game.ply, game.turn_deadline
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                User.objects.select_for_update().filter(pk=ana.pk).first()
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(10)
    try:
        with pytest.raises(services.GameActionError) as refused:
            play(game, ana)
    finally:
        release.set()
        holder.join()
    assert refused.value.code == "busy"
    assert "play your move again" in refused.value.message
    game.refresh_from_db()
    assert (game.ply, game.turn_deadline) == (ply, deadline)
    assert vacation_current(user=ana) is not None
    # sent again, it is played and ends the vacation
    assert play(game, ana).vacation_ended
    assert vacation_current(user=ana) is None
