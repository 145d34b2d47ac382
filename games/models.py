"""Games, seats and moves. The ``Move`` rows are the record of truth; ``Game.state``
is a cache rebuildable from them (``selectors.game_engine_from_moves``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Replace
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.clock import DEFAULT_CLOCK, TIME_CONTROLS, TimeControl, time_control
from games.engine import variants


def _member(name: str) -> str:
    """A member name for a registry name (``classic-grey``: ``CLASSIC_GREY``)."""
    return name.upper().replace("-", "_")


# The engine's registry (``games.engine.variants``) says which variants and
# families exist; here they become choices, with their titles translated.

Variant = models.TextChoices(  # type: ignore[call-overload]
    "Variant",
    [(_member(v.name), (v.name, _(v.title))) for v in variants.VARIANTS],
)
"""Every variant a game may have; values are the record's ``variant`` names."""

Family = models.TextChoices(  # type: ignore[call-overload]
    "Family",
    [(_member(f.name), (f.name, _(f.title))) for f in variants.FAMILIES],
)
"""A game family: ratings, leaderboards and statistics are kept per family;
each grey variant counts with its game."""

FAMILY_VARIANTS: dict[str, tuple[str, ...]] = {
    family.name: tuple(variant.name for variant in family.variants())
    for family in variants.FAMILIES
}


