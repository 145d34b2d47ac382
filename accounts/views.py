"""Sign-up and player profiles; log in/out and passwords are contrib.auth's views."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language
from django_ratelimit.decorators import ratelimit

from games import selectors
from games.charts import rating_chart
from games.models import Family

from .forms import (
    EmailPreferencesForm,
    NotificationsForm,
    PlayPreferencesForm,
    SignUpForm,
    TimeZoneForm,
    VacationForm,
)
from .models import VACATION_DAYS_PER_YEAR, User
from .requests import AuthenticatedHttpRequest
from .selectors import block_list, user_blocks
from .services import BlockError, block_create, block_delete, user_language_set


class LoginForm(AuthenticationForm):
    """contrib.auth's log-in form with its username length checked: the form sets
    ``max_length`` after making the field, so no validator checks it, and a longer
    name reached ``authenticate()`` and django-axes' ``AccessAttempt.username``
    (255 characters: a server error on PostgreSQL)."""

    def clean_username(self) -> str:
        username = str(self.cleaned_data["username"])
        limit = self.fields["username"].max_length  # type: ignore[attr-defined]
        MaxLengthValidator(limit)(username)
        return username


def rate_limited(request: HttpRequest, exception: Exception) -> HttpResponse:
    """What a request over a rate limit gets (``RATELIMIT_VIEW``)."""
    return render(request, "429.html", status=429)


@ratelimit(key="ip", rate="5/h", method="POST")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("games:home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save(commit=False)
            # The language the player signed up in is the one they read.
            user.language = getattr(request, "LANGUAGE_CODE", "")
            user.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("games:home")
    else:
        form = SignUpForm()
    return render(request, "accounts/signup.html", {"form": form})


@require_POST
def language_switch(request: HttpRequest) -> HttpResponse:
    """The language switcher's POST: Django's ``set_language`` (cookie, safe
    redirect to ``next``), and the choice saved on the account when signed in."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if (
        request.user.is_authenticated
        and language in dict(settings.LANGUAGES)
        and check_for_language(language)
    ):
        user_language_set(user=request.user, language=language)
    return response


def _family_summaries(player: User) -> list[dict[str, Any]]:
    """Rating, chart and totals per game family the player has finished games of."""
    stats = selectors.player_stats(user=player)
    summaries = []
    for family, label in Family.choices:
        if family not in stats:
            continue
        history = selectors.rating_history(user=player, family=family)
        summaries.append(
            {
                "family": family,
                "label": label,
                "stats": stats[family],
                "chart": rating_chart(history),
            }
        )
    return summaries


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    # Another person's profile, signed in: the Block / Unblock button.
    viewer = request.user if isinstance(request.user, User) else None
    can_block = viewer is not None and viewer.pk != player.pk and not player.is_computer
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "can_block": can_block,
            "blocked": viewer is not None
            and can_block
            and user_blocks(blocker=viewer, blocked=player),
            "families": _family_summaries(player),
            "active_games": selectors.game_list_for_player(user=player, finished=False),
            "finished_games": selectors.game_list_for_player(
                user=player, finished=True
            )[:20],
        },
    )


def _back(request: HttpRequest, player: User) -> HttpResponse:
    """Back to the page the form was on (``next``, this site only), else the
    player's profile."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("profile", username=player.username)


@login_required
@require_POST
def player_block(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Block ``username``: no invitations from them (issue #23)."""
    player = get_object_or_404(User, username=username, is_active=True)
    try:
        block_create(blocker=request.user, blocked=player)
    except BlockError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("You blocked %(name)s: they cannot invite you to a game any more.")
            % {"name": player.username},
        )
    return _back(request, player)


@login_required
@require_POST
def player_unblock(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username)
    block_delete(blocker=request.user, blocked=player)
    messages.success(
        request,
        _("You unblocked %(name)s: they can invite you again.")
        % {"name": player.username},
    )
    return _back(request, player)


@login_required
def settings_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    """E-mail, notification, time-zone and play preferences and vacation: one
    page, small POST forms."""
    from games import services
    from notify.models import PushSubscription
    from notify.vapid import public_key

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
