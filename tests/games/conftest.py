"""Fixtures shared by the games app's tests."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import clock


class Clock:
    """The site's clock (``games.clock.now``) held still, moved on by hand."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(clock, "now", fake)
    return fake
