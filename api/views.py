"""The bot ladder's table (docs/api.md, "The bot ladder"): a page of the
site, not of the API."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from api import ladder
from games.models import Family
from games.ratings.ratings import rating_points


@require_GET
def ladder_table(request: HttpRequest, family: str = "classic") -> HttpResponse:
    if family not in Family.values:
        raise Http404(_("No such game."))
    rows = [
        (rank, row, rating_points(row.mu))
        for rank, row in enumerate(ladder.table(family=family), start=1)
    ]
    return render(
        request,
        "api/ladder.html",
        {"rows": rows, "family": family, "families": Family.choices},
    )
