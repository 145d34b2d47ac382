"""Lobby and game pages. Views stay thin: forms parse, services write, selectors read.

The game page is one view: the full page, or for an HTMX request the named partial
``games/game_detail.html#board`` (``requests.wants_partial``: not for a history
restore, which needs the whole page). Every action is a plain POST that answers with a
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
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import replace_url

from accounts.selectors import presence
from games import clock, selectors, services
from games.engine import record
from games.engine.common import Game as EngineGame
from games.families import family_for
from games.forms import GameCreateForm, PlayComputerForm, board_query
from games.forms import game_id as query_game_id
from games.history import reviews
from games.history.replay import add_seat_users
from games.models import Game, Seat, Variant
from games.people.watch import game_watchers
from games.play.banks import seat_banks
from games.play.game_log import game_log
from games.play.results import final_results
from games.requests import (
    HtmxHttpRequest,
    SignedInHttpRequest,
    vary_on_htmx,
    wants_partial,
)


def _game_or_404(pk: int) -> Game:
    try:
        return selectors.game_get(game_id=pk)
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None


@vary_on_htmx
@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    context: dict[str, Any] = {
        "open_games": selectors.game_list_open(
            user=request.user if request.user.is_authenticated else None
        ),
        "play_computer": PlayComputerForm(),
    }
    if request.user.is_authenticated:
        user = request.user
        context.update(
            invitations=selectors.game_list_invitations(user=user),
            awaiting=selectors.game_list_awaiting_move(user=user),
            waiting=selectors.game_list_waiting(user=user),
            finished=selectors.game_list_recently_finished(user=user),
            # lazy: read by the full page only, not the lists' partial
            friends_games=selectors.friends_games(user=user),
        )
        if wants_partial(request):  # live.js: the lists again, after the socket rang
            return render(request, "games/home.html#lists", context)
        # what to do first, until the player's first game has started
        context["welcome"] = not selectors.has_played(user=user)
    return render(request, "games/home.html", context)


@login_required
def game_new(request: SignedInHttpRequest) -> HttpResponse:
    # ?invite_link: the home page's welcome, "a game with a friend, by link"
    initial = {"invite_link": True} if "invite_link" in request.GET else {}
    form = GameCreateForm(request.POST or None, creator=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.game_create(
                creator=request.user,
                variant=data["variant"],
                players=data["players"],
                time_control=data["time_control"],
                vacation_spends=not data["no_vacation"],
                rated=data["rated"],
                invitees=data["invite"],
                computers=form.computers(),
                invite_link=data["invite_link"],
            )
        except services.GameActionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Game created."))
            return redirect("games:detail", pk=game.pk)
    template = "games/game_new.html"
    if wants_partial(request) and "pace" in request.GET:
        # the clock's line, again for the variant, players and clock now chosen
        form = GameCreateForm(request.GET, creator=request.user)
        form.is_valid()
        template += "#pace"
    return render(
        request,
        template,
        {
            "form": form,
            "pace": _pace(form),
            # the invite field's <datalist>: friends first (issue #26 item 5)
            "invite_suggestions": selectors.invite_suggestions(user=request.user),
        },
    )


def _pace(form: GameCreateForm) -> str:
    """What the chosen clock means for the chosen game (``clock.pace_text``):
    the form's valid choices, else its initial ones."""
    chosen = getattr(form, "cleaned_data", {})
    variant = chosen.get("variant") or Variant.values[0]
    players = chosen.get("players") or form.fields["players"].initial
    name = chosen.get("time_control") or clock.DEFAULT.name
    return clock.pace_text(
        control=clock.time_control(name), variant=variant, players=players
    )


@login_required
@require_POST
def game_play_computer(request: SignedInHttpRequest) -> HttpResponse:
    """ "Play the computer now": a two-player game against the chosen level,
    started at once (the creator's seat 0, the computer's seat 1)."""
    form = PlayComputerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose an opponent and a variant."))
        return redirect("games:home")
    data = form.cleaned_data
    try:
        game = services.game_create(
            creator=request.user,
            variant=data["variant"],
            players=2,
            rated=data["rated"],
            computers={1: data["level"]},
        )
    except services.GameActionError as error:  # e.g. too many at once (issue #23)
        messages.error(request, error.message)
        return redirect("games:home")
    return redirect("games:detail", pk=game.pk)


