"""A visitor's wish to take a seat through an invitation link, kept across
sign-up or log-in (docs/together.md, "Invite by link").

The link page's "Sign up and take the seat" (a POST, so a page elsewhere cannot
make it) keeps the link's token in the visitor's session; when they sign up or
log in (contrib.auth's ``user_logged_in``, connected in ``receivers.connect``)
the seat is taken through the join service, in that POST, and the sign-up or
log-in page's ``next`` brings them back to the link, which leads a seated
player on to the game page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _

from accounts.models import User
from games import clock, selectors, services

SESSION_KEY = "games.invite_link"
WISH_SECONDS = 3600
"""How long a wish to take a seat holds: a sign-up or log-in much later in the
same browser (perhaps by someone else) takes no seat."""


def wish_remember(request: HttpRequest, *, token: str) -> None:
    """Keep ``token`` in the visitor's session until they sign up or log in."""
    request.session[SESSION_KEY] = {"token": token, "at": clock.now().timestamp()}


def _wished_token(request: HttpRequest) -> str | None:
    """The token of the session's wish (removed from it), if it still holds."""
    wish = request.session.pop(SESSION_KEY, None)
    if not isinstance(wish, dict):
        return None
    token, at = wish.get("token"), wish.get("at")
    if not isinstance(token, str) or not isinstance(at, int | float):
        return None
    if clock.now().timestamp() - at > WISH_SECONDS:
        return None
    return token


def on_logged_in(*, request: HttpRequest | None, user: User, **_kwargs: Any) -> None:
    """A player signed up or logged in: the seat they asked for through an
    invitation link is theirs, if the join service gives it (the link still
    open, no block); else the link page (their ``next``) tells them why."""
    session = getattr(request, "session", None)
    if request is None or session is None or SESSION_KEY not in session:
        return
    token = _wished_token(request)
    game = selectors.game_by_invite_token(token=token) if token else None
    if game is None:
        return
    try:
        services.game_join(game_id=game.pk, user=user, invite_token=token)
    except services.GameActionError as error:
        if error.code != "seated":  # already in: the link leads them to the game
            messages.error(request, error.message, fail_silently=True)
        return
    messages.success(request, _("You took the seat."), fail_silently=True)
