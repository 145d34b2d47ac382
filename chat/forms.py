"""The chat's forms: what a POST may say, checked before any service runs."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models import Game

from . import phrases
from .models import MAX_DETAILS, MAX_LENGTH, PlayerReport


class MessageForm(forms.Form):
    """A message: typed text, or a quick phrase (the button pressed)."""

    text = forms.CharField(
        label=_("Your message"),
        max_length=MAX_LENGTH,
        required=False,
        strip=True,
        widget=forms.TextInput(attrs={"maxlength": MAX_LENGTH, "autocomplete": "off"}),
    )
    phrase = forms.ChoiceField(choices=[("", ""), *phrases.CHOICES], required=False)


class SwitchForm(forms.Form):
    """Chat on or off in this game (``on`` is "1" or "0")."""

    on = forms.TypedChoiceField(
        choices=[("1", "on"), ("0", "off")], coerce=lambda v: v == "1"
    )


class MuteForm(SwitchForm):
    """Mute (``on`` = "1") or unmute a player of this game, by name."""

    player = forms.CharField(max_length=150)


class ReportForm(forms.Form):
    message = forms.IntegerField(min_value=1)


class GameChoiceField(forms.ModelChoiceField):
    """A game in the report's list: its number, variant and status."""

    def label_from_instance(self, obj: Game) -> str:
        return gettext("#%(number)s %(variant)s — %(status)s") % {
            "number": obj.pk,
            "variant": obj.get_variant_display(),
            "status": obj.get_status_display(),
        }


class PlayerReportForm(forms.Form):
    """A report of a player (issue #33): why, in which of the games the two
    played together (required for engine help), and what happened (required
    for "something else"). ``chat.services.player_report_create`` checks it
    all again."""

    reason = forms.ChoiceField(
        label=_("Why do you report this player?"),
        choices=PlayerReport.Reason.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose a reason."),
            "invalid_choice": _("Choose a reason."),
        },
    )
    game = GameChoiceField(
        label=pgettext_lazy("one game played, not a kind of game", "Game"),
        queryset=Game.objects.none(),
        required=False,
        empty_label=_("No game in particular"),
        help_text=_(
            "The games you played together, newest first. Required for engine help."
        ),
        error_messages={
            "invalid_choice": _("That is not a game you played with this player.")
        },
    )
    details = forms.CharField(
        label=_("Details"),
        max_length=MAX_DETAILS,
        required=False,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 5, "maxlength": MAX_DETAILS}),
        help_text=_(
            "What happened, and when: a move, a message. Required for “Something else”."
        ),
    )

    def __init__(self, *args: Any, games: QuerySet[Game], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["game"]
        assert isinstance(field, GameChoiceField)
        field.queryset = games

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        reason = data.get("reason")
        # (A field that failed its own check already says why.)
        if (
            reason == PlayerReport.Reason.ENGINE_HELP
            and not data.get("game")
            and "game" not in self.errors
        ):
            self.add_error(
                "game", _("Choose the game where you think they had engine help.")
            )
        if (
            reason == PlayerReport.Reason.OTHER
            and not data.get("details")
            and "details" not in self.errors
        ):
            self.add_error("details", _("Say what happened."))
        return data
