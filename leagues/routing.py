"""The leagues' WebSocket routes (composed before the games' in
``azulsite/asgi.py``, whose last route refuses every other path)."""

from typing import Any

from django.urls import path

from leagues import consumers

websocket_urlpatterns: list[Any] = [
    path("ws/leagues/groups/<int:group_id>/", consumers.GroupConsumer.as_asgi()),
]
