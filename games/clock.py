"""The site's clock: the one function deadlines read, so tests can move time.

Tests patch ``games.clock.now`` (``monkeypatch.setattr(clock, "now", ...)``); every
service and the deadline job call ``clock.now()`` through this module.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
