"""The leagues' pages (docs/leagues.md, "Where it shows"): the Leagues page,
a season's divisions and groups, a group's table and games (its table alone
for htmx, fetched again when the group's doorbell rings), and the actions
join, leave and withdraw, each a POST that answers with a message."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.requests import SignedInHttpRequest
from leagues import notifications, selectors, services
from leagues.models import Season


@require_GET
def leagues(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "leagues/leagues.html",
        {"leagues": selectors.leagues_page(user=request.user)},
    )


@require_GET
def season(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    return render(
        request,
        "leagues/season.html",
        {
            "season": found,
            "groups": selectors.season_groups(season=found),
            "mine": selectors.my_group_in(season=found, user=request.user),
        },
    )


@require_GET
def group(request: HttpRequest, pk: int) -> HttpResponse:
    page = selectors.group_page(group_id=pk)
    if page is None:
        raise Http404(_("No such group."))
    mine = next(
        (row.entry for row in page.rows if row.entry.user_id == request.user.pk),
        None,
    )
    context = {
        "page": page,
        "mine": mine,
        "group": page.group,
        "socket": f"/ws/leagues/groups/{page.group.pk}/",
        "channel": notifications.group_channel(page.group.pk),
    }
    template = "leagues/group.html"
    if getattr(request, "htmx", False):
        template += "#table"
    return render(request, template, context)


def _action(
    request: HttpRequest, action: Callable[[], object], done: str
) -> HttpResponse:
    try:
        action()
    except services.LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return redirect("leagues:index")


@login_required
@require_POST
def join(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    return _action(
        request,
        lambda: services.season_join(season_id=pk, user=request.user),
        _("You have entered the season. Its games start on its first day."),
    )


@login_required
@require_POST
def leave(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    return _action(
        request,
        lambda: services.season_leave(season_id=pk, user=request.user),
        _("Your entry is taken back."),
    )


@login_required
@require_POST
def withdraw(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    return _action(
        request,
        lambda: services.season_withdraw(season_id=pk, user=request.user),
        _("You have withdrawn from the season: your games in it are resigned."),
    )
