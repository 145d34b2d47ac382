"""Talk in a game (issue #26, docs/together.md "Talk in a game").

A :class:`Message` belongs to its game and is shown only to its players (on the
game page and in the replay), as :mod:`chat.selectors` decides; every write is
in :mod:`chat.services`. A message is either text a player typed or a quick
phrase (:mod:`chat.phrases`), kept as its code and shown in the reader's
language.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from . import phrases

MAX_LENGTH = 300
"""The longest message, in characters: a word across the table, not a letter."""


class Message(models.Model):
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="messages"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    text = models.CharField(_("message"), max_length=MAX_LENGTH, blank=True)
    phrase = models.CharField(
        _("quick phrase"), max_length=20, blank=True, choices=phrases.CHOICES
    )
    ply = models.PositiveIntegerField(
        help_text="The game's ply when it was written (where the replay shows it)."
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["game", "created_at"])]
        constraints = [
            # Text or a quick phrase, never both nor neither.
            models.CheckConstraint(
                condition=(Q(text="") & ~Q(phrase="")) | (~Q(text="") & Q(phrase="")),
                name="message_text_or_phrase",
            )
        ]

    def __str__(self) -> str:
        return f"{self.author_id} in game {self.game_id}: {self.shown}"

    @property
    def shown(self) -> str:
        """What the reader reads: the text, or the phrase in the active language."""
        if self.phrase:
            return str(phrases.PHRASES.get(self.phrase, self.phrase))
        return self.text


class Mute(models.Model):
    """``muter`` reads nothing ``muted`` writes, in any game; ``muted`` is not told."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="mute_once"),
            models.CheckConstraint(
                condition=~Q(muter=F("muted")), name="mute_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class GameChat(models.Model):
    """A player's own choice for one game: chat on or off there, whatever their
    setting for all games (``User.chat``) would give."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    on = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="game_chat_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}: {'on' if self.on else 'off'}"


class Report(models.Model):
    """A player reported a message to the admins (the admin's list of reports)."""

    message = models.ForeignKey(
        Message, on_delete=models.CASCADE, related_name="reports"
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(default=False, help_text="An admin has looked at it.")

    class Meta:
        ordering = ["handled", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="report_once")
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter_id}"


MAX_DETAILS = 1000
"""The longest account of a player report, in characters."""

PLAYER_REPORTS_PER_DAY = 10
"""The most player reports one account makes in 24 hours (a flood limit)."""


class PlayerReport(models.Model):
    """A player reported another player to the moderators (issue #33): for engine
    help in a game the two played together, abuse, or something else. The
    reported player is never told (``chat.services.player_report_create``)."""

    class Reason(models.TextChoices):
        ENGINE_HELP = "engine", _("Engine help in a game")
        ABUSE = "abuse", _("Abuse or harassment")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("reported by"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("reported player"),
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game"),
        help_text="A game the two played together, not imported; required for "
        "engine help.",
    )
    details = models.CharField(
        _("details"),
        max_length=MAX_DETAILS,
        blank=True,
        help_text="Required for other.",
    )
    created_at = models.DateTimeField(_("reported on"))
    handled = models.BooleanField(
        _("handled"), default=False, help_text="A moderator has looked at it."
    )

    class Meta:
        verbose_name = _("player report")
        verbose_name_plural = _("player reports")
        ordering = ["handled", "-created_at", "-pk"]
        indexes = [
            # The flood limit: one account's reports of the last day.
            models.Index(fields=["reporter", "created_at"], name="player_report_by"),
        ]
        constraints = [
            # Once for each reason and game (a null game is a value of its own).
            models.UniqueConstraint(
                fields=["reporter", "reported", "reason", "game"],
                condition=Q(game__isnull=False),
                name="player_report_once_in_game",
            ),
            models.UniqueConstraint(
                fields=["reporter", "reported", "reason"],
                condition=Q(game__isnull=True),
                name="player_report_once",
            ),
            models.CheckConstraint(
                condition=~Q(reporter=F("reported")), name="player_report_not_self"
            ),
            models.CheckConstraint(
                condition=~Q(reason="engine") | Q(game__isnull=False),
                name="player_report_engine_names_game",
            ),
            models.CheckConstraint(
                condition=~Q(reason="other") | ~Q(details=""),
                name="player_report_other_says_why",
            ),
        ]

    def __str__(self) -> str:
        return f"report of player {self.reported_id} by {self.reporter_id}"
