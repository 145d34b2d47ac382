"""The site's user: Django's user, ours from the first migration so it can grow."""

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy, gettext_noop
from django.utils.translation import gettext_lazy as _

from . import timezones
from .usernames import username_key

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as StrPromise

VACATION_DAYS_PER_YEAR = 14
"""Vacation days each player may take per calendar year (UTC)."""


def language_choices() -> list[tuple[str, str]]:
    """The site's languages (``settings.LANGUAGES``), for the saved preference."""
    return [(code, str(name)) for code, name in settings.LANGUAGES]


def time_zone_choices() -> list[tuple[Any, Any]]:
    """Every IANA time zone the system knows, grouped by region
    (``accounts.timezones.time_zone_choices``)."""
    return timezones.time_zone_choices()


class Channel(models.TextChoices):
    """How one kind of notification reaches the player (issue #18)."""

    BOTH = "both", _("Push and e-mail")
    PUSH = "push", _("Push only")
    EMAIL = "email", _("E-mail only")
    NONE = "none", _("Neither")


REMINDER_HOURS = (24, 2, 1)
"""The reminders a player may choose, in hours before a deadline."""


class User(AbstractUser):
    """A registered player; ``username`` is the name shown at the table."""

    class EmailNotifications(models.TextChoices):
        EACH_MOVE = "each", _("On each move")
        DAILY_DIGEST = "digest", _("A daily digest")
        NEVER = "never", _("Never")

    email_notifications = models.CharField(
        _("e-mail me when it is my move"),
        max_length=10,
        choices=EmailNotifications.choices,
        default=EmailNotifications.EACH_MOVE,
    )
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        choices=language_choices,
        help_text=_(
            "The site and its e-mails use this language; empty: the browser's."
        ),
    )
    play_forced = models.BooleanField(
        _("play my forced decisions"),
        default=True,
        help_text=_(
            "In games with days per move: when the rules leave you exactly one "
            "legal decision, the site plays it for you at once (the move log says "
            "so). Under a bank clock the site always plays it, and it costs no time."
        ),
    )
    confirm_moves = models.BooleanField(
        _("confirm each move"),
        default=True,
        help_text=_(
            "After you choose a move, the board shows where the tiles go, and the "
            "move is sent only when you confirm it (or undo it)."
        ),
    )
    # Notifications (issue #18): per kind, by push (each browser the player
    # turned it on in, notify.PushSubscription), by e-mail, both or neither.
    # E-mail also follows email_notifications: "never" sends none at all, and
    # with the daily digest there is no e-mail on each move.
    notify_turn = models.CharField(
        _("your move"), max_length=5, choices=Channel.choices, default=Channel.BOTH
    )
    notify_game = models.CharField(
        _("a game starts or you are invited"),
        max_length=5,
        choices=Channel.choices,
        default=Channel.BOTH,
    )
    notify_reminder = models.CharField(
        _("a reminder before a deadline"),
        max_length=5,
        choices=Channel.choices,
        default=Channel.BOTH,
    )
    notify_finished = models.CharField(
        _("a game finished"),
        max_length=5,
        choices=Channel.choices,
        default=Channel.BOTH,
    )
    # Issue #23: a computer answers within seconds, so a "your move" e-mail on
    # each of its replies is a flood; it comes only to players who ask for it.
    email_computer_turns = models.BooleanField(
        _("e-mail my move in games against the computer too"),
        default=False,
        help_text=_(
            "Off: no “your move” e-mail in a game whose other players are all "
            "computers (push still comes, as chosen under Notifications)."
        ),
    )

    # Issue #26: talk in a game (chat); each game's own choice (chat.GameChat)
    # comes before this one. Issue #35: on with everyone by default (it was
    # with friends only, and between strangers nobody ever opened it).
    class Chat(models.TextChoices):
        FRIENDS = "friends", _("With friends")
        EVERYONE = "everyone", _("With everyone")
        NOBODY = "nobody", _("Off")

    chat = models.CharField(
        _("chat in games"),
        max_length=10,
        choices=Chat.choices,
        default=Chat.EVERYONE,
        help_text=_(
            "Whether a game's chat starts on for you. You can still turn it on "
            "or off in each game."
        ),
    )
    notify_chat = models.CharField(
        _("a message in a game"),
        max_length=5,
        choices=Channel.choices,
        default=Channel.BOTH,
    )
    # Issue #27: the review of a finished game waits until the player asks.
    review_hidden = models.BooleanField(
        _("don't show me the review until I ask"),
        default=False,
        help_text=_(
            "A finished game's replay then offers its review behind a button, "
            "so you can look back at the game on your own first."
        ),
    )
    remind_24h = models.BooleanField(_("24 hours before"), default=True)
    remind_2h = models.BooleanField(_("2 hours before"), default=True)
    remind_1h = models.BooleanField(_("1 hour before"), default=False)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="UTC",
        choices=time_zone_choices,
        help_text=_("Dates and times on the site and in messages are shown in it."),
    )
    quiet_start = models.TimeField(
        _("quiet hours from"),
        null=True,
        blank=True,
        help_text=_("No reminder comes between these times (in your time zone)."),
    )
    quiet_end = models.TimeField(_("quiet hours until"), null=True, blank=True)
    digest_sent_at = models.DateTimeField(
        null=True, blank=True, help_text="When the last daily digest went out."
    )
    # NULL, not "": unique, yet legacy accounts that already shared a reading
    # stay unkeyed (migration 0004).
    username_key = models.CharField(  # noqa: DJ001
        max_length=150,
        unique=True,
        null=True,
        editable=False,
        help_text="The username as players read it (case and Unicode form "
        "folded): two accounts cannot share it (accounts.usernames).",
    )

    # The engine's levels (games.engine.bots.LEVELS, their home), spelled here
    # because accounts imports no other app; tests/games/test_computers.py holds
    # them equal.
    class ComputerLevel(models.TextChoices):
        EASY = "easy", _("easy")
        MEDIUM = "medium", _("medium")
        STRONG = "strong", _("strong")

    computer_level = models.CharField(
        _("computer level"),
        max_length=10,
        blank=True,
        default="",
        choices=ComputerLevel.choices,
        help_text="Empty for people; the level of a computer player's account "
        "(games.engine.bots), whose moves a background task plays (games.tasks).",
    )
    bot_owner = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="bots",
        verbose_name=_("run by"),
        help_text="A bot account's owner, the person who runs it (issue #39, "
        "docs/api.md): it plays through the API with its owner's tokens, has no "
        "password, and the mark cannot be removed.",
    )
    # Who is around (issue #26, docs/together.md): the last request or closed
    # socket, written at most once a minute (accounts.presence); others see it
    # only while show_presence is on (accounts.selectors.presence).
    last_seen_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the player last loaded a page or closed one (at most a "
        "minute late: accounts.presence).",
    )
    show_presence = models.BooleanField(
        _("show others when I am online"),
        default=True,
        help_text=_(
            "Off: nobody else sees whether you are online or when you were last seen."
        ),
    )

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]
        swappable = "AUTH_USER_MODEL"

    @property
    def is_computer(self) -> bool:
        """A computer player: no log-in, no clock, no e-mail (issue #16)."""
        return bool(self.computer_level)

    @property
    def is_bot(self) -> bool:
        """A program's account, run by a person (``bot_owner``): marked BOT,
        rated only on the bot ladder, in no league."""
        return self.bot_owner_id is not None

    @property
    def shown_name(self) -> str:
        """The name people read: the username, or a computer's account name
        translated into the active language ("컴퓨터 (보통)"), read each time it is
        shown, so every page, e-mail and push says it in its reader's language.
        The one place a player's shown name comes from (``Seat.name`` asks it)."""
        if self.computer_level in COMPUTER_USERNAMES:
            return str(computer_name(self.computer_level))
        return self.username

    @property
    def reminder_hours(self) -> list[int]:
        """The reminders the player chose, in hours before a deadline, earliest
        first."""
        chosen = {24: self.remind_24h, 2: self.remind_2h, 1: self.remind_1h}
        return [hours for hours in REMINDER_HOURS if chosen[hours]]

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_key = username_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)


