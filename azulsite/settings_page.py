"""The settings page: e-mail, notification, time-zone and play preferences and
vacation (``accounts``) and push devices (``notify``) on one page.

The project composes it, as it composes the URLs: the apps import one another
one way only (notify → games → accounts), and this page, at an accounts
address, needs notify too. A vacation moves the player's game deadlines through
``accounts.signals.vacation_changed`` (``games.receivers``).
Routed by ``azulsite/urls.py`` at ``accounts/settings/``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.forms import SettingsForm, VacationForm
from accounts.models import VACATION_DAYS_PER_YEAR, User
from accounts.requests import AuthenticatedHttpRequest
from accounts.selectors import block_list
from accounts.services import (
    VacationError,
    vacation_current,
    vacation_days_used,
    vacation_end,
    vacation_start,
)
from notify.models import PushSubscription
from notify.vapid import public_key


@login_required
def settings_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The preferences, one form with one Save (``action=save``); vacation,
    its own buttons, as unblocking and push devices have theirs."""
    user = request.user
    form = SettingsForm(instance=user)
    vacation_form = VacationForm()
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
    return render(
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
        },
    )
