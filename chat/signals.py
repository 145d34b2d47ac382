"""What the chat announces (``notify`` listens: ``notify/receivers.py``)."""

from __future__ import annotations

from django.dispatch import Signal

message_posted = Signal()
"""``message_id`` was written (sent after its commit)."""