COMPUTER_USERNAMES = {
    # Translators: a computer player's name at the table, its level in brackets.
    User.ComputerLevel.EASY: gettext_noop("Computer (easy)"),
    # Translators: a computer player's name at the table, its level in brackets.
    User.ComputerLevel.MEDIUM: gettext_noop("Computer (medium)"),
    # Translators: a computer player's name at the table, its level in brackets.
    User.ComputerLevel.STRONG: gettext_noop("Computer (strong)"),
}
"""The computer players' account names. A space and parentheses are outside the
sign-up rules (Django's username validator), so no person can take or imitate
one, and the name says the level wherever the site prints it (the move log).
The account keeps the English name (game records carry it, ``docs/record.md``);
people read it translated, ``computer_name``."""


def computer_name(level: str) -> "StrPromise":
    """The shown name of the computer player of ``level``, a lazy translation of
    its account name: the one place a computer's name is translated (its seat's
    name, ``User.shown_name``, and the levels offered, ``games.forms``)."""
    return gettext_lazy(COMPUTER_USERNAMES[User.ComputerLevel(level)])


class Vacation(models.Model):
    """A stretch of time in which the player's clocks do not run.

    ``ends_at`` is the planned end, moved earlier when the player comes back early.
    The days it costs are whole days, rounded up (``accounts.services``).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"))

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gte=F("starts_at")), name="vacation_ends_after"
            )
        ]
        indexes = [models.Index(fields=["user", "ends_at"])]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.starts_at:%Y-%m-%d} – {self.ends_at:%Y-%m-%d}"


class Block(models.Model):
    """``blocker`` wants nothing from ``blocked`` (issue #23): no invitations
    from them. Issue #26 adds chat and joining each other's open games, either
    way; ``accounts.selectors.blocked_ids`` is the one place that reads blocks.
    Blocking and unblocking are ``accounts.services.block_create`` /
    ``block_delete``."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(_("blocked since"), auto_now_add=True)

    class Meta:
        ordering = ["blocker", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~Q(blocker=F("blocked")), name="block_not_self"
            ),
        ]
        # "Who blocks this player?" (the unique constraint serves the other way).
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Follow(models.Model):
    """``follower`` follows ``followed`` (issue #26): their games show on the
    follower's home page ("Friends' games"). Two players who follow each other
    are friends (``accounts.selectors.friend_ids``). Following and unfollowing
    are ``accounts.services.follow_create`` / ``follow_delete``; a block removes
    follows both ways."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(_("following since"), auto_now_add=True)

    class Meta:
        ordering = ["follower", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["follower", "followed"], name="follow_once"
            ),
            models.CheckConstraint(
                condition=~Q(follower=F("followed")), name="follow_not_self"
            ),
        ]
        # "Who follows this player?" (the unique constraint serves the other way).
        indexes = [
            models.Index(fields=["followed", "follower"], name="follow_followed")
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class GamePage(models.Model):
    """A game page a signed-in player has open: its socket (``/ws/games/<id>/``,
    ``games.consumers.GameConsumer``) adds the row on connect, refreshes
    ``seen_at`` every few minutes and deletes it on disconnect
    (``games.people.presence``, through ``services.game_page_open`` and its kin). A
    row younger than ``PAGE_STALE`` is an open page: its player is online
    (``selectors.presence``), watches the game when they have no seat in it
    (``games.people.watch``), and is told nothing by push about the game on their
    screen (``games.people.presence.watching``). Here, the bottom of the apps'
    one-way order, so that each of them reads it without asking another;
    ``game_id`` is a number, as accounts knows no games."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game_id = models.BigIntegerField()
    channel_name = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["user", "game_id", "seen_at"], name="game_page_seen")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on game {self.game_id}"
