"""The signed-in player's saved language wins over the browser's.

``LocaleMiddleware`` (earlier in the chain) picks the language from the
``django_language`` cookie, then ``Accept-Language``, then ``LANGUAGE_CODE``; this
middleware runs after ``AuthenticationMiddleware`` and, when the player saved a
language on their account, activates that one instead.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None else ""
        if language and translation.check_for_language(language):
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()  # type: ignore[attr-defined]
        return self.get_response(request)
