"""Sign-up form: Django's ``UserCreationForm`` plus an e-mail for password resets
and the browser's time zone; the settings page's form."""

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


class SettingsForm(forms.ModelForm):
    """The settings page's preferences, one form with one Save: e-mail,
    notifications (what comes and how, reminders, quiet hours), time zone and
    play. A change in one section is saved with the others, never lost to
    another section's button (issue #25). ``sections`` groups the fields as the
    page shows them."""

    SECTIONS = {
        "email": ("email", "email_notifications", "email_computer_turns"),
        "notify": (
            "notify_turn",
            "notify_game",
            "notify_reminder",
            "notify_finished",
            "notify_chat",
        ),
        "reminders": ("remind_24h", "remind_2h", "remind_1h"),
        "quiet_hours": ("quiet_start", "quiet_end"),
        "time_zone": ("time_zone",),
        "play": ("confirm_moves", "play_forced", "review_hidden"),
        "chat": ("chat",),
        "presence": ("show_presence",),
    }

    class Meta:
        model = User
        fields = (
            "email",
            "email_notifications",
            "email_computer_turns",
            "notify_turn",
            "notify_game",
            "notify_reminder",
            "notify_finished",
            "notify_chat",
            "remind_24h",
            "remind_2h",
            "remind_1h",
            "quiet_start",
            "quiet_end",
            "time_zone",
            "confirm_moves",
            "play_forced",
            "review_hidden",
            "chat",
            "show_presence",
        )
        labels = {"email": _("E-mail")}
        widgets = {
            "email_notifications": forms.RadioSelect,
            "chat": forms.RadioSelect,
            "quiet_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    @property
    def sections(self) -> dict[str, list[forms.BoundField]]:
        """The bound fields of each section, in the page's order."""
        return {
            section: [self[name] for name in names]
            for section, names in self.SECTIONS.items()
        }

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        start, end = data.get("quiet_start"), data.get("quiet_end")
        parsed = not self.has_error("quiet_start") and not self.has_error("quiet_end")
        if parsed and (start is None) != (end is None):
            self.add_error(
                "quiet_end" if end is None else "quiet_start",
                forms.ValidationError(
                    _("Give quiet hours both a start and an end, or neither."),
                    code="quiet_hours",
                ),
            )
        return data


class VacationForm(forms.Form):
    days = forms.IntegerField(
        label=_("Days of vacation"),
        min_value=1,
        max_value=VACATION_DAYS_PER_YEAR,
        initial=7,
    )


class BotForm(forms.Form):
    """The settings page's form for a new bot account: its name
    (``accounts.services.bot_create`` checks it and says what is wrong)."""

    username = forms.CharField(
        label=_("The bot's name"),
        max_length=30,
        help_text=_("1 to 30 letters, digits, dots, hyphens or underscores."),
        error_messages={"required": _("Give the bot a name.")},
    )


class PasswordResetForm(auth_forms.PasswordResetForm):
    """contrib.auth's reset form, its e-mail written in the account's language."""

    def send_mail(self, *args: Any, **kwargs: Any) -> None:
        context = kwargs.get("context") or args[2]
        language = getattr(context.get("user"), "language", "")
        with translation.override(language or translation.get_language()):
            super().send_mail(*args, **kwargs)
