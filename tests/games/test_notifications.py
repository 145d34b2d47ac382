"""games.notifications: rings from a server's worker thread do not wait."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games import notifications


class _GatedLayer:
    """A channel layer whose sends wait until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.sent: list[str] = []

    async def group_send(self, group: str, message: dict[str, object]) -> None:
        await self.gate.wait()
        self.sent.append(group)


MESSAGES = [("game-1", {"type": "game.updated"}), ("user-2", {"type": "user.updated"})]


@pytest.mark.asyncio
async def test_a_worker_thread_hands_its_rings_to_the_server_loop(monkeypatch):
    layer = _GatedLayer()
    monkeypatch.setattr(notifications, "get_channel_layer", lambda: layer)
    # Waiting for the layer here would never end: the gate opens only after.
    await asyncio.wait_for(sync_to_async(notifications._send)(MESSAGES), 5)
    assert layer.sent == []
    layer.gate.set()
    for _ in range(100):
        if len(layer.sent) == 2:
            break
        await asyncio.sleep(0.01)
    assert layer.sent == ["game-1", "user-2"]
    assert not notifications._pending


def test_outside_a_server_the_rings_are_sent_before_returning(monkeypatch):
    sent: list[str] = []

    class Layer:
        async def group_send(self, group: str, message: dict[str, object]) -> None:
            await asyncio.sleep(0)
            sent.append(group)

    monkeypatch.setattr(notifications, "get_channel_layer", lambda: Layer())
    notifications._send(MESSAGES)
    assert sent == ["game-1", "user-2"]


@pytest.mark.asyncio
async def test_a_failed_ring_is_logged_and_the_others_still_go(monkeypatch, caplog):
    sent: list[str] = []

    class Layer:
        async def group_send(self, group: str, message: dict[str, object]) -> None:
            if group == "game-1":
                raise ConnectionError("redis is down")
            sent.append(group)

    monkeypatch.setattr(notifications, "get_channel_layer", lambda: Layer())
    await sync_to_async(notifications._send)(MESSAGES)
    for _ in range(100):
        if sent:
            break
        await asyncio.sleep(0.01)
    assert sent == ["user-2"]
    assert "game-1" in caplog.text
