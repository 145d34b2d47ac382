"""The leagues' doorbells (docs/style.md, "Channels doorbells"): a group's
pages ring when one of its games ends, and refetch their table."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def group_channel(group_id: int) -> str:
    return f"league-group-{group_id}"


def group_changed(*, group_id: int) -> None:
    """Ring the open pages of group ``group_id`` (after commit); a failed ring
    is logged, never raised (a page catches up when it reconnects)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_channel(group_id), {"type": "group.changed"}
        )
    except Exception:
        logger.exception("could not ring league group %s", group_id)
