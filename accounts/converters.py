"""The ``<username:...>`` path converter: player names in URLs are checked here,
once, for every route (``games.converters`` checks game ids).

It refuses control characters (``%00``), which PostgreSQL cannot compare.
"""

from __future__ import annotations

from django.urls import register_converter


class UsernameConverter:
    """Any run of characters but ``/`` and the C0/C1 control characters."""

    regex = "[^/\x00-\x1f\x7f-\x9f]{1,150}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(UsernameConverter, "username")
