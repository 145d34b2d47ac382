"""The chat's forms: what a POST may say, checked before any service runs."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from . import phrases
from .models import MAX_LENGTH


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
