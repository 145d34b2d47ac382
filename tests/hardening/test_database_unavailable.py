"""A database that goes away mid-request answers 503 with ``Retry-After`` and the
site's page in the reader's language, logged as a warning; the next request
connects again (issue #33 item 4: a PostgreSQL connection cut answered 500, 9
times in 4 cuts). ``azulsite/unavailable.py``.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from asgiref.sync import async_to_sync
from django.db import connection, connections
from django.db.utils import InterfaceError, OperationalError, ProgrammingError
from django.http import HttpRequest, HttpResponse
from django.test import AsyncClient, Client
from django.urls import path, reverse
from django.utils import translation

from azulsite import unavailable
from azulsite.urls import urlpatterns as site_urlpatterns

PAGE_WORDS = (
    "The site cannot reach its database just now. Wait a few seconds and "
    "reload the page."
)


def _cut(message: str = "server closed the connection unexpectedly") -> Exception:
    """What Django raises when psycopg finds its connection gone."""
    error = OperationalError(message)
    error.__cause__ = psycopg.OperationalError(message)
    return error


# A view of each kind that fails as a cut connection makes it fail, and the
# site's own URLs (the page's menu links to them).
def sync_view(request: HttpRequest) -> HttpResponse:
    raise _cut()


async def async_view(request: HttpRequest) -> HttpResponse:
    raise _cut()


urlpatterns = [
    path("test-cut/sync/", sync_view),
    path("test-cut/async/", async_view),
    *site_urlpatterns,
]
handler500 = "azulsite.unavailable.server_error"


def _get(
    client: Client | AsyncClient, url: str, headers: dict[str, str] | None = None
) -> Any:
    if isinstance(client, AsyncClient):
        return async_to_sync(client.get)(url, headers=headers)
    return client.get(url, headers=headers)


def _in(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


def _warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "azulsite.unavailable"]


def _assert_unavailable(response: Any, caplog: pytest.LogCaptureFixture) -> str:
    assert response.status_code == 503
    assert response["Retry-After"] == str(unavailable.RETRY_AFTER)
    assert 5 <= int(response["Retry-After"]) <= 30
    assert response["Cache-Control"] == "no-store"
    assert [r.levelname for r in _warnings(caplog)] == ["WARNING"]
    # Not logged again as a server error by Django.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    return response.content.decode()


# ------------------------------------------------------------------ which errors


@pytest.mark.parametrize(
    ("error", "unavailable_now"),
    [
        (_cut(), True),
        (_cut("the connection is closed"), True),
        (InterfaceError("connection already closed"), True),
        (OperationalError("no driver error behind it"), True),
        (ProgrammingError("relation does not exist"), False),
        (ValueError("not the database"), False),
        (None, False),
    ],
)
def test_which_errors_are_a_moment_to_wait_out(error, unavailable_now):
    assert unavailable.database_unavailable(error) is unavailable_now


@pytest.mark.parametrize(
    ("cause", "unavailable_now"),
    [
        (psycopg.errors.AdminShutdown("terminating connection"), True),  # 57P01
        (psycopg.errors.CannotConnectNow("the database system is starting"), True),
        (psycopg.errors.TooManyConnections("too many clients"), True),  # 53300
        (psycopg.errors.SerializationFailure("could not serialize"), True),  # 40001
        (psycopg.errors.QueryCanceled("statement timeout"), True),  # 57014
        (psycopg.errors.ConnectionFailure("connection failure"), True),  # 08006
        (psycopg.errors.InvalidTextRepresentation("bad input"), False),  # 22P02
        (sqlite3.OperationalError("database is locked"), True),
        (sqlite3.OperationalError("no such table: games_game"), False),
    ],
)
def test_a_driver_error_is_read_by_its_kind(cause, unavailable_now):
    error = OperationalError(str(cause))
    error.__cause__ = cause
    assert unavailable.database_unavailable(error) is unavailable_now


# ------------------------------------------------------------------ a view fails


@pytest.mark.django_db
def test_a_page_whose_database_is_cut_answers_503_in_the_players_language(
    make_user, client_for, monkeypatch, caplog
):
    """A selector of the profile page meets a cut connection: 503, Retry-After,
    the page in the player's saved language (Vietnamese), a warning."""
    ana = make_user("ana", language="vi")
    binh = make_user("binh")

    def cut(**kwargs: Any) -> Any:
        raise _cut()

    monkeypatch.setattr("games.people.profile_views.follow_counts", cut)
    caplog.set_level(logging.WARNING)
    response = client_for(ana).get(reverse("profile", args=[binh.username]))
    html = _assert_unavailable(response, caplog)
    words = _in("vi", PAGE_WORDS)
    assert words != PAGE_WORDS  # translated
    assert words in html
    assert '<html lang="vi">' in html
    assert _in("vi", "The site is unavailable for a moment") in html
    # The signed-in player's menu (already read before the view), no badge count.
    assert f'href="{reverse("profile", args=["ana"])}"' in html
    (warning,) = _warnings(caplog)
    assert warning.getMessage().startswith(
        "Database unavailable, answered 503: GET /accounts/players/binh/: "
    )