def variant_family(variant: str) -> str:
    """``classic-grey`` → ``classic``; ``pavilion`` → ``pavilion``."""
    return variants.find_variant(variant).family.name


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
        # An event's game unfinished on its last day (leagues: docs/leagues.md)
        DECIDED = "decided", _("Decided at the season's end")

    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    players = models.PositiveSmallIntegerField(_("players"))
    days_per_move = models.PositiveSmallIntegerField(
        _("days per move"), choices=[(d, str(d)) for d in DAYS_PER_MOVE], default=3
    )
    clock = models.CharField(
        _("clock"),
        max_length=10,
        choices=[(c.name, c.label) for c in TIME_CONTROLS.values()],
        default=DEFAULT_CLOCK.name,
        help_text="The time control (games.clock): a bank preset, or 'days' "
        "(days per move afresh each turn) for games created before the bank.",
    )
    vacation_spends = models.BooleanField(
        _("vacation days when a bank runs out"),
        default=True,
        help_text="When a player's bank runs out, a vacation day of theirs is "
        "spent (24 hours more) instead of the game being lost; off for events.",
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
    turn_started_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the current person's turn began (the deadline less the "
        "allowance the time control gave it, before any vacation moved it).",
    )
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
    computer_turn_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While a computer player is to move: when its turn was last "
        "handed to the task queue (games.tasks); the deadline job hands it again "
        "when that is long ago (a lost task, a worker killed mid-decision).",
    )
    play_stopped_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="An event ended before the game did: no move, resignation or "
        "timeout from then on, while its verdict is made "
        "(services.game_stop_play, then game_decide).",
    )
    end_reason = models.CharField(
        max_length=10, choices=EndReason.choices, default=EndReason.NONE, blank=True
    )
    state = models.JSONField(
        default=dict,
        blank=True,
        help_text="Cache: {'events': [...]}; rebuildable from the Move rows.",
    )
    family = models.GeneratedField(
        expression=Replace("variant", Value(variants.GREY_SUFFIX), Value("")),
        output_field=models.CharField(max_length=20),
        db_persist=True,
        help_text="The variant's game family (classic, pavilion), for the archive.",
    )
    record_digest = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="An imported game's record as its SHA-256 (variant, names and "
        "events): the same record imported again points to this game.",
    )
    rematch_of = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematches",
        verbose_name=_("rematch of"),
        help_text="The finished game whose players play again here "
        "(games.services.rematches).",
    )
    imported = models.BooleanField(
        _("imported"),
        default=False,
        help_text="Uploaded as a record: unrated, seats without users; profiles, "
        "ratings and leaderboards ignore it.",
    )
    opening = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        help_text="The first deal's fingerprint (games.engine.record.opening_key): "
        "an imported record sharing it with a game in progress continues that "
        "game, and is not reviewed until it ends (docs/review.md).",
    )
    invite_token = models.CharField(
        max_length=43,
        unique=True,
        null=True,
        blank=True,
        editable=False,  # secret: in no admin or model form (docs/together.md)
        default=None,
        help_text="The secret of the game's invitation link (/join/<token>/): its "
        "open seats go to whoever has the link; null for a game without one.",
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    players__gte=variants.PLAYERS[0], players__lte=variants.PLAYERS[-1]
                ),
                name="game_players_2_4",
            ),
            models.CheckConstraint(
                condition=Q(days_per_move__in=DAYS_PER_MOVE),
                name="game_days_per_move_choice",
            ),
            models.CheckConstraint(
                condition=Q(clock__in=list(TIME_CONTROLS)),
                name="game_clock_known",
            ),
            models.CheckConstraint(
                condition=Q(variant__in=Variant.values), name="game_variant_known"
            ),
            models.CheckConstraint(
                condition=Q(imported=False) | Q(rated=False),
                name="game_imported_unrated",
            ),
            # one rematch of a game at a time: a new one once it is called off
            models.UniqueConstraint(
                fields=["rematch_of"],
                condition=~Q(status="cancelled"),
                name="game_one_rematch",
            ),
            models.UniqueConstraint(
                fields=["record_digest"],
                condition=~Q(record_digest=""),
                name="game_record_imported_once",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "turn_deadline"]),
            models.Index(
                fields=["computer_turn_since"],
                condition=Q(computer_turn_since__isnull=False),
                name="game_computer_turn",
            ),
            # The archive: newest finished first, optionally by game, variant or
            # size; status in each so SQLite walks the index instead of sorting
            # (not ``imported``: Django writes ``NOT imported``, which no index
            # prefix matches; the few imported games have their own index).
            models.Index(
                fields=["-finished_at"],
                condition=Q(imported=True),
                name="game_imported",
            ),
            # The games in progress by their first deal (selectors.game_continued).
            models.Index(
                fields=["opening"],
                condition=Q(status="active", imported=False),
                name="game_live_opening",
            ),
            models.Index(
                fields=["status", "-finished_at", "-id"],
                name="game_archive",
            ),
            models.Index(
                fields=["status", "family", "-finished_at", "-id"],
                name="game_archive_family",
            ),
            models.Index(
                fields=["status", "variant", "-finished_at", "-id"],
                name="game_archive_variant",
            ),
            models.Index(
                fields=["status", "players", "-finished_at", "-id"],
                name="game_archive_players",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_variant_display()}"

    @property
    def time_control(self) -> TimeControl:
        """The game's time control (``games.clock``)."""
        return time_control(self.clock)

    @property
    def time_control_text(self) -> str:
        """The game's time control in words, in the active language: "3 days,
        +1 day a turn, at most 7 days", or "3 days per move"."""
        return self.time_control.describe(days_per_move=self.days_per_move)

    # The status as the templates ask it, never by its stored string.
    @property
    def waiting(self) -> bool:
        """Open: waiting for its players, not started yet."""
        return self.status == Game.Status.OPEN

    @property
    def active(self) -> bool:
        return self.status == Game.Status.ACTIVE

    @property
    def over(self) -> bool:
        """Finished (a resigned or timed-out game is finished too)."""
        return self.status == Game.Status.FINISHED

    @property
    def cancelled(self) -> bool:
        return self.status == Game.Status.CANCELLED

    @property
    def decided(self) -> bool:
        """Ended by a verdict, not by its play: an event's last day came first
        (``EndReason.DECIDED``; docs/leagues.md, "The last day")."""
        return self.end_reason == Game.EndReason.DECIDED

    @property
    def cached_events(self) -> list[dict[str, Any]]:
        events = self.state.get("events", []) if isinstance(self.state, dict) else []
        return list(events)

    @property
    def forced_plies(self) -> list[int]:
        """The plies of the cached events the site played as forced decisions."""
        plies = self.state.get("forced", []) if isinstance(self.state, dict) else []
        return [int(ply) for ply in plies]


