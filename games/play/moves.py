"""What every family's moves share on the wire (``docs/moves.md``, "Every family").

Each family's codec (``games/classic/moves.py``, ``games/pavilion/moves.py``)
prints and reads its decisions; what is the same in both is here: the contract
a codec fulfils (:class:`MoveCodec`), the ``expected_ply`` every move post
carries, read by :class:`PlyField` in every move form, a factory or the centre as
a source, and the error of a post that does not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from django import forms

from games.engine.common import CENTER, EngineError, InvalidMoveError

EXPECTED_PLY = "expected_ply"
"""The field of every move post: the ply the page was drawn at."""
CENTER_VALUE = "center"
"""The centre of the table as a source (as the record spells it)."""

_PLY = re.compile(r"[0-9]{1,9}")
_INDEX = re.compile(r"[0-9]{1,2}")


class MoveSyntaxError(InvalidMoveError):
    """A move post's fields that do not make a decision (an engine
    ``InvalidMoveError``, so a ``ValueError``).

    ``code`` is ``unreadable`` when ``field`` cannot be read: a value the codec
    never prints, or a field every decision needs left out. Otherwise every field
    reads but the decision misses what its kind needs; ``field`` is None and
    ``code`` says what is missing (each codec lists its codes).
    """

    def __init__(self, message: str, code: str, field: str | None = None) -> None:
        # The site's codes, not the engine's (``common.Refusal``): past its check.
        EngineError.__init__(self, message, code, {"field": field} if field else {})
        self.field = field


class MoveCodec(Protocol):
    """A family's codec (its ``moves`` module, the family's ``codec``): a decision
    printed as the fields its form posts, and those fields read back."""

    FIELDS: tuple[str, ...]
    """Every field a decision's post may carry (besides ``expected_ply``)."""

    def fields(self, move: Any) -> dict[str, str]:
        """An engine decision (from ``legal_moves()``) as its form posts it."""
        ...

    def parse(self, data: Mapping[str, str]) -> dict[str, Any]:
        """Posted fields read back: the record event without its ``seat``
        (``docs/record.md``); :class:`MoveSyntaxError` if they do not read."""
        ...


def parse_ply(value: str | None) -> int | None:
    """``"41"`` → 41: 1–9 ASCII digits, nothing else (no sign, blank or point);
    None for anything else."""
    return int(value) if value is not None and _PLY.fullmatch(value) else None


class PlyField(forms.CharField):
    """``expected_ply`` in a move form, read by :func:`parse_ply` (cleaned to an
    ``int``); a value it refuses, or none, is a field error."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strip=False, **kwargs)

    def clean(self, value: Any) -> int:
        ply = parse_ply(super().clean(value))
        if ply is None:
            message = forms.IntegerField.default_error_messages["invalid"]
            raise forms.ValidationError(message, code="invalid")
        return ply


def source_value(source: int) -> str:
    """A factory index (``"3"``) or the centre (``"center"``)."""
    return CENTER_VALUE if source == CENTER else str(source)


def parse_source(value: str | None) -> int | None:
    """``"center"`` or 1–2 ASCII digits; None for anything else (a factory that
    does not exist reads, and the engine refuses it)."""
    if value == CENTER_VALUE:
        return CENTER
    if value is not None and _INDEX.fullmatch(value):
        return int(value)
    return None


def group_value(source: int, colour: str) -> str:
    """A tile group, in either family: its source and its colour's name,
    ``"3:red"``, ``"center:red"`` (each family's codec names its colours)."""
    return f"{source_value(source)}:{colour}"


def parse_group(
    value: str | None, colours: Mapping[str, int]
) -> tuple[int, int] | None:
    """``"3:red"`` → ``(3, colours["red"])``; None for anything else."""
    source_text, colon, colour_text = (value or "").partition(":")
    source, colour = parse_source(source_text), colours.get(colour_text)
    if not colon or source is None or colour is None:
        return None
    return source, colour
