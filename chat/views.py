"""The game page's chat panel (``templates/chat/_chat.html``) and its actions.

Each POST answers an htmx request with the panel drawn again (a refusal shown
in it); without JavaScript, with the game page at its chat (the refusal as a
message). Only a game's people get anything here; for anyone else the game's
chat does not exist (404).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.decorators import ratelimit

from games import selectors as game_selectors
from games.models import Game
from games.requests import SignedInHttpRequest, vary_on_htmx

from . import phrases, selectors, services
from .forms import MessageForm, MuteForm, ReportForm, SwitchForm
from .models import MAX_LENGTH, Message


def _game(pk: int) -> Game:
    try:
        return game_selectors.game_get(game_id=pk)
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None


def _view(request: SignedInHttpRequest, game: Game) -> selectors.ChatView:
    view = selectors.chat_view(game=game, user=request.user)
    if view is None:
        raise Http404(_("No such chat."))
    return view


def panel(request: SignedInHttpRequest, game: Game, *, error: str = "") -> HttpResponse:
    """The chat panel of ``game`` for the signed-in player."""
    return render(
        request,
        "chat/_chat.html",
        panel_context(_view(request, game), error=error),
    )


def panel_context(chat: selectors.ChatView, **extra: object) -> dict[str, object]:
    """What ``chat/_chat.html`` draws (the view's answers, the game page's tag)."""
    return {
        "chat": chat,
        "form": MessageForm(),
        "phrases": phrases.CHOICES,
        "max_length": MAX_LENGTH,
        **extra,
    }


def _answer(request: SignedInHttpRequest, game: Game, error: str) -> HttpResponse:
    if request.htmx:
        # The refusal is drawn in the panel (htmx swaps only a 2xx answer).
        return panel(request, game, error=error)
    if error:
        messages.error(request, error)
    return redirect(reverse("games:detail", kwargs={"pk": game.pk}) + "#chat")


def _rate(group: str, request: object) -> str:
    return str(settings.CHAT_MESSAGES_RATE)


@vary_on_htmx
@login_required
@require_GET
def chat_panel(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    return panel(request, _game(pk))


@login_required
@require_POST
@ratelimit(key="user", rate=_rate, method="POST")
def chat_post(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    _view(request, game)
    form = MessageForm(request.POST)
    error = ""
    if not form.is_valid():
        error = _("That message could not be sent: it is too long or not a phrase.")
    else:
        try:
            services.message_post(
                game=game,
                author=request.user,
                text=form.cleaned_data["text"],
                phrase=form.cleaned_data["phrase"],
            )
        except services.ChatError as refused:
            error = refused.message
    return _answer(request, game, error)


@login_required
@require_POST
def chat_switch(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    _view(request, game)
    form = SwitchForm(request.POST)
    if not form.is_valid():
        return _answer(request, game, _("Choose on or off."))
    services.chat_switch(game=game, user=request.user, on=form.cleaned_data["on"])
    return _answer(request, game, "")


@login_required
@require_POST
def chat_mute(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    view = _view(request, game)
    form = MuteForm(request.POST)
    other = None
    if form.is_valid():
        name = form.cleaned_data["player"]
        other = next((r.user for r in view.others if r.user.username == name), None)
    if other is None:
        return _answer(request, game, _("There is no such player in this game."))
    services.mute_set(muter=request.user, muted=other, on=form.cleaned_data["on"])
    return _answer(request, game, "")


@login_required
@require_POST
def chat_report(request: SignedInHttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    _view(request, game)
    form = ReportForm(request.POST)
    message = None
    if form.is_valid():
        message = Message.objects.filter(
            pk=form.cleaned_data["message"], game=game
        ).first()
    if message is None:
        return _answer(request, game, _("There is no such message here."))
    try:
        services.report_create(message=message, reporter=request.user)
    except services.ChatError as refused:
        return _answer(request, game, refused.message)
    if not request.htmx:
        messages.info(request, _("Thank you: the message was reported to the admins."))
    return _answer(request, game, "")
