"""Path converters: ids in URLs are checked here, once, for every route
(``accounts.converters`` checks ``<username:...>``).

``<game_id:pk>`` matches only ids a database column can hold (a bigint: below
2**63 on SQLite and PostgreSQL alike), so ``/games/99999999999999999999/`` is a
plain 404 instead of an overflow in the query.
"""

from __future__ import annotations

from django.urls import register_converter

MAX_ID = 2**63 - 1


class GameIdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= MAX_ID:
            raise ValueError("not a game id")  # no match: 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(GameIdConverter, "game_id")
