"""WebSocket routes. The live consumers (doorbells) arrive with their own issue."""

from typing import Any

websocket_urlpatterns: list[Any] = []
