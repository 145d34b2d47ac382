"""Shared Django fixtures for tests/games, tests/accounts and tests/e2e.

Nothing here assumes anything about the engine beyond ``games.engine``'s public
API, so the engine's own tests (tests/engine) are unaffected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

E2E_DIR = "/e2e/"


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Browser tests run last (docs/stack.md pitfall 3: Playwright leaves an event
    loop). Under pytest-xdist (``-n``) the same order holds in each worker: its
    load scheduling hands tests out front to back, so no worker runs a test of
    another kind after a browser test."""
    items.sort(key=lambda item: E2E_DIR in str(item.path).replace("\\", "/"))


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """PBKDF2 costs ~0.2 s a user; tests do not need strong hashes."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _language_of_its_own() -> Iterator[None]:
    """Each test starts in the default language: a request by a player who reads
    Vietnamese leaves it active in this thread (LocaleMiddleware activates, the
    test client never deactivates), and a later test that renders without a
    request would read Vietnamese."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with empty rate-limit counters (the cache)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from accounts.models import User

    def make(username: str, password: str = "correct-horse-42", **extra: Any) -> Any:
        return User.objects.create_user(
            username=username,
            password=password,
            email=extra.pop("email", f"{username}@example.com"),
            **extra,
        )

    return make


@pytest.fixture
def players(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name) for name in ("ana", "binh", "chloe", "dae")]


@pytest.fixture
def client_for() -> Callable[[Any], Client]:
    """A test client logged in as ``user`` (force_login: axes refuses login())."""

    def make(user: Any) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def start_game() -> Callable[..., Any]:
    """Create a game for ``users`` (first one creates, others accept) and start it."""
    from games import clock, services

    def start(users: list[Any], variant: str = "classic", **kwargs: Any) -> Any:
        days_per_move = kwargs.pop("days_per_move", None)
        game = services.game_create(
            creator=users[0],
            variant=variant,
            players=len(users),
            time_control=kwargs.pop("time_control", clock.DEFAULT.name),
            rated=kwargs.pop("rated", False),
            invitees=users[1:],
        )
        if days_per_move is not None:  # a game created before the bank clock
            days_per_move_game(game, days_per_move)
        for user in users[1:]:
            services.game_invitation_respond(game_id=game.pk, user=user, accept=True)
        game.refresh_from_db()
        return game

    return start


def days_per_move_game(game: Any, days: int) -> None:
    """Make ``game`` (not started yet) one of the games created before the bank
    clock, which keep their days per move (docs/clock.md)."""
    from games.models import Game

    assert game.status == Game.Status.OPEN, "the clock starts with the game"
    Game.objects.filter(pk=game.pk).update(clock="days", days_per_move=days)
    game.refresh_from_db()
