"""The line a person starting the site waits for: "Azul is ready: open
http://127.0.0.1:8000/" (issue #25, item 18).

Daphne says it is listening in its log ("Listening on TCP address
127.0.0.1:8000", logger ``daphne.server``) once the port is bound; this handler,
on that logger in ``settings.LOGGING``, prints after it the address to open in a
browser. A server bound to every address (``0.0.0.0``, ``::``) is opened on this
machine's loopback address.
"""

from __future__ import annotations

import logging
import re
import sys

from django.utils.translation import gettext as _

LISTENING = re.compile(r"^Listening on TCP address (?P<host>.+):(?P<port>\d+)$")
EVERY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}


def address_to_open(message: str) -> str | None:
    """The URL to open for Daphne's "Listening on TCP address H:P", else None."""
    match = LISTENING.match(message)
    if match is None:
        return None
    host = match["host"]
    host = EVERY_ADDRESS.get(host, f"[{host}]" if ":" in host else host)
    return f"http://{host}:{match['port']}/"


class ReadyAnnouncer(logging.Handler):
    """Prints "Azul is ready: open <URL>" on standard error after each of
    Daphne's "Listening on" lines."""

    def emit(self, record: logging.LogRecord) -> None:
        url = address_to_open(record.getMessage())
        if url is None:
            return
        line = _("Azul is ready: open %(url)s in a browser.") % {"url": url}
        print(line, file=sys.stderr, flush=True)
