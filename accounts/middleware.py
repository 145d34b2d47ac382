"""Account middleware: the saved language, and log-in redirects for HTMX.

The signed-in player's saved language wins over the browser's:
``LocaleMiddleware`` (earlier in the chain) picks the language from the
``django_language`` cookie, then ``Accept-Language``, then ``LANGUAGE_CODE``; this
middleware runs after ``AuthenticationMiddleware`` and, when the player saved a
language on their account, activates that one instead.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None else ""
        if language and translation.check_for_language(language):
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


class HtmxLoginRedirectMiddleware:
    """An HTMX request sent to the log-in page goes there as a whole page.

    When a session has ended (logged out in another tab, expired), a board
    action answers ``login_required``'s redirect; htmx would follow it and swap
    the log-in page into the board. For an HTMX request that redirect becomes
    ``HX-Redirect`` to the log-in page, with ``next`` the page the player was on
    (``HX-Current-URL``, same site only) rather than the action's URL, which only
    takes POSTs. Runs after django-htmx's middleware (``request.htmx``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 302 or not getattr(request, "htmx", False):
            return response
        login_url = resolve_url(settings.LOGIN_URL)
        location = response.get("Location", "")
        if location.split("?", 1)[0] != login_url:
            return response
        page = request.htmx.current_url_abs_path  # type: ignore[attr-defined]
        if page and url_has_allowed_host_and_scheme(page, allowed_hosts=None):
            location = f"{login_url}?{urlencode({REDIRECT_FIELD_NAME: page})}"
        return HttpResponseClientRedirect(location)
