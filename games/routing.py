"""WebSocket routes: the game page's doorbell and the per-user doorbell.

Only the per-user doorbell needs to know who is connected, so only it goes
through Channels' session and auth middleware. The game doorbell is public, like
the game page; without the middleware each of its messages is handed straight to
the server instead of through the session wrapper's ``send`` (``bench/ws.py``:
a move watched by 200 sockets sends 200 messages).
"""

from typing import Any

from channels.auth import AuthMiddlewareStack
from django.urls import path

from . import consumers

websocket_urlpatterns: list[Any] = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/user/", AuthMiddlewareStack(consumers.UserConsumer.as_asgi())),
]
