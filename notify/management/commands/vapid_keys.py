"""Print a new VAPID key pair for the production environment (deploy/README.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notify.vapid import generate_private_key, public_key_of


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair as environment lines (VAPID_PRIVATE_KEY, "
        "VAPID_PUBLIC_KEY). Set them once: a new pair invalidates every "
        "browser's push subscription."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        private = generate_private_key()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={public_key_of(private)}")
