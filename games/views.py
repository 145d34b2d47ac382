"""Lobby and game pages. Views stay thin: forms parse, services write, selectors read.

The game page is one view: the full page, or for an HTMX request the named partial
``games/game_detail.html#board``. Every action is a plain POST that answers with a
redirect, or with the board partial when HTMX sent it (errors as 200 fragments, since
htmx 2 does not swap 4xx responses).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.engine import record

from . import rows, selectors, services
from .board import board_context, log_with_forfeits
from .board_partial import absences_html, board_partial_html, csrf_input, resign_html
from .forms import GameCreateForm, MoveForm
from .models import Game
from .pavilion_board import describe_log as pavilion_describe_log
from .pavilion_board import live_context as pavilion_live_context
from .pavilion_forms import PavilionMoveForm
from .statistics import game_statistics


def _game_or_404(pk: int) -> Game:
    try:
        return selectors.game_get(game_id=pk)
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None


def _viewer_seat(game: Game, request: HttpRequest) -> int | None:
    if not request.user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.user_id == request.user.pk and seat.invite_status == "joined":
            return int(seat.number)
    return None


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {
        "open_games": selectors.game_list_open(user=request.user)
    }
    if request.user.is_authenticated:
        user = request.user
        context.update(
            invitations=selectors.game_list_invitations(user=user),
            awaiting=selectors.game_list_awaiting_move(user=user),
            waiting=selectors.game_list_waiting(user=user),
            finished=selectors.game_list_recently_finished(user=user),
        )
    return render(request, "games/home.html", context)


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST or None, creator=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.game_create(
                creator=request.user,
                variant=data["variant"],
                players=data["players"],
                days_per_move=data["days_per_move"],
                rated=data["rated"],
                invitees=data["invite"],
            )
        except services.GameActionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Game created."))
            return redirect("games:detail", pk=game.pk)
    return render(request, "games/game_new.html", {"form": form})


def _board_response(
    request: HttpRequest, game: Game, *, group: str | None = None, error: str = ""
) -> HttpResponse:
    context: dict[str, Any] = {
        "game": game,
        "error": error,
        "vacations": selectors.seat_vacations(game=game),
    }
    viewer_seat = _viewer_seat(game, request)
    context["viewer_seat"] = viewer_seat
    if game.first_seat is not None:
        engine = selectors.game_engine(game)
        seat_rows = list(game.seats.all())
        names = [seat.name for seat in seat_rows]
        if game.is_pavilion:
            context["board"] = pavilion_live_context(
                engine=engine,  # type: ignore[arg-type]
                names=names,
                viewer_seat=viewer_seat,
                active=game.status == Game.Status.ACTIVE,
                query=request.GET if request.method == "GET" else {},
            )
            context["board"]["results"] = seat_rows
            context["board"]["log"] = log_with_forfeits(
                game=game,
                lines=context["board"]["log"],
                names=names,
                seat_rows=seat_rows,
                describe=lambda state: pavilion_describe_log(state, names),
            )
            for player in context["board"]["players"]:
                row = seat_rows[player["seat"]]
                player["forfeited"] = row.forfeited_at is not None
                player["resigned"] = row.resigned
        else:
            context["board"] = board_context(
                game=game,
                engine=engine,
                viewer_seat=viewer_seat,
                group=group,
                vacations=context["vacations"],
            )
        for player in context["board"]["players"]:
            player["on_vacation_until"] = context["vacations"].get(player["seat"])
        if game.is_pavilion:  # the same absences and resign button as classic
            context["board"]["absences_html"] = absences_html(
                game, context["board"]["players"]
            )
            context["board"]["resign_html"] = resign_html(
                game, viewer_seat, csrf_input(request)
            )
        if game.status == Game.Status.FINISHED:
            context["statistics"] = game_statistics(engine=engine, names=names)
        if not game.is_pavilion:
            context["board"]["html"] = board_partial_html(
                request=request,
                game=game,
                board=context["board"],
                error=error,
                viewer_seat=viewer_seat,
                statistics=context.get("statistics"),
            )
    if request.user.is_authenticated:
        context["my_seat_row"] = next(
            (s for s in game.seats.all() if s.user_id == request.user.pk), None
        )
    template = "games/game_detail.html"
    if request.htmx and game.first_seat is not None:
        if "html" in context["board"]:
            # The classic partial is exactly this HTML: no template to run.
            return HttpResponse(context["board"]["html"])
        template += "#board"
    return render(request, template, context)


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(pk)
    return _board_response(request, game, group=request.GET.get("group"))


@login_required
@require_POST
def game_move(request: HttpRequest, pk: int) -> HttpResponse:
    variant = rows.game_variant(game_id=pk)
    pavilion = variant is not None and variant.startswith("pavilion")
    form = PavilionMoveForm(request.POST) if pavilion else MoveForm(request.POST)
    error = ""
    game: Game | None = None
    if not form.is_valid():
        error = _("That move could not be read; please choose again.")
        if form.non_field_errors():
            error = form.non_field_errors()[0]
    else:
        try:
            game = services.game_play_move(
                game_id=pk,
                user=request.user,
                move=form.record_event(),
                expected_ply=form.cleaned_data["expected_ply"],
            )
        except services.GameActionError as action_error:
            error = action_error.message
    if request.htmx:
        # After a move, the service's game (seats and engine included) is current.
        return _board_response(request, game or _game_or_404(pk), error=error)
    if error:
        messages.error(request, error)
    return redirect("games:detail", pk=pk)


def _lobby_action(
    request: HttpRequest, pk: int, action: Any, done: str
) -> HttpResponse:
    try:
        action()
    except services.GameActionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_join(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(
        request,
        pk,
        lambda: services.game_join(game_id=pk, user=request.user),
        _("You joined the game."),
    )


@login_required
@require_POST
def game_accept(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(
        request,
        pk,
        lambda: services.game_invitation_respond(
            game_id=pk, user=request.user, accept=True
        ),
        _("Invitation accepted."),
    )


@login_required
@require_POST
def game_decline(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.game_invitation_respond(game_id=pk, user=request.user, accept=False)
    except services.GameActionError as error:
        messages.error(request, error.message)
        return redirect("games:detail", pk=pk)
    messages.success(request, _("Invitation declined."))
    return redirect("games:home")


@login_required
@require_POST
def game_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(
        request,
        pk,
        lambda: services.game_cancel(game_id=pk, user=request.user),
        _("The game was cancelled."),
    )


@login_required
@require_POST
def game_resign(request: HttpRequest, pk: int) -> HttpResponse:
    error = ""
    try:
        services.game_resign(game_id=pk, user=request.user)
    except services.GameActionError as action_error:
        error = action_error.message
    if request.htmx:
        return _board_response(request, _game_or_404(pk), error=error)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("You resigned."))
    return redirect("games:detail", pk=pk)


@login_required
@require_GET
def turn_badge(request: HttpRequest) -> HttpResponse:
    """The "your move" badge; with ``?game=<id>``, a toast if it is your move there.

    The per-user socket only rings; the page fetches this to learn what changed.
    """
    game_id = request.GET.get("game", "")
    toast_game = None
    if game_id.isdigit() and len(game_id) < 12:
        toast_game = selectors.game_get_awaiting_move(
            user=request.user, game_id=int(game_id)
        )
    return render(
        request,
        "games/_turn_badge.html",
        {"toast_game": toast_game},
    )


@require_GET
def game_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Download the game record (``spec/record.md``)."""
    game = _game_or_404(pk)
    if game.first_seat is None:
        raise Http404(_("This game has not started."))
    response = HttpResponse(
        record.dumps(selectors.game_record(game)),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="azul-{game.pk}.json"'
    return response


def game_url(game: Game) -> str:
    return reverse("games:detail", kwargs={"pk": game.pk})
