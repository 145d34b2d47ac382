"""``manage.py season_rehearse --variant VARIANT --seats N --entrants M
[--seed S]``: one whole season of a throwaway league on the current database,
with time moved through the site's clock (``leagues.rehearsal``); prints one
JSON object: ``groups`` (each with ``division``, ``players``, ``games`` (each
with ``players``, ``first``, ``result`` (finished or decided) and ``points``)
and ``standings``), ``promoted``, ``relegated``, ``timed_out`` and
``seconds`` (``start``, ``end``). Staff run it before opening a league."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.variants import VARIANTS, find_variant
from leagues.rehearsal import rehearse


class Command(BaseCommand):
    help = "Play one whole season of a throwaway league, time moved; print it as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--variant", required=True, choices=[v.name for v in VARIANTS]
        )
        parser.add_argument("--seats", type=int, required=True)
        parser.add_argument("--entrants", type=int, required=True)
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        variant, seats = options["variant"], options["seats"]
        if seats not in find_variant(variant).players:
            raise CommandError("--seats: 2 to 4")
        if options["entrants"] < 3:
            raise CommandError("--entrants: at least 3")
        result = rehearse(
            variant=variant,
            seats=seats,
            entrants=options["entrants"],
            seed=options["seed"],
        )
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=1))
