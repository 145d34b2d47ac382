"""Request types of the game views (for mypy): what the middleware adds; and when
an htmx request gets a partial."""

from __future__ import annotations

from django.http import HttpRequest
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails

from accounts.requests import AuthenticatedHttpRequest


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware: ``request.htmx``."""

    htmx: HtmxDetails


class SignedInHttpRequest(AuthenticatedHttpRequest, HtmxHttpRequest):
    """A request behind ``login_required``, through django-htmx's middleware."""


def wants_partial(request: HtmxHttpRequest) -> bool:
    """Whether to answer with the page's named partial: for htmx, except for a
    history restore (a cache miss on Back), which htmx swaps into ``<body>`` and
    so needs the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


vary_on_htmx = vary_on_headers("HX-Request", "HX-History-Restore-Request")
"""For a view whose answer ``wants_partial`` picks: a cache keeps the page and
its partial apart."""