class Seat(models.Model):
    class Invite(models.TextChoices):
        OPEN = "open", _("Open seat")
        INVITED = "invited", _("Invited")
        JOINED = "joined", _("Joined")
        IMPORTED = "imported", _("Imported player")
        # a player asked to play a game again who said no (the rematch is off)
        DECLINED = "declined", _("Declined")

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
    display_name = models.CharField(
        _("name"),
        max_length=60,
        blank=True,
        help_text="The record's name of an imported seat (which has no user).",
    )
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    resigned = models.BooleanField(default=False)
    score_table = models.CharField(
        max_length=20,
        blank=True,
        default="",
        help_text="High-score table of a finished site game's seat: family and "
        "player count (``classic-4``); empty while playing and for imports. "
        "Denormalised so the table is one index walk.",
    )
    bank_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="A bank clock's time left to this seat between its turns "
        "(during its turn: the game's turn_deadline less now); empty before its "
        "first turn, for a computer and under days per move.",
    )
    vacation_left_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="How much longer its player's vacations may still stop this "
        "seat's clock (an event's cap: a league gives 3 days a season); empty: "
        "no cap (docs/clock.md, 'A vacation's cap').",
    )
    vacation_unapplied_seconds = models.PositiveIntegerField(
        default=0,
        help_text="The part of the current vacation this seat's clock was not "
        "stopped for (its cap ran out): an early return takes back only what "
        "was given.",
    )
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
    left_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player left the game (resigned or forfeited on time): "
        "of two who left at the same ply, the later one ranks higher.",
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
                | Q(invite_status="imported", user__isnull=True) & ~Q(display_name="")
                | Q(
                    ~Q(invite_status__in=["open", "imported"]),
                    user__isnull=False,
                ),
                name="seat_user_matches_status",
            ),
        ]
        indexes = [
            # High-score tables: best scores first, per family and player count.
            models.Index(
                fields=["score_table", "-score", "game"], name="seat_score_table"
            ),
            # A player's games, newest first (a game's id grows with its
            # creation): the profile reads twenty of ten thousand in order.
            models.Index(fields=["user", "game"], name="seat_user_games"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.number}: {self.name or '-'}"

    @staticmethod
    def score_table_of(game: Game) -> str:
        """``Seat.score_table`` for the seats of ``game`` once it finished."""
        return "" if game.imported else f"{variant_family(game.variant)}-{game.players}"

    @property
    def invited(self) -> bool:
        """Invited and not answered yet."""
        return self.invite_status == Seat.Invite.INVITED

    @property
    def declined(self) -> bool:
        return self.invite_status == Seat.Invite.DECLINED

    @property
    def record_name(self) -> str:
        """The name the game record keeps (``docs/record.md``): the account's
        username, or an imported record's name; never translated."""
        return self.user.username if self.user is not None else self.display_name

    @property
    def name(self) -> str:
        """The name shown at the table: the user's as people read it
        (``User.shown_name``: a computer's in the reader's language), or an
        imported record's."""
        return self.user.shown_name if self.user is not None else self.display_name

    @property
    def shown_name(self) -> str:
        """The name for text around it (the log, headings): an imported record's
        name is wrapped in Unicode isolates (FIRST STRONG ISOLATE … POP
        DIRECTIONAL ISOLATE), so right-to-left or override marks in it cannot
        reorder the words around it. Site players' names are checked at sign-up."""
        if self.user is not None:
            return self.user.shown_name
        return f"\u2068{self.display_name}\u2069"


class Move(models.Model):
    """One record event (``docs/record.md``): a decision, a deal or a wall event."""

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
    forced = models.BooleanField(
        default=False,
        help_text="Played by the site as the only legal decision, for a player "
        "who lets it (User.play_forced).",
    )
    created_at = models.DateTimeField(
        default=timezone.now,
        help_text="When it was stored: the site's clock (games.clock.now), set by "
        "the turn loop; the record's times and the replay's move times.",
    )

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.ply}"


PROVISIONAL_GAMES = 10
"""Rated games before a rating stops being provisional (and may enter leaderboards)."""


def rating_provisional(rated_games: int) -> bool:
    """Whether a rating on ``rated_games`` games is provisional.

    Counted in games, not in σ: openskill's σ shrinks slowly in a game of luck
    with up to four players (6.2 to 7 of the starting 8.3 after ten games), so a
    lichess-like deviation limit (± 110) would keep players provisional for over
    a hundred games. ``selectors.leaderboard`` lists only settled ratings (lichess hides
    provisional players from its leaderboards too): a lucky newcomer cannot top
    the table after two wins.
    """
    return rated_games < PROVISIONAL_GAMES


