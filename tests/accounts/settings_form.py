"""What the settings page's one form posts (``accounts.forms.SettingsForm``):
every preference as saved, with the changes a test makes, as a browser sends
them (a ticked box "on", an unticked one absent)."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.forms import SettingsForm


def settings_post(user: Any, **changes: Any) -> dict[str, str]:
    """The POST of the settings page's Save for ``user``, with ``changes``
    (field name: a box's True/False, a field's value as typed, None for empty)."""
    form = SettingsForm(instance=user)
    data = {"action": "save"}
    values = {name: form[name].value() for name in form.fields} | changes
    for name, value in values.items():
        field = form.fields[name]
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        elif value is None:
            data[name] = ""
        elif isinstance(field, forms.ChoiceField):
            data[name] = str(value)
        else:
            data[name] = str(field.widget.format_value(value) or "")
    return data
