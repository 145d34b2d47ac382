"""Personal API tokens, the answers kept for an ``Idempotency-Key``, and each
account's event log (issue #39, docs/api.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

SCOPES = ("game:read", "game:play", "challenge:write", "bot:play")
"""What a token may do: read games, play them, send and answer challenges,
play as a bot on the ladder."""


class ApiToken(models.Model):
    """A personal token: shown once, kept as its SHA-256 (``digest``) with a
    visible ``prefix`` (``azul_…``) to tell tokens apart."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(max_length=16, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    busy_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While a request of this token is being answered (one at a "
        "time): until when, in case its process died.",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"token {self.pk} {self.prefix}"


class IdempotentAnswer(models.Model):
    """The first answer to a request with an ``Idempotency-Key``: the same key
    from the same token gets it again, and the action is not repeated."""

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    status = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["token", "key"], name="idempotency_once")
        ]

    def __str__(self) -> str:
        return f"{self.token_id}/{self.key}: {self.status}"


class ApiEvent(models.Model):
    """What happened for one account, as programs read it (``GET /api/events``
    and the stream): ``gameStart``, ``yourTurn``, ``gameFinish``,
    ``challenge``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=20)
    data = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "id"], name="apievent_cursor")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.kind} {self.data}"


class LadderRating(models.Model):
    """A bot's (or a house computer's) rating on the bot ladder, per game
    family (OpenSkill, as the site's: ``games.ratings.ratings.rate``), apart
    from the people's ratings (docs/api.md, "The bot ladder")."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    family = models.CharField(max_length=10)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "family"], name="ladder_once")
        ]
        indexes = [models.Index(fields=["family", "-mu"], name="ladder_table")]

    def __str__(self) -> str:
        return f"{self.user_id}/{self.family}: {self.mu:.1f}"


class LadderGame(models.Model):
    """A game the ladder paired (``api.ladder``), rated on the ladder once it
    ends (``counted``)."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="ladder_game"
    )
    created_at = models.DateTimeField()
    counted = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"ladder game {self.game_id}"
