"""``{% game_chat game %}``: the chat panel on the game page and the replay,
for the game's people only (``chat.selectors.chat_view``); nothing for anyone
else. A tag, so the games app's templates draw it without ``games`` importing
``chat``."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game

from .. import selectors
from ..views import panel_context

register = template.Library()


@register.inclusion_tag("chat/_chat.html", takes_context=True)
def game_chat(
    context: dict[str, Any], game: Game, readonly: bool = False
) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    chat = selectors.chat_view(game=game, user=user)
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "readonly": readonly,
        **(panel_context(chat) if chat is not None else {"chat": None}),
    }
