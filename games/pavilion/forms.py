"""The Summer Pavilion move form: one decision as posted by the board (JS or not).

``kind`` says which: ``take`` (``source``, ``colour``, or ``take`` as
``<source>:<colour>``: a tile group's own button, for a player who takes with
one click), ``place`` (``space`` as
``<star>-<n>``, ``payment`` as ``<colour>:<wilds>``), ``bonus`` (``bonus_<colour>``
counts) or ``pass`` (``keep_<colour>`` counts). The form checks shape and the plain
limits a player should hear about first (at most 4 tiles kept); the engine decides
legality.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine.pavilion import MAX_KEEP
from games.engine.pavilion_board import COLOURS, STARS

_STARS = "|".join(STARS)
_COLOURS = "|".join(COLOURS)


class PavilionMoveForm(forms.Form):
    expected_ply = forms.IntegerField(min_value=0)
    kind = forms.ChoiceField(
        choices=[(k, k) for k in ("take", "place", "bonus", "pass")]
    )
    source = forms.RegexField(regex=r"^(center|\d{1,2})$", required=False)
    take = forms.RegexField(regex=rf"^(center|\d{{1,2}}):({_COLOURS})$", required=False)
    colour = forms.ChoiceField(choices=[(c, c) for c in COLOURS], required=False)
    space = forms.RegexField(regex=rf"^({_STARS})-[1-6]$", required=False)
    payment = forms.RegexField(regex=rf"^({_COLOURS}):[0-5]$", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in COLOURS:
            for prefix in ("bonus", "keep"):
                self.fields[f"{prefix}_{name}"] = forms.IntegerField(
                    min_value=0, max_value=99, required=False
                )

    def _counts(self, prefix: str) -> list[str]:
        data = self.cleaned_data
        return [
            name for name in COLOURS for _n in range(data.get(f"{prefix}_{name}") or 0)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        kind = data["kind"]
        if kind == "take" and data.get("take") and not data.get("source"):
            data["source"], data["colour"] = data["take"].split(":")
        if kind == "take" and (not data.get("source") or not data.get("colour")):
            raise forms.ValidationError(_("Choose tiles first."))
        if kind == "place" and not (data.get("space") and data.get("payment")):
            raise forms.ValidationError(_("Choose a space and how to pay for it."))
        if kind == "bonus" and not self._counts("bonus"):
            raise forms.ValidationError(_("Choose your bonus tiles."))
        if kind == "pass" and len(self._counts("keep")) > MAX_KEEP:
            raise forms.ValidationError(
                ngettext(
                    "You may keep at most %(n)s tile.",
                    "You may keep at most %(n)s tiles.",
                    MAX_KEEP,
                )
                % {"n": MAX_KEEP}
            )
        return data

    def record_event(self) -> dict[str, Any]:
        """The move as a record event without its seat (``docs/record.md``)."""
        data = self.cleaned_data
        kind = data["kind"]
        if kind == "take":
            source = data["source"]
            return {
                "from": "center" if source == "center" else int(source),
                "colour": data["colour"],
            }
        if kind == "place":
            star, number = data["space"].rsplit("-", 1)
            colour, wilds = data["payment"].split(":")
            return {
                "star": star,
                "space": int(number),
                "colour": colour,
                "wilds": int(wilds),
            }
        if kind == "bonus":
            return {"bonus": self._counts("bonus")}
        return {"pass": {"keep": self._counts("keep")}}
