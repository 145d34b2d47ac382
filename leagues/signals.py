"""What the leagues announce, for whoever listens (``notify`` tells the
players once each: never one message per game created). Sent after the
commit of the change, with ids only."""

from __future__ import annotations

from django.dispatch import Signal

season_started = Signal()
"""``season_id`` started: its groups are made and every game created."""

season_ended = Signal()
"""``season_id`` ended: its places are final."""

verdicts_wanted = Signal()
"""``season_id`` ended with games whose verdicts take the computer's playouts:
``leagues.tasks`` queues one on the review queue for each still unfinished."""