@pytest.mark.django_db
@pytest.mark.urls(__name__)
@pytest.mark.parametrize("kind", ["sync", "async"])
@pytest.mark.parametrize("client_class", [Client, AsyncClient], ids=["wsgi", "asgi"])
def test_sync_and_async_views_answer_503_through_either_handler(
    kind: str,
    client_class: Callable[[], Client | AsyncClient],
    caplog: pytest.LogCaptureFixture,
):
    caplog.set_level(logging.WARNING)
    response = _get(client_class(), f"/test-cut/{kind}/", {"Accept-Language": "ko"})
    html = _assert_unavailable(response, caplog)
    assert _in("ko", PAGE_WORDS) in html
    assert 'href="/accounts/login/' in html  # a visitor's menu


@pytest.mark.django_db
def test_htmx_requests_get_the_same_status(make_user, client_for, monkeypatch, caplog):
    """htmx swaps no error answer: static/js/errors.js says 503 in a toast."""
    ana = make_user("ana")

    def cut(**kwargs: Any) -> Any:
        raise _cut()

    monkeypatch.setattr("games.people.profile_views.follow_counts", cut)
    caplog.set_level(logging.WARNING)
    response = client_for(ana).get(
        reverse("profile", args=["ana"]), HTTP_HX_REQUEST="true"
    )
    _assert_unavailable(response, caplog)
    home = client_for(ana).get(reverse("games:home")).content.decode()
    assert "data-error-unavailable=" in home


# --------------------------------------------------------------- a middleware fails


@pytest.mark.django_db
def test_a_middleware_whose_database_is_cut_answers_503_too(
    make_user, monkeypatch, caplog
):
    """The "last seen" write runs in a middleware, before the view: Django turns
    its error into handler500's answer, which is the same 503."""
    ana = make_user("ana", language="pt-br")

    def cut(**kwargs: Any) -> None:
        raise _cut("terminating connection due to administrator command")

    monkeypatch.setattr("accounts.presence.seen", cut)
    caplog.set_level(logging.WARNING)
    client = Client(raise_request_exception=False)
    client.force_login(ana)
    html = _assert_unavailable(client.get(reverse("games:home")), caplog)
    assert _in("pt-br", PAGE_WORDS) in html


@pytest.mark.django_db
def test_any_other_error_is_still_a_server_error(make_user, monkeypatch, caplog):
    """A mistake in a query is a bug to fix, not a moment to wait out: 500."""
    make_user("ana")

    def broken(**kwargs: Any) -> Any:
        error = OperationalError("no such table: accounts_follow")
        error.__cause__ = sqlite3.OperationalError("no such table: accounts_follow")
        raise error

    monkeypatch.setattr("games.people.profile_views.follow_counts", broken)
    client = Client(raise_request_exception=False)
    response = client.get(reverse("profile", args=["ana"]))
    assert response.status_code == 500
    assert "Retry-After" not in response
    assert not _warnings(caplog)


# ------------------------------------------------- PostgreSQL: a real cut, and after


def _terminate(pid: int) -> None:
    """End backend ``pid`` from a second connection, and wait until it is gone."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
            (ended,) = cursor.fetchone()
        assert ended
    finally:
        other.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("client_class", [Client, AsyncClient], ids=["wsgi", "asgi"])
def test_postgresql_terminating_the_requests_connection_answers_503_then_200(
    make_user,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    client_class: Callable[[], Client | AsyncClient],
):
    """The request's own backend is terminated (``pg_terminate_backend``) while
    the profile page is being drawn: that request answers 503, and the next one
    connects again and answers 200."""
    if connection.vendor != "postgresql":
        pytest.skip("terminates a PostgreSQL backend")
    make_user("ana")
    from games.people import profile_views

    original = profile_views.follow_counts
    cuts: list[int] = []

    def cut_then_count(**kwargs: Any) -> Any:
        if not cuts:  # the first request only
            with connection.cursor() as cursor:  # the request's own connection
                cursor.execute("SELECT pg_backend_pid()")
                (pid,) = cursor.fetchone()
            _terminate(pid)
            cuts.append(pid)
        return original(**kwargs)

    monkeypatch.setattr(profile_views, "follow_counts", cut_then_count)
    caplog.set_level(logging.WARNING)
    client = client_class()
    url = reverse("profile", args=["ana"])
    response = _get(client, url)
    assert cuts, "the cut was not made"
    html = _assert_unavailable(response, caplog)
    assert PAGE_WORDS in html
    assert _get(client, url).status_code == 200
    with connection.cursor() as cursor:  # this thread's connection works too
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] not in cuts
