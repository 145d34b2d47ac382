"""WebSocket routes: the game page's doorbell, the per-user doorbell and the
doorbell of a finished game's review while it is made (its replay).

``azulsite/asgi.py`` wraps them in Channels' origin check and session/auth
middleware, so ``scope["user"]`` is set on both.
"""

from typing import Any

from django.urls import path, re_path

from games import (
    consumers,
    converters,  # noqa: F401  registers <game_id:...>
)

websocket_urlpatterns: list[Any] = [
    path("ws/games/<game_id:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/games/<game_id:game_id>/review/", consumers.ReviewConsumer.as_asgi()),
    path("ws/user/", consumers.UserConsumer.as_asgi()),
    # Anything else: the handshake is refused (403), not a routing error.
    re_path(r"", consumers.NoSuchSocket.as_asgi()),
]
