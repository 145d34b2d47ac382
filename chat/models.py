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
