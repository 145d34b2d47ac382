"""Request types for views behind ``login_required`` (for mypy)."""

from __future__ import annotations

from django.http import HttpRequest

from .models import User


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose user is signed in: what ``login_required`` lets through."""

    user: User
