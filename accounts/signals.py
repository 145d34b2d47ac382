"""What the accounts side announces, for whoever listens (``games`` answers it).

``accounts`` imports no listener: ``games`` connects its receivers in
``GamesConfig.ready()`` (``games/receivers.py``).
"""

from __future__ import annotations

from django.dispatch import Signal

block_created = Signal()
"""``blocker`` blocks ``blocked`` (again or for the first time): sent inside the
blocking transaction, so what a receiver changes commits, or not, with it."""

vacation_changed = Signal()
"""``user_id``'s clocks stopped or run again: a vacation began (``delta``, a
``timedelta``, its length) or ended early (minus the unused time). Sent inside
the vacation's transaction; ``games`` moves the deadlines of the games where
they are to move by ``delta``."""
