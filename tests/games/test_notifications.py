"""games.notifications: doorbells are rung after the commit; a failed one is
logged and never undoes the change."""

from __future__ import annotations

import logging

import pytest

from games import notifications, selectors, services
from games.models import Game

from .helpers import move_event


class _FailingLayer:
    """A channel layer whose game groups are unreachable (Redis went away)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def group_send(self, group: str, message: dict[str, object]) -> None:
        if group.startswith("game-"):
            raise ConnectionError("redis is down")
        self.sent.append(group)


def test_a_failed_ring_is_logged_and_the_others_still_go(monkeypatch, caplog):
    layer = _FailingLayer()
    monkeypatch.setattr(notifications, "get_channel_layer", lambda: layer)
    with caplog.at_level(logging.ERROR, logger="games.notifications"):
        notifications.game_updated(
            game_id=1, ply=3, user_to_move_id=2, seated_user_ids=[2, 5]
        )
    assert layer.sent == ["user-2", "user-5"]
    assert "game-1" in caplog.text


@pytest.mark.django_db
def test_a_move_stays_played_when_its_doorbell_fails(
    monkeypatch, players, start_game, django_capture_on_commit_callbacks
):
    layer = _FailingLayer()
    monkeypatch.setattr(notifications, "get_channel_layer", lambda: layer)
    game = start_game(players[:2])
    mover = game.seats.get(number=game.seat_to_move).user
    move = selectors.game_engine(game).legal_moves()[0]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.game_play_move(
            game_id=game.pk, user=mover, move=move_event(move), expected_ply=game.ply
        )
    assert callbacks  # the doorbells were rung after the commit
    assert Game.objects.get(pk=game.pk).ply == game.ply + 1
    assert sorted(layer.sent) == sorted(
        f"user-{seat.user_id}" for seat in game.seats.all()
    )
