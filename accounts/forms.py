"""Sign-up form: Django's ``UserCreationForm`` plus an e-mail for password resets
and the browser's time zone; the settings page's forms."""

from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import UserCreationForm
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from .models import VACATION_DAYS_PER_YEAR, User
from .timezones import time_zone_names
from .usernames import username_key, validate_one_alphabet


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional; needed to reset a forgotten password."),
    )

    # Filled by static/js/notify.js from the browser (Intl.DateTimeFormat); an
    # empty or unknown zone is UTC, changeable in the settings (a plain Field:
    # nothing the player cannot see can refuse the form).
    time_zone = forms.Field(
        required=False,
        widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""}),
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username", "email")

    def clean_time_zone(self) -> str:
        zone = str(self.cleaned_data.get("time_zone") or "")
        return zone if zone in time_zone_names() else "UTC"

    def save(self, commit: bool = True) -> User:
        user: User = super().save(commit=False)
        user.time_zone = self.cleaned_data.get("time_zone") or "UTC"
        if commit:
            user.save()
        return user

    def clean_username(self) -> str:
        """Django's check (no other name differing only in case), then ours:
        one alphabet, and no name that reads the same (``accounts.usernames``)."""
        name: str | None = super().clean_username()
        if name is None:  # Django's check already refused it
            return ""
        validate_one_alphabet(name)
        if User.objects.filter(username_key=username_key(name)).exists():
            raise forms.ValidationError(
                _(
                    "This name is taken: names that differ only in capitals or "
                    "in how their letters are encoded count as the same."
                ),
                code="taken",
            )
        return name


class EmailPreferencesForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email", "email_notifications", "email_computer_turns")
        labels = {"email": _("E-mail")}
        widgets = {"email_notifications": forms.RadioSelect}


class PlayPreferencesForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("confirm_moves", "play_forced")


class NotificationsForm(forms.ModelForm):
    """What comes by push, by e-mail, or both; reminders and quiet hours."""

    class Meta:
        model = User
        fields = (
            "notify_turn",
            "notify_game",
            "notify_reminder",
            "notify_finished",
            "remind_24h",
            "remind_4h",
            "remind_1h",
            "quiet_start",
            "quiet_end",
        )
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise forms.ValidationError(
                _("Give quiet hours both a start and an end, or neither."),
                code="quiet_hours",
            )
        return data


class TimeZoneForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("time_zone",)


class VacationForm(forms.Form):
    days = forms.IntegerField(
        label=_("Days of vacation"),
        min_value=1,
        max_value=VACATION_DAYS_PER_YEAR,
        initial=7,
    )


class PasswordResetForm(auth_forms.PasswordResetForm):
    """contrib.auth's reset form, its e-mail written in the account's language."""

    def send_mail(self, *args: Any, **kwargs: Any) -> None:
        context = kwargs.get("context") or args[2]
        language = getattr(context.get("user"), "language", "")
        with translation.override(language or translation.get_language()):
            super().send_mail(*args, **kwargs)
