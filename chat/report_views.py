"""Report a player (issue #33): the form page a profile's "Report this player"
leads to (docs/together.md, "Report a player").

Signed-in players only, of another person; the form lists the games the two
played together (``chat.selectors.shared_games``), and
``chat.services.player_report_create`` stores the report. The reported player
is never told.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest

from . import selectors, services
from .forms import PlayerReportForm

TEMPLATE = "chat/player_report.html"


@login_required
@require_http_methods(["GET", "POST"])
def player_report(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """GET: the form (``?game=<id>`` chooses one of the shared games); POST:
    the report, then back to the profile, or the form with its errors."""
    reported = get_object_or_404(User, username=username, is_active=True)
    try:
        services.player_report_check(reporter=request.user, reported=reported)
    except services.ChatError as refused:
        return render(
            request,
            TEMPLATE,
            {"player": reported, "refused": refused.message},
            status=403,
        )
    games = selectors.shared_games(user=request.user, other=reported)
    if request.method == "POST":
        form = PlayerReportForm(request.POST, games=games)
        if form.is_valid():
            try:
                services.player_report_create(
                    reporter=request.user,
                    reported=reported,
                    reason=form.cleaned_data["reason"],
                    game=form.cleaned_data["game"],
                    details=form.cleaned_data["details"],
                )
            except services.ChatError as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(
                    request, _("Thank you: the moderators will look at it.")
                )
                return redirect("profile", username=reported.username)
    else:
        initial = {}
        chosen = request.GET.get("game", "")
        if chosen.isdigit() and games.filter(pk=int(chosen)).exists():
            initial["game"] = int(chosen)
        form = PlayerReportForm(games=games, initial=initial)
    return render(
        request,
        TEMPLATE,
        {"player": reported, "form": form, "has_games": games.exists()},
    )
