"""The address the site is served on, for links in e-mails sent outside requests.

``SITE_URL`` names it when set (production: ``deploy/azul.env.example``). When it
is empty the site takes it from the requests it serves: every POST (a move, a
join, a setting — what leads to e-mails) records its scheme, host and port in
Django's cache, where the deadline job (``games/jobs.py``) reads it. The host is
one ``ALLOWED_HOSTS`` accepts (``request.get_host()`` checks it), so a forged
Host header cannot put another address into e-mails.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

CACHE_KEY = "azul:site-url"
FALLBACK = "http://127.0.0.1:8000"
"""Before any request was served: the README's run command's address."""


def site_url() -> str:
    """The site's base URL, without a trailing slash."""
    configured = settings.SITE_URL or cache.get(CACHE_KEY) or FALLBACK
    return str(configured).rstrip("/")


class SiteUrlMiddleware:
    """Record the address of POSTs when ``SITE_URL`` is not set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and not settings.SITE_URL:
            url = request.build_absolute_uri("/")
            if cache.get(CACHE_KEY) != url:
                cache.set(CACHE_KEY, url, timeout=None)
        return self.get_response(request)
