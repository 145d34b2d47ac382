"""The settings page's form for a new API token (``azulsite.settings_page``):
the account it is for (the person, or one of their bot accounts), a name, the
scopes as boxes, each with what it lets a program do, and an expiry among those
offered."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from api.models import SCOPES
from games import clock

SCOPE_LABELS = {
    "game:read": _("Read my games and what happens in them"),
    "game:play": _("Play my moves and resign"),
    "challenge:write": _("Send and answer challenges"),
    "bot:play": _("Play as a bot"),
}
"""What each scope lets a program do, as the page says it (the scope's own name,
``game:read`` and so on, is the value the form posts and the API checks)."""

EXPIRY_DAYS = (30, 90, 365)
"""The expiries offered, in days; none (the default) means the token lasts
until it is revoked."""


class ApiTokenForm(forms.Form):
    account = forms.TypedChoiceField(
        label=_("Account"),
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("Yours, or one of your bot accounts: the token acts as it."),
        error_messages={
            "invalid_choice": _("That is neither your account nor one of your bots."),
        },
    )
    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        help_text=_("What the token is for, to tell it apart."),
        error_messages={"required": _("Give the token a name.")},
    )
    scopes = forms.MultipleChoiceField(
        label=_("What it may do"),
        choices=[(scope, SCOPE_LABELS[scope]) for scope in SCOPES],
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": _("Choose at least one scope."),
            "invalid_choice": _("That is not one of the scopes offered."),
        },
    )
    expiry = forms.TypedChoiceField(
        label=_("Expires"),
        coerce=int,
        empty_value=None,
        required=False,
        error_messages={
            "invalid_choice": _("Choose one of the expiries offered."),
        },
    )

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only the owner and their own bots are offered, so only they are read:
        # another's bot, a person or a forged id is not a choice.
        self.owner = owner
        self.accounts = {owner.pk: owner} | {
            bot.pk: bot for bot in owner.bots.order_by("username_key", "pk")
        }
        account = self.fields["account"]
        assert isinstance(account, forms.TypedChoiceField)
        account.initial = owner.pk
        account.choices = [
            (
                str(pk),
                gettext("Me (%(name)s)") % {"name": user.username}
                if pk == owner.pk
                else gettext("The bot %(name)s") % {"name": user.username},
            )
            for pk, user in self.accounts.items()
        ]
        # At request time, in the reader's language (a count: ngettext).
        expiry = self.fields["expiry"]
        assert isinstance(expiry, forms.TypedChoiceField)
        expiry.choices = [("", _("Never: until I revoke it"))] + [
            (
                str(days),
                ngettext("In %(days)s day", "In %(days)s days", days) % {"days": days},
            )
            for days in EXPIRY_DAYS
        ]

    def chosen_account(self) -> User:
        """Whose the token is (the owner when none was chosen); on a valid form."""
        return self.accounts[self.cleaned_data.get("account") or self.owner.pk]

    def expires_at(self) -> datetime | None:
        """When the token chosen expires (None: never); on a valid form."""
        days = self.cleaned_data.get("expiry")
        return clock.now() + timedelta(days=days) if days else None
