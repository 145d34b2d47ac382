"""Request types of the game views (for mypy): what the middleware adds."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.requests import AuthenticatedHttpRequest


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware: ``request.htmx``."""

    htmx: HtmxDetails


class SignedInHttpRequest(AuthenticatedHttpRequest, HtmxHttpRequest):
    """A request behind ``login_required``, through django-htmx's middleware."""
