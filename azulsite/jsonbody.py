"""JSON request bodies, read within bounds (issue #23).

``json.loads`` recurses once per nested bracket: a body of 100,000 ``[`` raised
``RecursionError``, a 500. Every view that reads a JSON body calls
:func:`read_json`, which refuses with :class:`BadBody` (its ``status`` is the
answer to give):

- **413**: a body over ``max_bytes``, told by ``Content-Length`` before any of
  it is read, else by its length (Django itself stops at
  ``DATA_UPLOAD_MAX_MEMORY_SIZE``);
- **400**: nesting deeper than ``max_depth``, counted before parsing in one pass
  of a regular expression (no recursion; brackets inside strings do not count);
  bytes that are not UTF-8; text that is not JSON (``NaN`` and ``Infinity``
  included: they are not JSON).

:func:`loads` is the same without a request.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest

MAX_BYTES = 64 * 1024
"""What a JSON body of this site may weigh unless its view says less."""

MAX_DEPTH = 20
"""How deeply it may nest (a push subscription nests 2 deep)."""

TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]', re.DOTALL)
"""A whole string (skipped) or one bracket; possessive, so never backtracking."""


class BadBody(ValueError):
    """A JSON body refused; ``status`` is 400 or 413."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


def depth(text: str) -> int:
    """How deeply ``text`` nests its arrays and objects (0 for a scalar);
    brackets inside strings do not count."""
    level = deepest = 0
    for match in TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            level += 1
            deepest = max(deepest, level)
        elif token in ("]", "}"):
            level -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise BadBody(400, f"{name} is not JSON")


def loads(
    data: bytes | str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """``data`` parsed as JSON, or :class:`BadBody`."""
    if len(data) > max_bytes:
        raise BadBody(413, f"over {max_bytes} bytes")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadBody(400, "not UTF-8") from None
    if depth(data) > max_depth:
        raise BadBody(400, f"nested deeper than {max_depth}")
    try:
        return json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        if isinstance(error, BadBody):
            raise
        raise BadBody(400, f"not JSON ({error})") from None


def read_json(
    request: HttpRequest, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """The request's body parsed as JSON, or :class:`BadBody`."""
    announced = request.META.get("CONTENT_LENGTH") or "0"
    if announced.isdigit() and int(announced) > max_bytes:
        raise BadBody(413, f"over {max_bytes} bytes")
    try:
        body = request.body
    except RequestDataTooBig:
        raise BadBody(413, f"over {max_bytes} bytes") from None
    return loads(body, max_bytes=max_bytes, max_depth=max_depth)
