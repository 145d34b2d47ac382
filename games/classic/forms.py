"""The classic move form: one decision as the board posts it (JS or not)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.classic import COLOURS


class ClassicMoveForm(forms.Form):
    """A take or a grey-wall placement, checked for shape only (the engine
    decides legality).

    A take: ``source`` (factory index or ``center``), ``colour``, ``line`` (0–4
    or ``floor``). A grey-wall placement: ``line`` and ``column``. Every post
    carries ``expected_ply``, the ply its page was drawn at. A post that does not
    parse has field errors only (the view says it could not be read); a readable
    one that misses its tiles or column says so in ``non_field_errors()``.
    """

    # Regexes, not IntegerFields: a ply or a column is digits only, no sign,
    # blanks or decimal point.
    expected_ply = forms.RegexField(regex=r"\A\d{1,9}\Z", strip=False)
    kind = forms.ChoiceField(choices=[("take", "take"), ("wall", "wall")])
    source = forms.RegexField(
        regex=r"\A(?:center|\d{1,2})\Z", required=False, strip=False
    )
    colour = forms.ChoiceField(
        choices=[(colour, colour) for colour in COLOURS], required=False
    )
    line = forms.RegexField(regex=r"\A(?:[0-4]|floor)\Z", strip=False)
    column = forms.TypedChoiceField(
        choices=[(str(column), str(column)) for column in range(5)],
        coerce=int,
        required=False,
        empty_value=None,
    )

    def clean_expected_ply(self) -> int:
        return int(self.cleaned_data["expected_ply"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data  # unreadable: no message of our own
        if data["kind"] == "take" and not (data["source"] and data["colour"]):
            raise forms.ValidationError(_("Choose tiles first."))
        if data["kind"] == "wall" and (
            data["column"] is None or data["line"] == "floor"
        ):
            raise forms.ValidationError(_("Choose a wall column."))
        return data

    def record_event(self) -> dict[str, Any]:
        """The move as a record event without its seat (``docs/record.md``)."""
        data = self.cleaned_data
        if data["kind"] == "wall":
            return {"wall": {"line": int(data["line"]), "column": data["column"]}}
        source, line = data["source"], data["line"]
        return {
            "from": "center" if source == "center" else int(source),
            "colour": data["colour"],
            "to": "floor" if line == "floor" else int(line),
        }
