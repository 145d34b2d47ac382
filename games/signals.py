"""What the game side announces, for whoever listens (``notify`` tells players).

``games.services`` sends each after the commit of the change it tells of
(``transaction.on_commit``), with ids only: a receiver reads the rows itself, as
they are when it runs. ``games`` imports no listener; ``notify`` connects its
receivers in ``NotifyConfig.ready()`` (``notify/receivers.py``), so the
dependency runs one way: notify → games → accounts.
"""

from __future__ import annotations

from django.dispatch import Signal

turn_started = Signal()
"""A person's turn began: ``game_id``, ``ply`` (the ply they are to play)."""

invited = Signal()
"""``user_id`` was invited to the open game ``game_id``."""

game_started = Signal()
"""``game_id`` started; ``started_by``: whose action filled the last seat, or None."""

game_finished = Signal()
"""``game_id`` is over (a game played here, not an imported one)."""

invitation_declined = Signal()
"""``user_id`` declined their invitation to the open game ``game_id``."""

game_cancelled = Signal()
"""The open game ``game_id`` was called off (by its creator, or a rematch
declined)."""

seat_left = Signal()
"""A player left ``game_id`` before its end: ``seat`` (its number), ``user_id``
and ``reason`` (``Game.EndReason``: resigned, or timeout for a forfeit on
time), whether the game ended with it or the others play on."""

vacation_day_spent = Signal()
"""``user_id``'s bank ran out in ``game_id`` and one of their vacation days was
spent (docs/clock.md, "A bank runs out")."""

deadline_pass = Signal()
"""The deadline job's pass, after timeouts and computers' turns, before the
digests: receivers do their own due work and count it in ``report``
(``games.jobs.Report``)."""
