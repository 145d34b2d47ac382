"""The Summer Pavilion move form: one decision as posted by the board (JS or not).

The post's fields are the codec's (``moves.parse``, ``docs/moves.md``): ``kind``
says which decision — ``take``, ``place``, ``bonus`` or ``pass``. The form checks
shape and the plain limits a player should hear about first (at most 4 tiles
kept); the engine decides legality.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine.pavilion import MAX_KEEP
from games.pavilion import moves
from games.play.moves import PlyField

_MISSING = {
    "no_tiles": _("Choose tiles first."),
    "no_space": _("Choose a space and how to pay for it."),
    "no_bonus": _("Choose your bonus tiles."),
}
"""What a readable post that misses part of its decision tells the player."""


class PavilionMoveForm(forms.Form):
    """A post that does not read has field errors only (the view says it could
    not be read); a readable one that misses part of its decision, or keeps too
    many tiles, says so in ``non_field_errors()``."""

    expected_ply = PlyField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in moves.FIELDS:  # raw text: the codec reads it in clean()
            self.fields[name] = forms.CharField(required=False, strip=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            event = moves.parse(data)
        except moves.MoveSyntaxError as error:
            if error.field is not None:
                self.add_error(error.field, str(error))
                return data
            raise forms.ValidationError(_MISSING[error.code]) from None
        if "pass" in event and len(event["pass"]["keep"]) > MAX_KEEP:
            raise forms.ValidationError(
                ngettext(
                    "You may keep at most %(n)s tile.",
                    "You may keep at most %(n)s tiles.",
                    MAX_KEEP,
                )
                % {"n": MAX_KEEP}
            )
        data["event"] = event
        return data

    def record_event(self) -> dict[str, Any]:
        """The move as a record event without its seat (``docs/record.md``)."""
        event: dict[str, Any] = self.cleaned_data["event"]
        return event
