"""Account middleware: the saved language, and log-in redirects for HTMX.

The signed-in player's saved language wins over the browser's:
``LocaleMiddleware`` (earlier in the chain) picks the language from the
``django_language`` cookie, then ``Accept-Language``, then ``LANGUAGE_CODE``; this
middleware runs after ``AuthenticationMiddleware`` and, when the player saved a
language on their account, activates that one instead.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

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
    """A request sent to log in comes back to the page the player was on.

    When a session has ended (logged out in another tab, expired), an action
    answers ``login_required``'s redirect with ``next`` the action's URL, which
    only takes POSTs (405 after logging in). So ``next`` becomes the page the
    player was on — ``HX-Current-URL`` for HTMX, the ``Referer`` for a plain
    form — when that page is on this site, and is left out otherwise. For an
    HTMX request the redirect becomes ``HX-Redirect``, so htmx goes to the
    log-in page as a whole page instead of swapping it into the board. Runs
    after django-htmx's middleware (``request.htmx``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        if response.status_code != 302 or not (htmx or request.method != "GET"):
            return response
        login_url = resolve_url(settings.LOGIN_URL)
        if response.get("Location", "").split("?", 1)[0] != login_url:
            return response
        page = _page_on_this_site(
            request, htmx.current_url if htmx else request.headers.get("Referer")
        )
        location = login_url
        if page:
            location += "?" + urlencode({REDIRECT_FIELD_NAME: page})
        if htmx:
            return HttpResponseClientRedirect(location)
        response["Location"] = location
        return response


def _page_on_this_site(request: HttpRequest, url: str | None) -> str:
    """The path (and query) of ``url`` if it is a page of this site, else ""."""
    if not url or not url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return ""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")
