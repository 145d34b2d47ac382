"""Apply passed deadlines and send reminders and turn e-mails (cron, or a worker
process with ``--loop``: ``deploy/``)."""

from __future__ import annotations

from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games import jobs


class Command(BaseCommand):
    help = (
        "Apply passed move deadlines (loss or forfeit), send deadline reminders, "
        "'your move' e-mails and daily digests. Safe to run twice or in parallel."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--loop",
            type=float,
            metavar="SECONDS",
            default=0,
            help="Run forever, once every SECONDS, and check for lost computer "
            "turns every COMPUTER_CHECK_SECONDS between (default: run once and "
            "exit).",
        )

    def handle(self, *args: Any, loop: float, **options: Any) -> None:
        if isinstance(get_channel_layer(), InMemoryChannelLayer):
            self.stderr.write(
                "The in-memory channel layer reaches no other process: open pages "
                "hear of timeouts only on their next reconnect. Set REDIS_URL, or "
                "let the server run the job (DEADLINE_LOOP_SECONDS)."
            )
        if loop > 0:
            check = settings.COMPUTER_CHECK_SECONDS
            self.stdout.write(
                f"processing deadlines every {loop:g} s"
                + (
                    f", lost computer turns every {check:g} s"
                    if 0 < check < loop
                    else ""
                )
            )
            jobs.run_forever(loop)
            return
        report = jobs.process_deadlines()
        self.stdout.write(str(report))
