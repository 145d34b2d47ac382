"""``manage.py check --deploy``: the admin does not sit at the address every
scanner tries first."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def admin_at_its_own_address(**kwargs: Any) -> list[checks.CheckMessage]:
    if settings.ADMIN_URL == "admin/":
        return [
            checks.Warning(
                "The admin is at /admin/, where scanners look for it.",
                hint="Set ADMIN_URL to a path of your own (deploy/azul.env.example).",
                id="accounts.W001",
            )
        ]
    return []
