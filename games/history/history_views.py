"""Archive, replay viewer, record import, leaderboards and high scores.

Thin views like ``views.py``: forms parse, selectors read, services write. The
replay viewer is one view: the page, or for an HTMX request its named partial
``games/replay.html#replay`` (``requests.wants_partial``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)
from django.views.decorators.vary import vary_on_headers
from django_ratelimit.decorators import ratelimit

from games import selectors, services
from games.engine.variants import PLAYERS
from games.families import family_for
from games.forms import (
    CURSOR_QUERY,
    ArchiveFilterForm,
    RecordImportForm,
    archive_cursor,
    page_number,
    query_int,
)
from games.history import replay as replays
from games.history import reviews
from games.models import FAMILY_VARIANTS, Family, Game
from games.play.results import final_results
from games.ratings.ratings import PROVISIONAL_GAMES
from games.requests import (
    HtmxHttpRequest,
    SignedInHttpRequest,
    vary_on_htmx,
    wants_partial,
)

REVIEW_PANEL = "review-panel"
"""The id of the Review tab's panel (``templates/games/replay.html``)."""
ARCHIVE_PAGE_SIZE = 25
LEADERBOARD_PAGE_SIZE = 50


def _page(items: Any, page: int, size: int) -> tuple[list[Any], bool]:
    """One page of a queryset and whether another follows — no COUNT(*), which
    costs a full scan on a large table: ``size + 1`` rows tell if there is more."""
    offset = (page - 1) * size
    rows = list(items[offset : offset + size + 1])
    return rows[:size], len(rows) > size


def _query_without_page(request: HttpRequest) -> str:
    query = request.GET.copy()
    for name in ("page", *CURSOR_QUERY):
        query.pop(name, None)
    return query.urlencode()


@require_GET
def game_archive(request: HttpRequest) -> HttpResponse:
    form = ArchiveFilterForm(request.GET or None)
    data: dict[str, Any] = {}
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
    elif form.is_bound:
        data = {k: v for k, v in form.cleaned_data.items() if k not in form.errors}
    rated = {"yes": True, "no": False}.get(data.get("rated") or "")
    family, variant = form.family_and_variant() if "variant" in data else ("", "")
    filters = selectors.ArchiveFilters(
        player=data.get("player"),
        family=family,
        variant=variant,
        players=data.get("players"),
        rated=rated,
        since=data.get("since"),
        until=data.get("until"),
        ongoing=data.get("show") == "ongoing",
        imported=data.get("show") == "imported",
    )
    page = selectors.ArchivePage([], None, None)
    if "player" not in form.errors:  # a player nobody is has no games
        page = selectors.archive_page(
            filters=filters, cursor=archive_cursor(request.GET), size=ARCHIVE_PAGE_SIZE
        )
    return render(
        request,
        "games/archive.html",
        {
            "form": form,
            "games": page.games,
            "page": page,
            "paged": any(name in request.GET for name in CURSOR_QUERY),
            "query": _query_without_page(request),
            "ongoing": filters.ongoing,
        },
    )


def _game_or_404(pk: int) -> Game:
    try:
        return selectors.game_get(game_id=pk)
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None


REVIEW_TAB = "review"
"""``?tab=review``: the replay's Review tab (the Moves tab otherwise)."""


