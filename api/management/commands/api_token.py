"""``manage.py api_token USERNAME --scopes game:read,game:play [--name NAME]``:
make a personal API token for USERNAME and print it (once: only its SHA-256
is kept). For operators and tests (docs/api.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from api import services


class Command(BaseCommand):
    help = "Make a personal API token and print it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--scopes", required=True)
        parser.add_argument("--name", default="manage.py")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user {options['username']!r}")
        try:
            _token, secret = services.token_create(
                user=user,
                name=options["name"],
                scopes=[s.strip() for s in options["scopes"].split(",") if s.strip()],
            )
        except services.TokenError as error:
            raise CommandError(error.message) from None
        self.stdout.write(secret)
