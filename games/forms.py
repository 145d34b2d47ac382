"""Forms: create a game, filter the archive, import a record.

Each game family's move form lives in its package (``games/classic/forms.py``).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User

from .models import DAYS_PER_MOVE, FAMILY_VARIANTS, Family, Variant


class GameCreateForm(forms.Form):
    # Classic only until the Summer Pavilion game page exists (pavilion-web).
    variant = forms.ChoiceField(
        label=_("Variant"),
        choices=Variant.choices,
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in (2, 3, 4)],
        coerce=int,
        initial=2,
    )
    days_per_move = forms.TypedChoiceField(
        label=_("Days per move"),
        choices=[(d, str(d)) for d in DAYS_PER_MOVE],
        coerce=int,
        initial=3,
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)
    invite = forms.CharField(
        label=_("Invite players"),
        required=False,
        help_text=_(
            "Usernames separated by commas or spaces; seats left over are open "
            "to anyone."
        ),
    )

    def __init__(self, *args: Any, creator: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator

    def clean_invite(self) -> list[User]:
        names = [n for n in re.split(r"[\s,]+", self.cleaned_data["invite"]) if n]
        names = list(dict.fromkeys(names))
        users = {u.username: u for u in User.objects.filter(username__in=names)}
        unknown = [n for n in names if n not in users]
        if unknown:
            raise forms.ValidationError(
                _("No player is called %(names)s.") % {"names": ", ".join(unknown)}
            )
        if self.creator.username in users:
            raise forms.ValidationError(_("You cannot invite yourself."))
        return [users[n] for n in names]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        invitees = data.get("invite") or []
        players = data.get("players")
        if players and len(invitees) > players - 1:
            raise forms.ValidationError(
                _("You invited more players than there are free seats.")
            )
        return data


def _variant_filter_choices() -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", _("All games"))]
    for family, label in Family.choices:
        choices.append((family, label))
        choices.extend(
            (value, name)
            for value, name in Variant.choices
            if value in FAMILY_VARIANTS[family]
        )
    return choices


class ArchiveFilterForm(forms.Form):
    """The archive's filters, from the query string; an invalid value is ignored
    (with the form's error shown) rather than failing the page."""

    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    variant = forms.ChoiceField(
        label=_("Game"), choices=_variant_filter_choices, required=False
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[("", _("Any number")), *((n, str(n)) for n in (2, 3, 4))],
        coerce=int,
        empty_value=None,
        required=False,
    )
    rated = forms.ChoiceField(
        label=_("Rated"),
        choices=[("", _("Rated or not")), ("yes", _("Rated")), ("no", _("Unrated"))],
        required=False,
    )
    since = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    show = forms.ChoiceField(
        label=_("Show"),
        choices=[
            ("", _("Finished games")),
            ("ongoing", _("Ongoing games")),
            ("imported", _("Imported records")),
        ],
        required=False,
    )

    def clean_player(self) -> User | None:
        name = self.cleaned_data["player"].strip()
        if not name:
            return None
        user = User.objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(
                _("No player is called %(name)s.") % {"name": name}
            )
        return user


class RecordImportForm(forms.Form):
    record = forms.FileField(
        label=_("Game record (JSON)"),
        help_text=_("A record downloaded from this site or written to its format."),
    )