class PlayerStats(models.Model):
    """One player's rating and totals in one game family, kept up to date by
    ``games.ratings.ratings.ratings_update_for_game`` when a game finishes.

    ``mu``/``sigma`` are the OpenSkill Plackett–Luce rating (rated games only):
    the site shows μ on a 1500-centred scale and sorts by it
    (``games.ratings.ratings.rating_points``); ``ordinal`` is the conservative μ − 3σ,
    kept for the record.
    ``games``/``wins``/``score_sum``/``best_score`` count every finished game of
    the family played on the site (rated or not); the ``rated_*`` fields only the
    rated ones. Imported games never count.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stats"
    )
    family = models.CharField(_("game"), max_length=10, choices=Family.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(_("rating"))
    rated_games = models.PositiveIntegerField(default=0)
    rated_wins = models.PositiveIntegerField(default=0)
    rated_best_score = models.IntegerField(null=True, blank=True)
    last_rated_at = models.DateTimeField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    score_sum = models.IntegerField(default=0)
    best_score = models.IntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "family"], name="playerstats_one_per_family"
            )
        ]
        indexes = [
            models.Index(fields=["family", "-mu", "id"], name="playerstats_leaderboard")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}/{self.family}: μ {self.mu:.1f}"

    @property
    def provisional(self) -> bool:
        return rating_provisional(self.rated_games)

    @property
    def average_score(self) -> float | None:
        return self.score_sum / self.games if self.games else None


class RatingChange(models.Model):
    """A player's rating after one rated game: the rating history (profile chart)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rating_changes"
    )
    family = models.CharField(max_length=10, choices=Family.choices)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"], name="ratingchange_once_per_game"
            )
        ]
        indexes = [
            models.Index(
                fields=["user", "family", "created_at"], name="ratingchange_history"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}/{self.game_id}: {self.ordinal:.1f}"


class GameReview(models.Model):
    """The review of a finished game (issue #27, docs/review.md): made once by
    the review queue's worker when the game ends (``tasks.review_game``),
    kept whole as the engine gives it (``games.engine.review.Review.to_json``
    with the evaluation's line): it is read as a whole, never queried by
    decision. Only a finished game has one (a check constraint cannot see
    the game's status; ``tasks.review_game`` refuses any other)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for its turn")
        RUNNING = "running", _("Being analysed")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Could not be made")

    class Kind(models.IntegerChoices):
        """The queue serves every review of a game played here before any of
        an imported record (``games.history.review_queue``): the lower, the sooner."""

        PLAYED = 0
        IMPORTED = 1

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="review"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    done = models.PositiveIntegerField(default=0, help_text="Events weighed so far.")
    total = models.PositiveIntegerField(default=0, help_text="Events to weigh.")
    seconds = models.FloatField(help_text="The budget of each decision.")
    data = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField()
    queued_at = models.DateTimeField(
        help_text="When it was last queued, or claimed by a worker: the deadline "
        "job queues a review still waiting again when that was long ago "
        "(tasks.process_reviews)."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    kind = models.PositiveSmallIntegerField(
        choices=Kind.choices,
        default=Kind.PLAYED,
        help_text="A game played here (served first) or an imported record.",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The account the review is for, whose queued reviews are served "
        "in turn with everyone else's: an import's uploader, a played game's "
        "creator (issue #33, games.history.review_queue).",
    )
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While it is being made: the worker's last sign of life (at "
        "least every REVIEW_HEARTBEAT_SECONDS); the deadline job queues a review "
        "whose worker fell silent again (REVIEW_STALE_SECONDS).",
    )

    class Meta:
        indexes = [
            models.Index(fields=["status", "queued_at"], name="review_due"),
            # The fair queue: the waiting reviews in the order they are served.
            models.Index(
                fields=["status", "kind", "requested_by", "created_at"],
                name="review_queue",
            ),
            # The imports' quota: one account's asks of the last day.
            models.Index(
                fields=["requested_by", "kind", "created_at"], name="review_asks"
            ),
        ]

    def __str__(self) -> str:
        return f"review of game {self.game_id}: {self.status}"


class Invitation(models.Model):
    """An invitation its invitee was told of (``services.lobby``, in the
    creating transaction): the hourly limit on a creator's invitations
    (``INVITATIONS_PER_HOUR``) counts these with the seats still invited, so an
    invitation answered since still counts (issue #36 item 1: the game side's
    own record, not notify's notices)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="invitation_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} invited to game {self.game_id}"
