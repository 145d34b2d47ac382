"""Games, seats and moves. The ``Move`` rows are the record of truth; ``Game.state``
is a cache rebuildable from them (``selectors.game_engine_from_moves``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Variant(models.TextChoices):
    """Variants the lobby offers; values are the record's ``variant`` names."""

    CLASSIC = "classic", _("Azul (coloured wall)")
    CLASSIC_GREY = "classic-grey", _("Azul (grey wall)")
    PAVILION = "pavilion", _("Azul: Summer Pavilion (coloured side)")
    PAVILION_GREY = "pavilion-grey", _("Azul: Summer Pavilion (grey side)")


DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class EndReason(models.TextChoices):
        NONE = "", _("Not over")
        NORMAL = "normal", _("Final scoring")
        RESIGNED = "resigned", _("Resignation")
        TIMEOUT = "timeout", _("Time forfeit")

    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    players = models.PositiveSmallIntegerField(_("players"))
    days_per_move = models.PositiveSmallIntegerField(
        _("days per move"), choices=[(d, str(d)) for d in DAYS_PER_MOVE], default=3
    )
    rated = models.BooleanField(_("rated"), default=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="created_games",
        verbose_name=_("creator"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    first_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    ply = models.PositiveIntegerField(
        default=0, help_text="Number of Move rows (events) so far."
    )
    reminder_sent_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the deadline reminder of the current turn went out.",
    )
    turn_email_sent = models.BooleanField(
        default=False, help_text="The current turn's 'your move' e-mail went out."
    )
    end_reason = models.CharField(
        max_length=10, choices=EndReason.choices, default=EndReason.NONE, blank=True
    )
    state = models.JSONField(
        default=dict,
        blank=True,
        help_text="Cache: {'events': [...]}; rebuildable from the Move rows.",
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=2, players__lte=4), name="game_players_2_4"
            ),
            models.CheckConstraint(
                condition=Q(days_per_move__in=DAYS_PER_MOVE),
                name="game_days_per_move_choice",
            ),
            models.CheckConstraint(
                condition=Q(variant__in=Variant.values), name="game_variant_known"
            ),
        ]
        indexes = [models.Index(fields=["status", "turn_deadline"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_variant_display()}"

    @property
    def is_pavilion(self) -> bool:
        """Summer Pavilion (either side): its own board, forms and move log."""
        return self.variant.startswith("pavilion")

    @property
    def cached_events(self) -> list[dict[str, Any]]:
        events = self.state.get("events", []) if isinstance(self.state, dict) else []
        return list(events)


class Seat(models.Model):
    class Invite(models.TextChoices):
        OPEN = "open", _("Open seat")
        INVITED = "invited", _("Invited")
        JOINED = "joined", _("Joined")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    number = models.PositiveSmallIntegerField(_("seat"))
    invite_status = models.CharField(
        max_length=10, choices=Invite.choices, default=Invite.OPEN
    )
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    resigned = models.BooleanField(default=False)
    forfeited_at = models.DateTimeField(
        _("forfeited on time"),
        null=True,
        blank=True,
        help_text="When the player's deadline passed (lost, or turns played by "
        "the site from then on in a 3-4 player game).",
    )
    forfeited_ply = models.PositiveIntegerField(
        null=True, blank=True, help_text="Game.ply when the forfeit happened."
    )

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_unique"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(user__isnull=False),
                name="seat_one_per_user",
            ),
            models.CheckConstraint(
                condition=Q(invite_status="open", user__isnull=True)
                | Q(~Q(invite_status="open"), user__isnull=False),
                name="seat_open_iff_no_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.number}: {self.user or '-'}"


class Move(models.Model):
    """One record event (``spec/record.md``): a decision, a deal or a wall event."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField(help_text="0-based index of the event.")
    event = models.JSONField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who decided it; empty for chance events (deals).",
    )
    auto = models.BooleanField(
        default=False, help_text="Played by the site for a seat that forfeited."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.ply}"
