"""The invitation link's page, ``/join/<token>/`` (issue #26 item 2;
docs/together.md, "Invite by link"): the game's settings and seats, and a
button that takes a seat through the join service."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import selectors, services
from games.lobby import invite_links
from games.models import Game
from games.requests import HtmxHttpRequest


def _dead(request: HtmxHttpRequest, *, status: int) -> HttpResponse:
    """The page of a link that seats nobody: unknown or malformed (404), or its
    game started, full or called off (410); the same words for all, and
    nothing of the game."""
    return render(request, "games/invite_link_dead.html", status=status)


@require_http_methods(["GET", "POST"])
def invite_link(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """GET: what the link invites to. POST: take the seat (a signed-in player),
    or (a visitor) sign up or log in first, the seat taken as they do
    (``invite_links``)."""
    game = selectors.game_by_invite_token(token=token)
    if game is None:
        return _dead(request, status=404)
    view = selectors.seat_view(game=game, user=request.user)
    if view.seat is not None and game.status != Game.Status.CANCELLED:
        # the creator, a player who took the seat (back after signing up), or
        # one invited by name: their place is the game page
        return redirect("games:detail", pk=game.pk)
    if not view.link_open:
        return _dead(request, status=410)
    here = reverse("games:link", kwargs={"token": token})
    if request.method == "POST":
        if view.viewer is None:
            invite_links.wish_remember(request, token=token)
            then = "login" if request.POST.get("then") == "login" else "signup"
            # 303 (See Other, a GET next): accounts.middleware's rewrite of a
            # POST's 302 to log in (its next taken from the Referer) is for
            # actions behind login_required; this next is the link itself.
            answer = HttpResponseRedirect(
                f"{reverse(then)}?{urlencode({'next': here})}"
            )
            answer.status_code = 303
            return answer
        try:
            services.game_join(game_id=game.pk, user=view.viewer, invite_token=token)
        except services.GameActionError as error:
            messages.error(request, error.message)
            return redirect(here)
        messages.success(request, _("You took the seat."))
        return redirect("games:detail", pk=game.pk)
    return render(request, "games/invite_link.html", {"game": game, "view": view})
