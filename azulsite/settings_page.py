"""The settings page: e-mail, notification, time-zone and play preferences
(``accounts``), vacation (``games``) and push devices (``notify``) on one page.

The project composes it, as it composes the URLs: the apps import one another
one way only (notify → games → accounts), and this page needs all three.
Routed by ``azulsite/urls.py`` at ``accounts/settings/``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.forms import (
    EmailPreferencesForm,
    NotificationsForm,
    PlayPreferencesForm,
    TimeZoneForm,
    VacationForm,
)
from accounts.models import VACATION_DAYS_PER_YEAR
from accounts.requests import AuthenticatedHttpRequest
from accounts.selectors import block_list
from games import services
from notify.models import PushSubscription
from notify.vapid import public_key


@login_required
def settings_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    """E-mail, notification, time-zone and play preferences and vacation: one
    page, small POST forms."""
    user = request.user
    preferences = EmailPreferencesForm(instance=user)
    notify = NotificationsForm(instance=user)
    zone = TimeZoneForm(instance=user)
    play = PlayPreferencesForm(instance=user)
    vacation_form = VacationForm()
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "email":
            preferences = EmailPreferencesForm(request.POST, instance=user)
            if preferences.is_valid():
                preferences.save()
                messages.success(request, _("Your e-mail settings were saved."))
                return redirect("settings")
        elif action == "notify":
            notify = NotificationsForm(request.POST, instance=user)
            if notify.is_valid():
                notify.save()
                messages.success(request, _("Your notification settings were saved."))
                return redirect("settings")
        elif action == "time_zone":
            zone = TimeZoneForm(request.POST, instance=user)
            if zone.is_valid():
                zone.save()
                messages.success(request, _("Your time zone was saved."))
                return redirect("settings")
        elif action == "play":
            play = PlayPreferencesForm(request.POST, instance=user)
            if play.is_valid():
                play.save()
                messages.success(request, _("Your play settings were saved."))
                return redirect("settings")
        elif action == "vacation_start":
            vacation_form = VacationForm(request.POST)
            if vacation_form.is_valid():
                try:
                    services.vacation_start(
                        user=user, days=vacation_form.cleaned_data["days"]
                    )
                except services.GameActionError as error:
                    vacation_form.add_error(None, error.message)
                else:
                    messages.success(request, _("Enjoy your vacation."))
                    return redirect("settings")
        elif action == "vacation_end":
            try:
                services.vacation_end(user=user)
            except services.GameActionError as error:
                messages.error(request, error.message)
            else:
                messages.success(request, _("Welcome back: your clocks run again."))
            return redirect("settings")
        else:
            messages.error(request, _("That form could not be read."))
            return redirect("settings")
    used = services.vacation_days_used(user=user)
    return render(
        request,
        "accounts/settings.html",
        {
            "preferences": preferences,
            "notify": notify,
            "zone": zone,
            "devices": PushSubscription.objects.filter(user=user),
            "vapid_public_key": public_key(),
            "play": play,
            "vacation_form": vacation_form,
            "vacation": services.vacation_current(user=user),
            "days_left": max(0, VACATION_DAYS_PER_YEAR - used),
            "blocked_players": block_list(user=user),
            "turn_email_quiet_minutes": round(settings.TURN_EMAIL_QUIET_MINUTES),
        },
    )
