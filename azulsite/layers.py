"""The in-memory channel layer, with a fan-out that stays linear in the sockets.

Channels' ``InMemoryChannelLayer`` walks every channel and every group
membership for expired entries on each ``receive`` and ``group_send``. After a
move watched by N sockets, N consumers each receive once: N × N steps in the
one event loop that also serves HTTP (``bench/ws.py``: 200 sockets). It also
starts one task per member in ``group_send``. This layer sweeps expired
entries at most once per ``clean_interval`` seconds (messages expire after
``expiry``, 60 s, so a late sweep changes nothing a client could see) and puts
a group's messages straight onto the member queues.

Used when ``REDIS_URL`` is not set, i.e. by a single server process.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class FanOutInMemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    clean_interval = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < self.clean_interval:
            return
        self._cleaned_at = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            # As in Channels, a full channel misses the message. ``send`` never
            # suspends (put_nowait), so the members are served in one step.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
