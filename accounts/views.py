"""Sign-up, language, blocks and follows; log in/out and passwords are
contrib.auth's views. The profile page is ``games.people.profile_views``, the
settings page ``azulsite.settings_page`` (they read the games and the devices)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language
from django_ratelimit.decorators import ratelimit

from .forms import (
    SignUpForm,
)
from .models import User
from .requests import AuthenticatedHttpRequest
from .services import (
    BlockError,
    FollowError,
    block_create,
    block_delete,
    follow_create,
    follow_delete,
    user_language_set,
)


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


def _next_page(request: HttpRequest) -> str:
    """The ``next`` the form was sent with, or the page opened with, when it
    is a page of this site (as contrib.auth's log-in checks it); else ""."""
    target = request.POST.get("next") or request.GET.get("next", "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def _onward(request: HttpRequest) -> HttpResponse:
    """On to ``_next_page``, else home: redirected to as an address, never
    looked up as a view's name (``redirect("123")`` would be)."""
    target = _next_page(request)
    return HttpResponseRedirect(target) if target else redirect("games:home")


@ratelimit(key="ip", rate="5/h", method="POST")
def signup(request: HttpRequest) -> HttpResponse:
    """Sign up, then on to ``next`` (an invitation link's page, say) or home."""
    if request.user.is_authenticated:
        return _onward(request)
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save(commit=False)
            # The language the player signed up in is the one they read.
            user.language = getattr(request, "LANGUAGE_CODE", "")
            user.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return _onward(request)
    else:
        form = SignUpForm()
    return render(
        request, "accounts/signup.html", {"form": form, "next": _next_page(request)}
    )


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


def _back(request: HttpRequest, player: User) -> HttpResponse:
    """Back to the page the form was on (``next``, this site only), else the
    player's profile. ``next`` is taken as an address, never a view name (a
    forged ``next=²`` made ``redirect()`` try to reverse it: a server error)."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(target)
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
            _(
                "You blocked %(name)s: no more invitations, joined games or "
                "chat between you."
            )
            % {"name": player.shown_name},
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
        % {"name": player.shown_name},
    )
    return _back(request, player)


@login_required
@require_POST
def player_follow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Follow ``username``: their games show on your home page (issue #26)."""
    player = get_object_or_404(User, username=username, is_active=True)
    try:
        follow_create(follower=request.user, followed=player)
    except FollowError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("You follow %(name)s: their games show on your home page.")
            % {"name": player.shown_name},
        )
    return _back(request, player)


@login_required
@require_POST
def player_unfollow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username)
    follow_delete(follower=request.user, followed=player)
    messages.success(
        request,
        _("You no longer follow %(name)s.") % {"name": player.shown_name},
    )
    return _back(request, player)