def _board_response(
    request: HtmxHttpRequest,
    game: Game,
    engine: EngineGame | None = None,
    *,
    error: str = "",
    notice: str = "",
) -> HttpResponse:
    """The game page, or for HTMX its board partial, drawn from ``engine``
    (built here when the caller has none) as the viewer's ``seat_view`` sees it;
    ``notice``, news of the action answered, comes as a toast."""
    view = selectors.seat_view(game=game, user=request.user)
    context: dict[str, Any] = {
        "game": game,
        "view": view,
        "error": error,
        "notice": notice,
    }
    if game.first_seat is None:  # not started: the seats, no board
        if view.invite_token is not None:  # its creator's, to share
            context["invite_link"] = request.build_absolute_uri(
                reverse("games:link", kwargs={"token": view.invite_token})
            )
        return render(request, "games/game_detail.html", context)
    if engine is None:
        engine = selectors.game_engine(game)
    family = family_for(game.variant)
    names = [seat.shown_name for seat in view.seats]
    board = family.live_context(
        engine,
        names=names,
        view=view,
        query=board_query(request.GET) if request.method == "GET" else {},
    )
    add_seat_users(board["position"], view.seats)
    since = view.since_ply(engine)
    log = game_log(
        game=game,
        engine=engine,
        family=family,
        seats=view.seats,
        names=names,
        since_ply=since,
    )
    board["log"] = log.lines
    if since is not None:
        board["since"] = log.since
    context.update(
        family=family,
        board=board,
        round=engine.round,
        seats=selectors.seat_standings(game=game),
        watchers=game_watchers(game=game),
        # every seat's time left, the viewer's first (issue #37 item 3)
        banks=seat_banks(
            game=game, seats=view.seats, first=view.number, vacations=True
        ),
    )
    if view.over:
        context["statistics"] = {"names": names, "rows": family.statistics(engine)}
        context["winners"] = _winners(list(view.seats))
        # Its review: a link beside Replay, each seat's accuracy in the table.
        review = reviews.page_review(game=game, user=request.user)
        context["page_review"] = review
        # A board redrawn alone (the game ended while the page was open)
        # brings the link beside Replay with it, out of band.
        context["review_link_oob"] = wants_partial(request)
        context["results"] = final_results(
            context["seats"], review.accuracy if review is not None else None
        )
        rematch = selectors.game_rematch_get(game=game)
        context["rematch"] = rematch
        context["rematch_invites_me"] = rematch is not None and rematch.invites(
            request.user
        )
    # who is around, beside the players' names above the board; a board
    # redrawn alone brings that line with it, out of band (issue #35 item 3)
    context["presence"] = presence(
        users=[seat.user for seat in view.seats], viewer=request.user
    )
    template = "games/game_detail.html"
    if wants_partial(request):
        template += "#board"
        context["players_oob"] = True
    return render(request, template, context)


def _winners(seats: list[Seat]) -> dict[str, Any] | None:
    """The final announcement: the seats ranked first and how they won."""
    first = [seat for seat in seats if seat.rank == 1]
    if not first:
        return None
    score = int(first[0].score or 0)
    if len(first) == 1:
        text = ngettext(
            "%(name)s wins with %(score)s point.",
            "%(name)s wins with %(score)s points.",
            score,
        ) % {"name": first[0].shown_name, "score": score}
    else:
        text = ngettext(
            "%(names)s share the win with %(score)s point each.",
            "%(names)s share the win with %(score)s points each.",
            score,
        ) % {"names": ", ".join(seat.shown_name for seat in first), "score": score}
    return {"text": text, "seats": " ".join(str(seat.number) for seat in first)}


def _action_answer(request: HtmxHttpRequest, game: Game, error: str) -> HttpResponse:
    """An HTMX action's answer: the board with ``error``; for a game that never
    started (no board to draw), the board frame with only the refusal."""
    if game.first_seat is None:
        return render(request, "games/_not_started.html", {"game": game})
    return _board_response(request, game, error=error)


