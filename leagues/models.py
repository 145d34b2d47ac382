"""Leagues, their seasons, the entries, groups and games (issue #38,
docs/leagues.md). A league is a game and a player count with a clock and a
season length; a season registers players, places them in divisions and
groups on its first day, creates every game at once, and ends on its date.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.clock import FAST, PRESETS
from games.engine import variants
from games.models import Game, Variant


class League(models.Model):
    slug = models.SlugField(_("address"), max_length=40, unique=True)
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    players = models.PositiveSmallIntegerField(_("players"))
    clock = models.CharField(
        _("clock"),
        max_length=10,
        choices=[(c.name, c.label) for c in PRESETS],
        default=FAST.name,
    )
    season_weeks = models.PositiveSmallIntegerField(_("season length in weeks"))
    registration_days = models.PositiveSmallIntegerField(
        _("registration days"),
        default=14,
        help_text="Registration opens this many days before a season's first day.",
    )
    active = models.BooleanField(
        _("active"),
        default=True,
        help_text="New seasons follow each other; off, the league ends with its "
        "current season.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["variant", "players", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    players__gte=variants.PLAYERS[0], players__lte=variants.PLAYERS[-1]
                ),
                name="league_players_2_4",
            ),
            models.CheckConstraint(
                condition=Q(season_weeks__gte=1), name="league_season_weeks"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        """ "Azul, 2 players", in the active language."""
        return ngettext(
            "%(game)s, %(count)s player", "%(game)s, %(count)s players", self.players
        ) % {"game": Variant(self.variant).label, "count": self.players}


class Season(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Being played")
        DECIDING = "deciding", _("Last day: unfinished games being decided")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Not played (too few players)")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField(_("season"))
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    opens_at = models.DateTimeField(_("registration opens"))
    starts_at = models.DateTimeField(_("first day"))
    ends_at = models.DateTimeField(_("last day"))
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    deciding_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the verdicts of its unfinished games were last asked of "
        "the review queue's workers (the job asks again after an hour).",
    )

    class Meta:
        ordering = ["league", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "number"], name="season_number_once"
            ),
            models.CheckConstraint(
                condition=Q(opens_at__lte=models.F("starts_at"))
                & Q(starts_at__lt=models.F("ends_at")),
                name="season_dates_in_order",
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"], name="season_due")]

    def __str__(self) -> str:
        return f"{self.league} {self.number}"

    @property
    def registering(self) -> bool:
        return self.status == Season.Status.REGISTRATION

    @property
    def running(self) -> bool:
        return self.status == Season.Status.RUNNING

    @property
    def in_play(self) -> bool:
        """Started and not finished: being played, or its last day's verdicts
        being made."""
        return self.status in (Season.Status.RUNNING, Season.Status.DECIDING)

    @property
    def finished(self) -> bool:
        return self.status == Season.Status.FINISHED


class Group(models.Model):
    """Players of one division of a season who play each other."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="groups")
    division = models.PositiveSmallIntegerField(_("division"))
    number = models.PositiveSmallIntegerField(_("group"))

    class Meta:
        ordering = ["season", "division", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "division", "number"], name="group_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.division}.{self.number}"


class Entry(models.Model):
    """A player's entry to a season: registered (or carried over from the last
    season, to confirm), placed in a group on the first day, and their final
    place once the season ends (kept for good)."""

    class Left(models.TextChoices):
        NO = "", _("Still in")
        TIMEOUT = "timeout", _("Ran out of time")
        WITHDREW = "withdrew", _("Withdrew")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries"
    )
    confirmed = models.BooleanField(
        default=True,
        help_text="Carried over from the last season, an entry waits for its "
        "player's click; only confirmed entries are placed on the first day.",
    )
    created_at = models.DateTimeField()
    target_division = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The division the last season's result gives (up, down or "
        "the same); empty for a newcomer.",
    )
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="entries"
    )
    rating = models.FloatField(
        null=True, blank=True, help_text="The player's rating on the first day."
    )
    left = models.CharField(max_length=10, choices=Left.choices, default="", blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    points = models.FloatField(null=True, blank=True, help_text="Final points.")
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Final place in the group."
    )
    movement = models.SmallIntegerField(
        default=0, help_text="-1 up a division, +1 down, once the season ended."
    )

    class Meta:
        ordering = ["season", "group", "place", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="entry_once"),
        ]
        indexes = [models.Index(fields=["user", "left_at"], name="entry_left")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.season_id}"


class LeagueGame(models.Model):
    """A game of a group; its points by player once it is over (finished, or
    decided on the last day)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(
        Game, on_delete=models.PROTECT, related_name="league_game"
    )
    number = models.PositiveSmallIntegerField()
    first = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who played first.",
    )
    decided = models.BooleanField(
        default=False, help_text="Decided at the season's end (not played out)."
    )
    points = models.JSONField(
        null=True,
        blank=True,
        help_text="Once over: {user id: points} (docs/leagues.md, 'Points').",
    )

    class Meta:
        ordering = ["group", "number"]
        constraints = [
            models.UniqueConstraint(fields=["group", "number"], name="leaguegame_once")
        ]

    def __str__(self) -> str:
        return f"{self.group}: game {self.game_id}"


class Waiver(models.Model):
    """Staff let a player enter seasons without the entry requirement (five
    finished games, at most one in ten lost on time)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"waiver for {self.user_id}"
