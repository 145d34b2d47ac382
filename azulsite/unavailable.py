"""A database that goes away mid-request answers 503, not 500 (issue #33 item 4).

A PostgreSQL connection cut under a request (a restart, a fail-over, an
administrator's ``pg_terminate_backend``, the network) raised Django's
``OperationalError`` or ``InterfaceError`` and answered 500. It now answers
**503 Service Unavailable** with ``Retry-After`` (``RETRY_AFTER`` seconds) and the
site's page saying so in the reader's language (``templates/503.html``), logged as
a warning (logger ``azulsite.unavailable``), never as a server error.

Two ways in, one answer (:func:`unavailable_response`):

- ``DatabaseUnavailableMiddleware.process_exception``: the error came out of a
  view, sync or async (Django calls ``process_exception`` in the request's
  thread under ASGI too), with ``DEBUG`` on or off.
- :func:`server_error`, the site's ``handler500``: the error came out of a
  middleware (the session, the signed-in player and their language are read
  before the view), where Django turns it into the 500 handler's answer.

Which errors: :func:`database_unavailable`. A lost or refused connection, an
administrator's or the server's shutdown, too many connections, a query
cancelled, a serialization failure or deadlock (PostgreSQL's SQLSTATE classes 08,
57, 53 and 40), and SQLite's "database is locked"; not a mistake in a query (a
missing table stays a 500, a bug to fix, not a moment to wait out).

The broken connection is closed before answering, so the next query, of this
request or the next one, opens a new one (Django also does at the end of a
request, ``close_old_connections``, but not for the test client, and a
persistent connection, ``CONN_MAX_AGE``, would otherwise be used again).

Not retried, even for a GET: the view may already have written (a GET page
marks things seen), its decorators counted the request (rate limits), and a
database that is restarting refuses the retry anyway. The page and
``Retry-After`` ask the browser, and the reader, to come back in a few seconds;
htmx requests get the same status, which ``static/js/errors.js`` says in a toast.

The page is drawn without the database: no context processors (the "your move"
badge counts games), the signed-in player only if already read (the menu), else
the visitor's menu.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
from typing import Any

from django.db import connections
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _
from django.views import defaults

logger = logging.getLogger(__name__)

RETRY_AFTER = 10
"""Seconds the answer asks to wait (``Retry-After``): a restarted PostgreSQL
takes a few seconds, a fail-over some more."""

TEMPLATE = "503.html"

TRANSIENT_SQLSTATE_CLASSES = frozenset({"08", "40", "53", "57"})
"""PostgreSQL's error classes of a moment to wait out: connection exception,
transaction rollback (serialization failure, deadlock), insufficient resources
(too many connections), operator intervention (shutdown, cancelled)."""


def database_unavailable(error: BaseException | None) -> bool:
    """``error`` says the database is away or busy for a moment, not that a
    query is wrong."""
    if isinstance(error, InterfaceError):
        return True  # "connection already closed"
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    if isinstance(cause, sqlite3.OperationalError):
        return "locked" in str(cause)
    sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if sqlstate is None:
        # psycopg's own errors: no server answer at all ("server closed the
        # connection unexpectedly", "connection failed", "the connection is
        # closed"); Django's without a driver error behind it likewise.
        return True
    return str(sqlstate)[:2] in TRANSIENT_SQLSTATE_CLASSES


def discard_broken_connections() -> None:
    """Close this thread's database connections that no longer answer, so the
    next query opens a new one. A connection that saw no error is left alone
    (it is asked nothing: no round trip)."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is None or not connection.errors_occurred:
            continue
        if not connection.is_usable():
            connection.close()


def _signed_in_user(request: HttpRequest) -> Any:
    """The signed-in player if ``AuthenticationMiddleware`` already read them,
    else None (reading them now would ask the database)."""
    return getattr(request, "_cached_user", None)


def unavailable_response(request: HttpRequest, error: BaseException) -> HttpResponse:
    """The 503 answer to a request the database failed, logged as a warning."""
    try:
        discard_broken_connections()
    except Exception:  # closing a dead connection may fail too: it is dropped
        logger.debug("could not close a broken connection", exc_info=True)
    logger.warning(
        "Database unavailable, answered 503: %s %s: %s: %s",
        request.method,
        request.path,
        type(error).__name__,
        str(error).strip() or repr(error),
    )
    content: str
    try:
        content = render_to_string(
            TEMPLATE,
            {
                "request": request,
                "user": _signed_in_user(request),
                "csrf_token": get_token(request),
                "retry_after": RETRY_AFTER,
            },
        )
    except Exception:  # the page itself failed: its one sentence, plain
        logger.exception("could not draw the 503 page")
        content = _(
            "The site cannot reach its database just now. Wait a few seconds and "
            "reload the page."
        )
    response = HttpResponse(content, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    # Logged above, as a warning: Django's log_response would log it again as
    # an error ("Service Unavailable: /path").
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """A view's database error of the moment: 503 (:func:`unavailable_response`).

    Only ``process_exception``: Django calls it for sync and async views alike
    (under ASGI in the request's own thread, where its connection lives), and
    ``MiddlewareMixin`` passes every request on in the handler's own mode.
    """

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        if not database_unavailable(exception):
            return None
        return unavailable_response(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a middleware's database error of the moment answers 503;
    anything else Django's own 500 page."""
    error = sys.exc_info()[1]
    if database_unavailable(error):
        assert error is not None
        return unavailable_response(request, error)
    return defaults.server_error(request)
