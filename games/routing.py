"""WebSocket routes: the game page's doorbell and the per-user doorbell.

``azulsite/asgi.py`` wraps them in Channels' origin check and session/auth
middleware, so ``scope["user"]`` is set on both.
"""

from typing import Any

from django.urls import path

from . import consumers

websocket_urlpatterns: list[Any] = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/user/", consumers.UserConsumer.as_asgi()),
]
