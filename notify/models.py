"""Push subscriptions and sent notices (issue #18); the open game pages are
``accounts.GamePage``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class PushSubscription(models.Model):
    """One browser's Web Push subscription (``PushManager.subscribe``): where to
    post (``endpoint``, the browser vendor's push service) and the keys the
    message is encrypted with (RFC 8291). A player has one per device they
    turned push on in, ``PUSH_MAX_SUBSCRIPTIONS`` at most (the oldest by
    ``created_at``, when it became this account's, go:
    ``services.push_subscription_save``); one the push service reports gone
    (404/410) is deleted. Its endpoint is a browser's push service
    (``notify.endpoints``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    endpoint = models.URLField(max_length=2000, unique=True)
    p256dh = models.CharField(
        max_length=200, help_text="The browser's P-256 public key, base64url."
    )
    auth = models.CharField(
        max_length=100, help_text="The browser's authentication secret, base64url."
    )
    user_agent = models.CharField(
        max_length=200, blank=True, help_text="Which browser, as its player sees it."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.user_agent or self.endpoint[:40]}"

    def subscription_info(self) -> dict[str, object]:
        """The subscription as pywebpush (and the browser's ``toJSON()``) spell it."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": self.p256dh, "auth": self.auth},
        }


class Notice(models.Model):
    """A notification that went out and must not go again: the claim each sender
    makes first (an INSERT on a unique key, like the deadline job's guarded
    UPDATEs), so a second run or a second process sends nothing.

    ``key`` tells the occasions of one kind apart: for a reminder the turn (ply),
    its deadline and the hours before it (``"12@1764950400/4h"``). A league
    season's start and end are told with no game, the season in the key
    (``"season:7"``); the second constraint keeps those once (a NULL ``game``
    is never equal to another in the first)."""

    class Kind(models.TextChoices):
        REMINDER = "reminder"
        INVITED = "invited"
        STARTED = "started"
        FINISHED = "finished"
        CHAT = "chat"
        VACATION = "vacation"
        SEASON_STARTED = "season_started"
        SEASON_ENDED = "season_ended"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notices",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=60, blank=True, default="")
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "kind", "key"], name="notice_once"
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "key"],
                condition=Q(game__isnull=True),
                name="notice_once_without_game",
            ),
        ]
        indexes = [models.Index(fields=["kind", "sent_at"])]

    def __str__(self) -> str:
        where = f" in game {self.game_id}" if self.game_id is not None else ""
        return f"{self.kind} {self.key} to {self.user_id}{where}"
