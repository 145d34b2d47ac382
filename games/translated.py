"""Things built from translated strings, once per language and process.

Catalogs do not change while a process runs, and a board asks for dozens of
fixed phrases: asking gettext for each on every request cost ~11 % of a move's
Django instructions (``README.md``, Benchmarks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.utils.translation import get_language

T = TypeVar("T")


def per_language(build: Callable[[], T]) -> Callable[[], T]:
    """A function returning ``build()`` as made in the active language, made
    once per language."""
    built: dict[str | None, T] = {}

    def get() -> T:
        language = get_language()
        value = built.get(language)
        if value is None:
            value = built[language] = build()
        return value

    return get
