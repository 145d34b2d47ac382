"""The watch page (issue #26 item 6, docs/together.md "Watch"): games in
progress, busiest first, filtered by game and player count, paged like the
archive."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.forms import WatchFilterForm, page_number
from games.history.history_views import ARCHIVE_PAGE_SIZE, _page, _query_without_page
from games.people.watch import WatchList


@require_GET
def game_watch(request: HttpRequest) -> HttpResponse:
    form = WatchFilterForm(request.GET or None)
    data: dict[str, Any] = {}
    if form.is_bound:
        form.is_valid()
        data = {k: v for k, v in form.cleaned_data.items() if k not in form.errors}
    family, variant = form.family_and_variant() if "variant" in data else ("", "")
    games, has_next = _page(
        WatchList(family=family, variant=variant, players=data.get("players")),
        page_number(request.GET),
        ARCHIVE_PAGE_SIZE,
    )
    return render(
        request,
        "games/watch.html",
        {
            "form": form,
            "games": games,
            "page": page_number(request.GET),
            "has_next": has_next,
            "query": _query_without_page(request),
        },
    )
