"""A group page's doorbell (``/ws/leagues/groups/<id>/``): it rings when one
of the group's games ends (``notifications.group_changed``); the page then
fetches its table again. Public, like the page; clients say nothing."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from games.consumers import CLOSE_NOT_FOUND, Doorbell
from leagues import notifications
from leagues.models import Group


class GroupConsumer(Doorbell):
    async def connect(self) -> None:
        group_id = int(self.scope["url_route"]["kwargs"]["group_id"])
        exists = await database_sync_to_async(
            Group.objects.filter(pk=group_id).exists
        )()
        if not exists:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not await self.join(notifications.group_channel(group_id)):
            return
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def group_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "group"})