@vary_on_htmx
@require_GET
def game_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _board_response(request, _game_or_404(pk))


@login_required
@require_POST
def game_move(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    variant = selectors.game_variant(game_id=pk)
    if variant is None:
        raise Http404(_("No such game."))
    form = family_for(variant).move_form(request.POST)
    error = ""
    played: services.PlayedMove | None = None
    if not form.is_valid():
        errors = form.non_field_errors()
        error = (
            str(errors[0])
            if errors
            else _("That move could not be read; please choose again.")
        )
    else:
        try:
            played = services.game_play_move(
                game_id=pk,
                user=request.user,
                move=form.record_event(),
                expected_ply=form.cleaned_data["expected_ply"],
            )
        except services.GameActionError as action_error:
            error = action_error.message
    notice = ""
    if played is not None and played.vacation_ended:
        notice = _("Your vacation has ended: you are playing again.")
    if request.htmx:
        if played is not None:  # the service's game and engine are current
            response = _board_response(
                request, played.game, played.engine, notice=notice
            )
        else:
            response = _action_answer(request, _game_or_404(pk), error)
        # The board answered is the plain one: the address drops the picks
        # (?group=, ?line=, ?take=...) that led to the move.
        return replace_url(response, reverse("games:detail", kwargs={"pk": pk}))
    if error:
        messages.error(request, error)
    if notice:
        messages.info(request, notice)
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
def game_join(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(
        request,
        pk,
        lambda: services.game_join(game_id=pk, user=request.user),
        _("You joined the game."),
    )


@login_required
@require_POST
def game_accept(request: SignedInHttpRequest, pk: int) -> HttpResponse:
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
def game_decline(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    try:
        game = services.game_invitation_respond(
            game_id=pk, user=request.user, accept=False
        )
    except services.GameActionError as error:
        messages.error(request, error.message)
        return redirect("games:detail", pk=pk)
    if game.rematch_of_id is not None:
        messages.success(
            request,
            _("You declined the rematch of game %(number)s.")
            % {"number": game.rematch_of_id},
        )
    else:
        messages.success(request, _("Invitation declined."))
    return redirect("games:home")


@login_required
@require_POST
def game_rematch(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    """ "Play again": offer the finished game's players a rematch (or find the
    one on) and go to it."""
    try:
        rematch = services.game_rematch(game_id=pk, user=request.user)
    except services.GameActionError as error:
        messages.error(request, error.message)
        return redirect("games:detail", pk=pk)
    if rematch.status == Game.Status.ACTIVE and rematch.creator_id == request.user.pk:
        messages.success(request, _("The rematch has started."))
    elif rematch.creator_id == request.user.pk:
        messages.success(
            request, _("Rematch offered: it starts when every player has accepted.")
        )
    return redirect("games:detail", pk=rematch.pk)


@login_required
@require_POST
def game_cancel(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(
        request,
        pk,
        lambda: services.game_cancel(game_id=pk, user=request.user),
        _("The game was cancelled."),
    )


@login_required
@require_POST
def game_resign(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    error = ""
    try:
        services.game_resign(game_id=pk, user=request.user)
    except services.GameActionError as action_error:
        error = action_error.message
    if request.htmx:
        return _action_answer(request, _game_or_404(pk), error)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("You resigned."))
    return redirect("games:detail", pk=pk)


@login_required
@require_GET
def turn_badge(request: SignedInHttpRequest) -> HttpResponse:
    """The "your move" badge; with ``?game=<id>``, a toast if it is your move there.

    The per-user socket only rings; the page fetches this to learn what changed.
    """
    game_id = query_game_id(request.GET)
    toast_game = None
    if game_id is not None:
        toast_game = selectors.game_get_awaiting_move(
            user=request.user, game_id=game_id
        )
    return render(
        request,
        "games/_turn_badge.html",
        {"toast_game": toast_game},
    )


@require_GET
def game_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Download the game record (``docs/record.md``)."""
    game = _game_or_404(pk)
    if game.first_seat is None:
        raise Http404(_("This game has not started."))
    response = HttpResponse(
        record.dumps(selectors.game_record(game)),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="azul-{game.pk}.json"'
    return response