@vary_on_htmx
@vary_on_headers("HX-Target")
@require_GET
def game_replay(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Any position of a started game: ``?ply=N`` (default: the last). A
    finished game's replay has two tabs (docs/review.md): the moves, and with
    ``?tab=review`` its review; ``?best`` marks on the board the review's best
    decision at this position. For HTMX, the replay's partial, or the Review
    tab's panel alone when it is the target (the review's doorbell, while the
    review is being made: ``static/js/live.js``)."""
    game = _game_or_404(pk)
    if game.first_seat is None:
        raise Http404(_("This game has not started."))
    moves = list(selectors.game_moves(game=game).values_list("event", "created_at"))
    events = [event for event, _at in moves]
    ply = query_int(
        request.GET, "ply", default=len(events), min_value=0, max_value=len(events)
    )
    replay = replays.game_replay(
        game=game, events=events, ply=ply, times=[at for _event, at in moves]
    )
    family = family_for(game.variant)
    position = family.position_context(replay.engine, replay.names)
    seats = list(game.seats.select_related("user"))
    replays.add_seat_users(position, seats)
    # What the viewer may do here is the seat view's to say, not this view's.
    view = selectors.seat_view(game=game, user=request.user, seats=seats)
    context: dict[str, Any] = {
        "game": game,
        "replay": replay,
        "family": family,
        "position": position,
        "scores": list(zip(replay.names, replay.scores, strict=True)),
        "previous_ply": max(replay.ply - 1, 0),
        "next_ply": min(replay.ply + 1, replay.last_ply),
        "current_step": replay.steps[replay.ply - 1] if replay.ply else None,
    }
    # An imported record that continues a game in progress: no evaluation of
    # its positions until that game ends, and the Review tab says why.
    continued = selectors.game_continued(game=game)
    review = (
        None
        if continued is not None
        else reviews.review_view(
            game=game,
            events=events,
            ply=ply,
            names=replay.names,
            best="best" in request.GET,
        )
    )
    if continued is not None:
        context["review"] = None
        context["review_withheld"] = continued if view.over else None
    elif getattr(request.user, "review_hidden", False) and "review" not in request.GET:
        # Settings: the review waits until the player asks (?review, a link).
        context["review_waits"] = review is not None
    elif review is None:
        # An imported record: reviewed when its uploader asks.
        context["may_ask_review"] = view.may_ask_review
        context["review"] = None
    else:
        context["review"] = review
        # The Review tab offers the retry once the review is made (_review.html).
        context["may_retry"] = view.may_retry
        # Being made: the Review tab's doorbell (the replay's review panel).
        context["review_making"] = not review.ready and not review.failed
        if "review" in request.GET:  # asked for: the steps' links keep it shown
            context["review_query"] = "&review"
        if review.best is not None:
            family.mark_best(position, replay.engine, review.best["event"])
    # The tabs: only where there is a review to read, to wait for or to ask.
    tabs = bool(
        context.get("review")
        or context.get("review_waits")
        or context.get("may_ask_review")
        or context.get("review_withheld")
    )
    tab = REVIEW_TAB if tabs and request.GET.get("tab") == REVIEW_TAB else "moves"
    context.update(
        tabs=tabs,
        tab=tab,
        keep_query=context.get("review_query", "")
        + (f"&tab={REVIEW_TAB}" if tab == REVIEW_TAB else ""),
    )
    if view.over and replay.ply == replay.last_ply:
        # The last position of a finished game: its final result, winner first.
        standings = selectors.seat_standings(game=game)
        if all(seat["rank"] is not None for seat in standings):
            context["results"] = final_results(standings)
    template = "games/replay.html"
    if wants_partial(request):
        panel = tabs and request.htmx.target == REVIEW_PANEL
        template += "#review_panel" if panel else "#replay"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def game_retry(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    """ "Retry your mistakes" (docs/review.md): the player's own mistakes and
    blunders of a reviewed game, one at a time (``?n=``), as puzzles: choose
    among the decisions the review weighed; POST says whether it was better."""
    game = _game_or_404(pk)
    view = selectors.seat_view(game=game, user=request.user)
    seat = view.number
    if not view.may_retry or seat is None:
        raise Http404(_("Only the players of this game retry its mistakes."))
    if selectors.game_continued(game=game) is not None:
        raise Http404(_("This record continues a game in progress."))
    events = list(selectors.game_moves(game=game).values_list("event", flat=True))
    data = request.POST if request.method == "POST" else request.GET
    number = query_int(data, "n", default=1, min_value=1, max_value=99)
    found = reviews.puzzle(game=game, events=events, seat=seat, number=number)
    context: dict[str, Any] = {
        "game": game,
        "puzzle": found,
        "margin": reviews.RETRY_MARGIN,
    }
    if found is not None:
        family = family_for(game.variant)
        position = family.position_context(found.engine, replays.seat_names(game))
        replays.add_seat_users(position, list(game.seats.select_related("user")))
        context.update(family=family, position=position)
        if request.method == "POST":
            answer = found.accepted(str(data.get("choice", "")))
            if answer is None:
                context["error"] = _("Choose one of the decisions.")
            else:
                context["answer"] = answer
                context["best_words"] = next(
                    c.words for c in found.choices if c.value == found.best
                )
    return render(request, "games/retry.html", context)


@login_required
@require_POST
def game_review_ask(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    """An imported record's uploader asks for its review (docs/review.md)."""
    game = _game_or_404(pk)
    try:
        services.game_review_queue(game=game, asked_by=request.user)
    except services.GameActionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The review is on its way."))
    return redirect(
        reverse("games:replay", kwargs={"pk": pk}) + f"?tab={REVIEW_TAB}&review"
    )


