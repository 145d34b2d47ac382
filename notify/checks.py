"""``manage.py check``: a VAPID key pair set in the environment must be one."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security)
def vapid_keys_match(**kwargs: Any) -> list[checks.CheckMessage]:
    from .vapid import public_key_of

    private, public = settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY
    if not private:
        if public:
            return [
                checks.Error(
                    "VAPID_PUBLIC_KEY is set without VAPID_PRIVATE_KEY.",
                    hint="Set both (manage.py vapid_keys prints a pair), or neither.",
                    id="notify.E001",
                )
            ]
        return []
    try:
        derived = public_key_of(private)
    except Exception:
        return [
            checks.Error(
                "VAPID_PRIVATE_KEY is not a P-256 private key in base64url.",
                hint="manage.py vapid_keys prints a pair.",
                id="notify.E002",
            )
        ]
    if public and public != derived:
        return [
            checks.Error(
                "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY.",
                hint=f"Its public key is {derived}.",
                id="notify.E003",
            )
        ]
    return []
