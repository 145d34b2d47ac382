"""The classic move form: one decision as the board posts it (JS or not)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.classic import moves
from games.play.moves import PlyField

_MISSING = {
    "no_tiles": _("Choose tiles first."),
    "no_column": _("Choose a wall column."),
}
"""What a readable post that misses part of its decision tells the player."""


class ClassicMoveForm(forms.Form):
    """A take or a grey-wall placement, read by the codec (``moves.parse``,
    ``docs/moves.md``) and checked for shape only (the engine decides legality).

    Every post carries ``expected_ply``, the ply its page was drawn at. A post
    that does not read has field errors only (the view says it could not be
    read); a readable one that misses its tiles or column says so in
    ``non_field_errors()``.
    """

    expected_ply = PlyField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in moves.FIELDS:  # raw text: the codec reads it in clean()
            self.fields[name] = forms.CharField(required=False, strip=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data  # unreadable: no message of our own
        try:
            data["event"] = moves.parse(data)
        except moves.MoveSyntaxError as error:
            if error.field is not None:
                self.add_error(error.field, str(error))
            else:
                raise forms.ValidationError(_MISSING[error.code]) from None
        return data

    def record_event(self) -> dict[str, Any]:
        """The move as a record event without its seat (``docs/record.md``)."""
        event: dict[str, Any] = self.cleaned_data["event"]
        return event