@login_required
@ratelimit(key="user", rate="20/h", method="POST")
def game_import(request: SignedInHttpRequest) -> HttpResponse:
    form = RecordImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["record"]
        if upload.size > services.RECORD_MAX_BYTES:
            form.add_error("record", _("This file is too large to be a game record."))
        else:
            try:
                imported = services.game_import(
                    uploader=request.user, data=upload.read()
                )
            except services.GameActionError as error:
                form.add_error("record", error.message)
            else:
                if imported.created:
                    messages.success(request, _("The record was imported."))
                else:
                    messages.info(
                        request,
                        _("This record was imported before, as game %(number)s.")
                        % {"number": imported.game.pk},
                    )
                return redirect("games:replay", pk=imported.game.pk)
    return render(request, "games/import.html", {"form": form})


def _family_or_404(family: str) -> str:
    if family not in FAMILY_VARIANTS:
        raise Http404(_("No such game."))
    return family


@require_GET
def leaderboard(request: HttpRequest, family: str) -> HttpResponse:
    family = _family_or_404(family)
    page = page_number(request.GET)
    computers = bool(
        query_int(request.GET, "computers", default=0, min_value=0, max_value=1)
    )
    rows, has_next = _page(
        selectors.leaderboard(family=family, computers=computers),
        page,
        LEADERBOARD_PAGE_SIZE,
    )
    first_rank = (page - 1) * LEADERBOARD_PAGE_SIZE + 1
    # Below the ranked list, on its first page: the provisional players.
    provisional = (
        selectors.leaderboard(family=family, computers=computers, provisional=True)[
            :LEADERBOARD_PAGE_SIZE
        ]
        if page == 1
        else []
    )
    return render(
        request,
        "games/leaderboard.html",
        {
            "family": family,
            "family_label": Family(family).label,
            "families": Family.choices,
            "rows": [(first_rank + i, stats) for i, stats in enumerate(rows)],
            "provisional": list(provisional),
            "page": page,
            "has_next": has_next,
            "computers": computers,
            "min_games": PROVISIONAL_GAMES,
            "days": selectors.LEADERBOARD_DAYS,
        },
    )


@require_GET
def high_scores(request: HttpRequest, family: str) -> HttpResponse:
    family = _family_or_404(family)
    players = query_int(request.GET, "players", default=2, min_value=2, max_value=4)
    return render(
        request,
        "games/high_scores.html",
        {
            "family": family,
            "family_label": Family(family).label,
            "families": Family.choices,
            "players": players,
            "player_counts": tuple(PLAYERS),
            "seats": selectors.high_scores(family=family, players=players),
        },
    )
