"""The settings page: e-mail, notification, time-zone and play preferences,
vacation and bot accounts (``accounts``), push devices (``notify``) and API
tokens (``api``) on one page.

The project composes it, as it composes the URLs: the apps import one another
one way only (notify → games → accounts, api → games → accounts), and this
page, at an accounts address, needs notify and api too. A vacation moves the
player's game deadlines through ``accounts.signals.vacation_changed``
(``games.receivers``). A new API token is shown once: kept in the session
until the page after its making is drawn (never in a URL, a message nor a
log), and that page is not cached. A token may be made for one of the
person's bot accounts (which have no password: their owner makes their tokens
here), and is listed, and revoked, here with the account's name.
Routed by ``azulsite/urls.py`` at ``accounts/settings/``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from accounts.forms import BotForm, SettingsForm, VacationForm
from accounts.models import VACATION_DAYS_PER_YEAR, User
from accounts.requests import AuthenticatedHttpRequest
from accounts.selectors import block_list
from accounts.services import (
    BotError,
    VacationError,
    bot_create,
    vacation_current,
    vacation_days_used,
    vacation_end,
    vacation_start,
)
from api.forms import SCOPE_LABELS, ApiTokenForm
from api.selectors import tokens_live_run_by
from api.services import TokenError, token_create, token_revoke
from notify.models import PushSubscription
from notify.vapid import public_key


@login_required
def settings_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The preferences, one form with one Save (``action=save``); vacation,
    its own buttons, as unblocking, push devices, API tokens and bot accounts
    have theirs."""
    user = request.user
    form = SettingsForm(instance=user)
    vacation_form = VacationForm()
    token_form = ApiTokenForm(prefix="token", owner=user)
    bot_form = BotForm(prefix="bot")
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "save":
            # A copy: a refused form leaves request.user as saved (the page
            # around the form shows the saved time zone).
            form = SettingsForm(request.POST, instance=User.objects.get(pk=user.pk))
            if form.is_valid():
                form.save()
                messages.success(request, _("Your settings were saved."))
                return redirect("settings")
        elif action == "vacation_start":
            vacation_form = VacationForm(request.POST)
            if vacation_form.is_valid():
                try:
                    vacation_start(user=user, days=vacation_form.cleaned_data["days"])
                except VacationError as error:
                    vacation_form.add_error(None, error.message)
                else:
                    messages.success(request, _("Enjoy your vacation."))
                    return redirect("settings")
        elif action == "token_create":
            token_form = ApiTokenForm(request.POST, prefix="token", owner=user)
            if _token_create(request, token_form):
                return redirect("settings")
        elif action == "token_revoke":
            _token_revoke(request)
            return redirect("settings")
        elif action == "bot_create":
            bot_form = BotForm(request.POST, prefix="bot")
            if _bot_create(request, bot_form):
                return redirect("settings")
        elif action == "vacation_end":
            try:
                vacation_end(user=user)
            except VacationError as error:
                messages.error(request, error.message)
            else:
                messages.success(request, _("Welcome back: your clocks run again."))
            return redirect("settings")
        else:
            messages.error(request, _("That form could not be read."))
            return redirect("settings")
    used = vacation_days_used(user=user)
    new_token = request.session.pop(NEW_TOKEN, None)
    response = render(
        request,
        "accounts/settings.html",
        {
            "form": form,
            "devices": PushSubscription.objects.filter(user=user),
            "vapid_public_key": public_key(),
            "vacation_form": vacation_form,
            "vacation": vacation_current(user=user),
            "days_left": max(0, VACATION_DAYS_PER_YEAR - used),
            "blocked_players": block_list(user=user),
            "turn_email_quiet_minutes": round(settings.TURN_EMAIL_QUIET_MINUTES),
            "token_form": token_form,
            "tokens": [
                (token, [SCOPE_LABELS[s] for s in token.scopes if s in SCOPE_LABELS])
                for token in tokens_live_run_by(owner=user)
            ],
            "new_token": new_token,
            "bot_form": bot_form,
            "bots": user.bots.order_by("username_key", "pk"),
        },
    )
    if new_token:
        add_never_cache_headers(response)
    return response


NEW_TOKEN = "api_token_new"
"""The session's key for the token just made (its name and secret), popped
when the page shows it."""


def _token_create(request: AuthenticatedHttpRequest, form: ApiTokenForm) -> bool:
    """Make the token ``form`` asks for, its secret kept for the next page;
    whether it was made (else ``form`` says why)."""
    if not form.is_valid():
        return False
    try:
        token, secret = token_create(
            user=form.chosen_account(),
            name=form.cleaned_data["name"],
            scopes=form.cleaned_data["scopes"],
            expires_at=form.expires_at(),
        )
    except TokenError as error:
        form.add_error(None, error.message)
        return False
    request.session[NEW_TOKEN] = {
        "name": token.name,
        "secret": secret,
        "account": token.user.username if token.user_id != request.user.pk else "",
    }
    return True


def _token_revoke(request: AuthenticatedHttpRequest) -> None:
    """Revoke the posted token if it is a live one of the user's or of one of
    their bot accounts; a message says which happened."""
    try:
        token_id = int(request.POST.get("token", ""))
    except ValueError:
        token_id = 0
    token = tokens_live_run_by(owner=request.user).filter(pk=token_id).first()
    if token is None or not token_revoke(token_id=token.pk, user=token.user):
        messages.error(
            request,
            _("That token could not be revoked: it is not one of your tokens in use."),
        )
        return
    messages.success(
        request,
        _("The token “%(name)s” was revoked: programs using it are refused now.")
        % {"name": token.name},
    )


def _bot_create(request: AuthenticatedHttpRequest, form: BotForm) -> bool:
    """Make the bot account ``form`` names, run by the user; whether it was made
    (else ``form`` says why, and nothing is made)."""
    if not form.is_valid():
        return False
    try:
        bot = bot_create(owner=request.user, username=form.cleaned_data["username"])
    except BotError as error:
        form.add_error("username", error.message)
        return False
    messages.success(
        request,
        _(
            "The bot account “%(name)s” was made. Make its tokens under API tokens, "
            "choosing it as the account."
        )
        % {"name": bot.username},
    )
    return True
