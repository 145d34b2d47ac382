"""Sign-up form: Django's ``UserCreationForm`` plus an e-mail for password resets."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import User


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional; needed to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username", "email")
