"""The "games awaiting your move" count, on every page (counted only if shown)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games import selectors


def turn_badge(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # A callable: templates call it only where the badge is drawn.
    return {"awaiting_count": lambda: selectors.game_count_awaiting_move(user=user)}
