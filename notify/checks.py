"""``manage.py check``: a VAPID key pair set in the environment must be one; push
services are named, and the tests' insecure ones never deployed (issue #23)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

from .endpoints import dns_name
from .vapid import public_key_of


@checks.register(checks.Tags.security)
def vapid_keys_match(**kwargs: Any) -> list[checks.CheckMessage]:
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


@checks.register(checks.Tags.security, deploy=True)
def push_insecure_services_unset(**kwargs: Any) -> list[checks.CheckMessage]:
    """The tests' way in for a stand-in push service is no production setting."""
    if not getattr(settings, "PUSH_INSECURE_SERVICES", []):
        return []
    return [
        checks.Warning(
            "PUSH_INSECURE_SERVICES is set: push endpoints on "
            f"{', '.join(settings.PUSH_INSECURE_SERVICES)} are posted to over "
            "http and on private addresses.",
            hint="It is for tests' stand-in push services; leave it empty.",
            id="notify.W001",
        )
    ]


@checks.register(checks.Tags.security)
def push_service_hosts_are_names(**kwargs: Any) -> list[checks.CheckMessage]:
    """Each allowed push service is a DNS name, or ``*.`` and one of two labels
    or more: never an address, nor a pattern as wide as a top-level domain."""
    wrong = [
        pattern
        for pattern in settings.PUSH_SERVICE_HOSTS
        if not dns_name(pattern.strip().lower().removeprefix("*."))
    ]
    if not wrong:
        return []
    return [
        checks.Error(
            f"PUSH_SERVICE_HOSTS holds what is not a host name: {', '.join(wrong)}.",
            hint="List push services' names, e.g. fcm.googleapis.com, "
            "*.push.services.mozilla.com.",
            id="notify.E004",
        )
    ]
