"""Reads: game lists for the lobby and profiles, and the engine state of a game."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, TypedDict

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import Follow, User, Vacation
from accounts.selectors import (
    block_list,
    blocked_ids,
    following,
    friend_ids,
    user_blocks,
)
from games.engine import record
from games.engine.common import Game as EngineGame

from . import clock, review_queue
from .models import (
    Game,
    GameReview,
    Move,
    PlayerStats,
    RatingChange,
    Seat,
)
from .ratings import PROVISIONAL_GAMES


def seats_with_users(*, vacations: bool = False) -> Prefetch:
    """Prefetch a game's seats in order, with their users (one query).

    With ``vacations``, each seat also carries ``vacation_until``: the end of its
    player's current vacation, or None (read by ``seat_vacations`` without a
    query of its own).
    """
    seats = Seat.objects.select_related("user").order_by("number")
    if vacations:
        now = clock.now()
        seats = seats.annotate(
            vacation_until=Subquery(
                Vacation.objects.filter(
                    user_id=OuterRef("user_id"), starts_at__lte=now, ends_at__gt=now
                )
                .order_by("-ends_at")
                .values("ends_at")[:1]
            )
        )
    return Prefetch("seats", queryset=seats)


def _with_seats(queryset: QuerySet[Game]) -> QuerySet[Game]:
    """A list of games as the lists draw them: seats, players and their
    vacations (each seat's time left, ``games.banks``), not the event cache
    (``Game.state``, a whole game's events, which no list reads)."""
    return (
        queryset.defer("state")
        .prefetch_related(seats_with_users(vacations=True))
        .select_related("creator")
    )


def engine_replayed(
    *, game: Game, events: Iterable[Mapping[str, Any]]
) -> Iterator[EngineGame]:
    """The engine of a started game at each position of ``events``: before the
    first (ply 0), then after each event in turn; the one place a game is
    rebuilt from its events (the record of truth, ``docs/record.md``).

    Each step yields the same engine, changed in place: ``copy()`` one to keep
    it. Raises ``ValueError`` for a game not started yet.
    """
    if game.first_seat is None:
        raise ValueError("the game has not started")
    engine = record.new_game(game.variant, game.players, game.first_seat)

    def steps() -> Iterator[EngineGame]:
        yield engine
        for event in events:
            engine.apply_event(event)
            yield engine

    return steps()


def engine_after(
    *, game: Game, events: Sequence[Mapping[str, Any]], ply: int
) -> EngineGame:
    """The engine of a started game after the first ``ply`` of ``events``."""
    return deque(engine_replayed(game=game, events=events[:ply]), maxlen=1).pop()


def game_engine(game: Game) -> EngineGame:
    """The engine state of a started game, replayed from ``Game.state``'s events.

    A game stored without that cache (``manage.py fill_games``) is replayed from
    its Move rows instead. Build it once per request and pass it on.
    """
    events = game.cached_events
    if len(events) != game.ply:
        return game_engine_from_moves(game)
    return engine_after(game=game, events=events, ply=len(events))


def game_engine_from_moves(game: Game) -> EngineGame:
    """The engine state rebuilt from the Move rows, the record of truth."""
    events = list(game.moves.order_by("ply").values_list("event", flat=True))
    return engine_after(game=game, events=events, ply=len(events))


def game_record(game: Game) -> dict[str, Any]:
    """The game record (``docs/record.md``) of a started game."""
    seats = game.seats.select_related("user").order_by("number")
    names = [seat.record_name for seat in seats]  # the account names, untranslated
    return record.export(game_engine_from_moves(game), names)


def game_get(*, game_id: int) -> Game:
    """A game with its seats in order, their users and current vacations.

    Raises ``Game.DoesNotExist``.
    """
    return Game.objects.prefetch_related(seats_with_users(vacations=True)).get(
        pk=game_id
    )


INVITE_TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,43}")
"""What an invitation link's token can look like (``secrets.token_urlsafe``):
anything else is no token, and is not looked up."""


def game_by_invite_token(*, token: str) -> Game | None:
    """The game whose invitation link has ``token`` (whatever its state), with
    its seats and their users; None for a token no game has."""
    if not INVITE_TOKEN_PATTERN.fullmatch(token):
        return None
    games = Game.objects.defer("state").prefetch_related(seats_with_users())
    return games.select_related("creator").filter(invite_token=token).first()


def game_variant(*, game_id: int) -> str | None:
    """Game ``game_id``'s variant, or None if there is no such game."""
    return Game.objects.filter(pk=game_id).values_list("variant", flat=True).first()


@dataclass(frozen=True)
class SeatView:
    """One game as one viewer sees it (lila's ``Pov``): their seat, whether it
    is their turn and what they may do, worked out once by ``seat_view``.

    The game page, its templates and the services' guards read it, so what a
    page offers is what the action accepts.
    """

    game: Game
    viewer: User | None
    """The signed-in user looking, or None for a visitor."""
    seats: tuple[Seat, ...]
    """The game's seats, in seat order."""
    seat: Seat | None
    """The viewer's seat (joined or only invited), or None."""
    is_creator: bool
    blocks_creator: bool = False
    """The viewer is invited but blocks the game's creator: the invitation
    stands for the creator, unseen by the viewer (issue #35 item 2)."""

    @property
    def number(self) -> int | None:
        """The viewer's seat number, once they have joined; else None."""
        if self.seat is None or self.seat.invite_status != Seat.Invite.JOINED:
            return None
        return int(self.seat.number)

    @property
    def active(self) -> bool:
        return self.game.status == Game.Status.ACTIVE

    @property
    def over(self) -> bool:
        """Finished (a resigned or timed-out game is finished too)."""
        return self.game.status == Game.Status.FINISHED

    @property
    def to_move(self) -> int | None:
        """The seat to move while the game is in progress; None once it is
        over, whatever the record's last position says."""
        return self.game.seat_to_move if self.active else None

    @property
    def to_move_seat(self) -> Seat | None:
        """The seat row of the player to move, or None."""
        return self.seats[self.to_move] if self.to_move is not None else None

    @property
    def my_turn(self) -> bool:
        """The viewer is to move: they joined, the game is in progress and its
        seat to move is theirs (for many games at once, ``_awaiting_move``)."""
        return self.number is not None and self.to_move == self.number

    def since_ply(self, engine: EngineGame) -> int | None:
        """The ply of the viewer's last decision of their own (a forced move
        does not count), or None: where "since your last move" starts.
        """
        if self.number is None:
            return None
        events = engine.events()
        forced = set(self.game.forced_plies)
        return next(
            (
                ply
                for ply in range(len(events) - 1, -1, -1)
                if events[ply].get("seat") == self.number and ply not in forced
            ),
            None,
        )

    @property
    def left(self) -> bool:
        """The viewer resigned or forfeited this game."""
        seat = self.seat
        return seat is not None and (seat.resigned or seat.forfeited_at is not None)

    @property
    def may_resign(self) -> bool:
        return self.number is not None and self.active and not self.left

    @property
    def invited(self) -> bool:
        """The viewer's seat is an invitation not answered yet, of a game
        not started yet (seen or not: ``may_answer_invitation``)."""
        return (
            self.game.status == Game.Status.OPEN
            and self.seat is not None
            and self.seat.invite_status == Seat.Invite.INVITED
        )

    @property
    def may_answer_invitation(self) -> bool:
        """The viewer is invited and sees it: not one who blocks the creator,
        to whom the page offers nothing (issue #35 item 2)."""
        return self.invited and not self.blocks_creator

    @property
    def may_join(self) -> bool:
        """A signed-in player with no seat here may take an open seat of a game
        not started yet (of a game with an invitation link, only through the
        link: ``may_join_with_link``)."""
        return (
            self.game.status == Game.Status.OPEN
            and self.viewer is not None
            and self.seat is None
            and self.game.invite_token is None
        )

    @property
    def link_open(self) -> bool:
        """The game's invitation link still seats someone: the game has one,
        has not started and has an open seat
        (docs/together.md, "Invite by link")."""
        return (
            self.game.invite_token is not None
            and self.game.status == Game.Status.OPEN
            and any(seat.invite_status == Seat.Invite.OPEN for seat in self.seats)
        )

    @property
    def may_join_with_link(self) -> bool:
        """A signed-in player with no seat here may take a seat through the
        game's invitation link (a visitor signs up or logs in first)."""
        return self.link_open and self.viewer is not None and self.seat is None

    @property
    def invite_token(self) -> str | None:
        """The secret of the game's invitation link, for its creator while the
        game waits for players; None for everyone else (hidden information)."""
        if self.is_creator and self.game.status == Game.Status.OPEN:
            return self.game.invite_token
        return None

    @property
    def may_cancel(self) -> bool:
        return self.game.status == Game.Status.OPEN and self.is_creator

    @property
    def may_retry(self) -> bool:
        """A player of the game (joined) may retry their mistakes of its
        review (``history_views.game_retry``; the replay offers it once the
        review is made)."""
        return self.number is not None

    @property
    def may_ask_review(self) -> bool:
        """The viewer may ask for the review of this finished game: its
        uploader, for an imported record (a game played here is reviewed
        unasked; ``services.game_review_queue`` holds the same rule)."""
        return self.game.imported and self.over and self.is_creator

    @property
    def may_offer_rematch(self) -> bool:
        """A player of a finished game (not an imported one) may offer to play
        it again (``services.game_rematch``)."""
        return self.number is not None and self.over and not self.game.imported


@dataclass(frozen=True)
class Rematch:
    """The newest rematch of a finished game, as its page tells it."""

    game: Game
    seats: tuple[Seat, ...]

    @property
    def on(self) -> bool:
        """Offered and not called off (waiting, in progress or over)."""
        return self.game.status != Game.Status.CANCELLED

    @property
    def waiting(self) -> list[Seat]:
        """The players invited who have not answered yet."""
        return [s for s in self.seats if s.invite_status == Seat.Invite.INVITED]

    @property
    def declined(self) -> list[Seat]:
        """Who called it off by declining (none when its creator cancelled it)."""
        return [s for s in self.seats if s.invite_status == Seat.Invite.DECLINED]

    def invites(self, user: User | AnonymousUser | None) -> bool:
        """``user`` is invited to it and may answer."""
        return seat_view(
            game=self.game, user=user, seats=self.seats
        ).may_answer_invitation


def game_rematch_get(*, game: Game) -> Rematch | None:
    """The newest rematch of ``game`` (``Game.rematch_of``), with its seats, or None."""
    rematch = (
        game.rematches.order_by("-pk")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("user")))
        .first()
    )
    if rematch is None:
        return None
    return Rematch(rematch, tuple(rematch.seats.all()))


def seat_view(
    *,
    game: Game,
    user: User | AnonymousUser | None,
    seats: Sequence[Seat] | None = None,
) -> SeatView:
    """How ``user`` (None or anonymous for a visitor) sees ``game``: the one
    place that finds the viewer's seat. ``seats``: the game's seat rows in
    order when the caller has them (locked, or prefetched); else they are read.
    """
    rows = tuple(seats if seats is not None else game.seats.all())
    viewer = user if isinstance(user, User) else None
    user_id = viewer.pk if viewer is not None else None
    mine = None
    if user_id is not None:
        mine = next((s for s in rows if s.user_id == user_id), None)
    # Only for an invitation still waiting: one query then, none otherwise.
    blocks_creator = (
        viewer is not None
        and mine is not None
        and mine.invite_status == Seat.Invite.INVITED
        and game.status == Game.Status.OPEN
        and game.creator_id != viewer.pk
        and user_blocks(blocker=viewer, blocked=game.creator)
    )
    return SeatView(
        game=game,
        viewer=viewer,
        seats=rows,
        seat=mine,
        is_creator=user_id is not None and game.creator_id == user_id,
        blocks_creator=blocks_creator,
    )


def game_user_to_move(*, game: Game) -> User | None:
    """The account of the player to move (``SeatView.to_move_seat``): None
    between turns, once the game is over, or for an imported seat."""
    seats = list(game.seats.select_related("user"))
    seat = seat_view(game=game, user=None, seats=seats).to_move_seat
    return seat.user if seat is not None else None


def game_get_awaiting_move(*, user: User, game_id: int) -> Game | None:
    """Game ``game_id`` if ``user`` is to move in it (``SeatView.my_turn``),
    else None."""
    games = Game.objects.defer("state").prefetch_related("seats")
    game = games.filter(pk=game_id).first()
    if game is None or not seat_view(game=game, user=user).my_turn:
        return None
    return game


# The lists of a player's own games start from the player's seats (the seat's
# user index: their games, a few hundred rows) and reach each game by its key.
# A condition on the game with an ``Exists`` over seats made the database walk
# every game in progress (or every game) checking each one for the player's seat.


def _awaiting_move(user: User) -> QuerySet[Game]:
    """The games where ``SeatView.my_turn`` holds for ``user``, as one query
    for the lists of many games: the same rule in SQL (the game in progress,
    its seat to move ``user``'s; every seat of a game in progress has joined).
    A join: one seat per user and game, so no game twice.
    ``tests/games/test_selectors.py`` checks that the two agree."""
    return Game.objects.filter(
        status=Game.Status.ACTIVE, seats__user=user, seats__number=F("seat_to_move")
    )


def game_list_awaiting_move(*, user: User) -> QuerySet[Game]:
    """Games where ``user`` is to move, least time left first (their deadline:
    ``games.banks``)."""
    return _with_seats(_awaiting_move(user).order_by("turn_deadline", "pk"))


def game_list_waiting(*, user: User) -> QuerySet[Game]:
    """``user``'s games waiting for others: their moves (in progress, and not
    ``SeatView.my_turn``, as in ``_awaiting_move``), or players to join (the
    open games ``user`` has joined: one they are invited to and have not
    answered is an invitation, ``game_list_invitations``, listed once)."""
    mine = Seat.objects.filter(user=user).filter(
        Q(game__status=Game.Status.OPEN, invite_status=Seat.Invite.JOINED)
        | (Q(game__status=Game.Status.ACTIVE) & ~Q(number=F("game__seat_to_move")))
    )
    return _with_seats(
        Game.objects.filter(pk__in=mine.values("game_id")).order_by(
            F("turn_deadline").asc(nulls_last=True), "-created_at"
        )
    )


def game_list_recently_finished(*, user: User, limit: int = 10) -> QuerySet[Game]:
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return _with_seats(
        Game.objects.filter(Exists(mine), status=Game.Status.FINISHED).order_by(
            "-finished_at"
        )[:limit]
    )


def has_played(*, user: User) -> bool:
    """Whether ``user`` has sat in a game that started (in progress or over):
    until then their home page welcomes them (issue #35 item 8)."""
    return Seat.objects.filter(
        user=user,
        invite_status=Seat.Invite.JOINED,
        game__status__in=[Game.Status.ACTIVE, Game.Status.FINISHED],
    ).exists()


def game_list_invitations(*, user: User) -> QuerySet[Game]:
    """The open games ``user`` is invited to and has not answered, newest
    first; not those whose creator ``user`` blocks, which stand unseen
    (issue #35 item 2)."""
    invited = Seat.objects.filter(
        game=OuterRef("pk"), user=user, invite_status=Seat.Invite.INVITED
    )
    return _with_seats(
        Game.objects.filter(Exists(invited), status=Game.Status.OPEN)
        .exclude(creator__in=block_list(user=user))
        .order_by("-created_at")
    )


def game_list_open(*, user: User | None = None) -> QuerySet[Game]:
    """Open games with a free seat (not those ``user`` already sits in), but
    not games whose seats go to those with their invitation link: only the
    link leads to them."""
    free = Seat.objects.filter(game=OuterRef("pk"), invite_status=Seat.Invite.OPEN)
    games = Game.objects.filter(
        Exists(free), status=Game.Status.OPEN, invite_token__isnull=True
    )
    if user is not None and user.is_authenticated:
        games = games.exclude(
            Exists(Seat.objects.filter(game=OuterRef("pk"), user=user))
        )
    return _with_seats(games.order_by("-created_at"))


def game_list_for_player(*, user: User, finished: bool) -> QuerySet[Game]:
    """A player's games for their profile page.

    From the player's seats (the user index: a hundred rows), not a walk of every
    game checking for a seat, which grows with the whole archive.
    """
    statuses = (
        [Game.Status.FINISHED] if finished else [Game.Status.OPEN, Game.Status.ACTIVE]
    )
    # A join (one seat per user per game: no duplicates) that SQLite drives from
    # the seat's user index; ``pk__in``/``Exists`` made it walk every finished game.
    return _with_seats(
        Game.objects.filter(
            seats__user=user, seats__invite_status="joined", status__in=statuses
        ).order_by("-created_at")
    )


FRIENDS_GAMES_DAYS = 14
"""How long a finished game stays in "Friends' games" (docs/together.md)."""


def last_move_at() -> Coalesce:
    """A game's time of its latest event (its start before any), for
    ``annotate``: the order of "newest move first" lists."""
    latest = Move.objects.filter(game=OuterRef("pk")).order_by("-ply")
    return Coalesce(Subquery(latest.values("created_at")[:1]), F("started_at"))


def friends_games(*, user: User, limit: int = 10) -> QuerySet[Game]:
    """The home page's "Friends' games" (issue #26): games in progress, and
    those finished in the last ``FRIENDS_GAMES_DAYS`` days, where a player
    ``user`` follows sits (``user``'s own games with them too), newest move
    first, at most ``limit``; seats prefetched (two queries in all). Each game
    carries ``last_move_at`` (its start before any move)."""
    followed = Follow.objects.filter(follower=user).values("followed_id")
    # From the followed players' seats (the user index), as for profiles.
    seated = Seat.objects.filter(user_id__in=followed).values("game_id")
    cutoff = clock.now() - timedelta(days=FRIENDS_GAMES_DAYS)
    games = (
        Game.objects.filter(pk__in=seated)
        .filter(
            Q(status=Game.Status.ACTIVE)
            | Q(status=Game.Status.FINISHED, finished_at__gte=cutoff)
        )
        .annotate(last_move_at=last_move_at())
        .order_by(F("last_move_at").desc(nulls_last=True), "-pk")
    )
    return _with_seats(games[:limit])


@dataclass(frozen=True)
class InviteSuggestion:
    """A name the new-game form's invite field suggests, and why: ``friend``
    (you follow each other), ``following`` (you follow them) or ``opponent``
    (you played them lately)."""

    user: User
    kind: str


RECENT_OPPONENT_GAMES = 20
"""How many of a player's latest games the invite suggestions take opponents
from."""


def invite_suggestions(*, user: User) -> list[InviteSuggestion]:
    """Whom the invite field suggests (issue #26): friends by name, then the
    rest of the players ``user`` follows by name, then the people of their
    latest games, the most recent first; never a computer, ``user``, or a
    player blocked either way (a block ends follows both ways)."""
    friends = friend_ids(user=user)
    followed = list(following(user=user))
    suggestions = [InviteSuggestion(u, "friend") for u in followed if u.pk in friends]
    suggestions += [
        InviteSuggestion(u, "following") for u in followed if u.pk not in friends
    ]
    latest = (
        Seat.objects.filter(user=user, invite_status=Seat.Invite.JOINED)
        .exclude(game__status=Game.Status.CANCELLED)
        .order_by("-game__created_at")
        .values("game_id")[:RECENT_OPPONENT_GAMES]
    )
    seats = (
        Seat.objects.filter(
            game_id__in=latest,
            invite_status=Seat.Invite.JOINED,
            user__is_active=True,
            user__computer_level="",
        )
        .exclude(user=user)
        .select_related("user")
        .order_by("-game__created_at", "number")
    )
    seen = {u.pk for u in followed}
    opponents: list[User] = []
    for seat in seats:
        if seat.user is not None and seat.user.pk not in seen:
            seen.add(seat.user.pk)
            opponents.append(seat.user)
    blocked = blocked_ids(user=user, among=[u.pk for u in opponents], either_way=True)
    suggestions += [
        InviteSuggestion(u, "opponent") for u in opponents if u.pk not in blocked
    ]
    return suggestions


def game_moves(*, game: Game) -> QuerySet[Move]:
    return game.moves.order_by("ply")


def game_can_view(*, game: Game, user: User | AnonymousUser | None) -> bool:
    """Who may see a game page (and its live doorbell): everyone, like the page."""
    return True


def game_version(
    *, game_id: int, user: User | AnonymousUser | None
) -> tuple[int, str] | None:
    """``(ply, status)`` of a game the user may view, else None."""
    game = Game.objects.filter(pk=game_id).only("pk", "ply", "status").first()
    if game is None or not game_can_view(game=game, user=user):
        return None
    return int(game.ply), str(game.status)


def game_continued(*, game: Game) -> Game | None:
    """The game in progress that imported record ``game`` continues or branches
    off (the same first deal, ``Game.opening``), or None: while there is one,
    the record gets no review, no best decision and no retry (docs/review.md,
    "No engine help in a game in progress"). A game played here continues
    nothing."""
    if not game.imported or not game.opening:
        return None
    return (
        Game.objects.filter(
            opening=game.opening, status=Game.Status.ACTIVE, imported=False
        )
        .only("pk", "variant", "players", "ply")
        .first()
    )


def review_progress(
    *, game_id: int, user: User | AnonymousUser | None
) -> tuple[str, int, int, int | None] | None:
    """``(status, done, total, ahead)`` of the review of a finished game the
    user may view (its replay's Review tab, docs/review.md; ``ahead``: while it
    waits, its place in the queue), else None: never for a game in progress,
    which has no review."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None or not game_can_view(game=game, user=user):
        return None
    found = (
        GameReview.objects.filter(game=game)
        .values_list("status", "done", "total")
        .first()
    )
    if found is None:
        return None
    status, done, total = found
    ahead = (
        review_queue.ahead_of(game_id) if status == GameReview.Status.QUEUED else None
    )
    return str(status), int(done), int(total), ahead


def game_count_awaiting_move(*, user: User) -> int:
    return _awaiting_move(user).count()


class SeatStanding(TypedDict):
    """One seat as the game page lists it (``seat_standings``)."""

    number: int
    name: str
    user: User | None
    rank: int | None
    score: int | None
    resigned: bool
    forfeited: bool
    vacation_until: datetime | None


def seat_standings(*, game: Game) -> list[SeatStanding]:
    """Each seat as the game page lists it: name, account, rank and score, how
    it left (resigned, forfeited) and the end of its player's vacation."""
    vacations = seat_vacations(game=game)
    return [
        SeatStanding(
            number=seat.number,
            name=seat.name,
            user=seat.user,
            rank=seat.rank,
            score=seat.score,
            resigned=seat.resigned,
            forfeited=seat.forfeited_at is not None,
            vacation_until=vacations.get(seat.number),
        )
        for seat in game.seats.all()
    ]


def seat_vacations(*, game: Game) -> dict[int, datetime]:
    """Seat number → end of the current vacation, for seats on vacation now."""
    seats = list(game.seats.all())
    if seats and all(hasattr(seat, "vacation_until") for seat in seats):
        # Prefetched with seats_with_users(vacations=True): no query.
        until = {s.number: getattr(s, "vacation_until", None) for s in seats}
        return {number: end for number, end in until.items() if end is not None}
    now = clock.now()
    user_seats = {s.user_id: s.number for s in seats if s.user_id}
    ends: dict[int, datetime] = {}
    for vacation in Vacation.objects.filter(
        user_id__in=user_seats, starts_at__lte=now, ends_at__gt=now
    ):
        seat = user_seats[vacation.user_id]
        ends[seat] = max(ends.get(seat, vacation.ends_at), vacation.ends_at)
    return ends


# ------------------------------------------------------------------ archive


@dataclass(frozen=True)
class ArchiveFilters:
    """What the archive may be filtered by (all optional)."""

    player: User | None = None
    family: str = ""
    """A whole family (``classic``: both walls)."""
    variant: str = ""
    """One variant (``classic``: the coloured wall only; ``classic-grey``)."""
    players: int | None = None
    rated: bool | None = None
    since: date | None = None
    until: date | None = None
    ongoing: bool = False
    """Ongoing games (newest start first) instead of finished ones."""
    imported: bool = False
    """Imported records instead of games played here."""


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def game_archive(*, filters: ArchiveFilters) -> QuerySet[Game]:
    """Finished (or ongoing) games, newest first, filtered; seats prefetched.

    Finished games are ordered by finish date, ongoing ones by start date; both
    orders are served by the ``game_archive*`` indexes. Slice it to paginate.
    """
    games = Game.objects.filter(imported=filters.imported)
    if filters.ongoing:
        games = games.filter(status=Game.Status.ACTIVE)
        date_field = "started_at"
    else:
        games = games.filter(status=Game.Status.FINISHED)
        date_field = "finished_at"
    if filters.player is not None:
        games = games.filter(
            pk__in=Seat.objects.filter(user=filters.player).values("game_id")
        )
    if filters.family:
        games = games.filter(family=filters.family)
    if filters.variant:
        games = games.filter(variant=filters.variant)
    if filters.players is not None:
        games = games.filter(players=filters.players)
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    if filters.since is not None:
        games = games.filter(**{f"{date_field}__gte": _day_start(filters.since)})
    if filters.until is not None:
        until = _day_start(filters.until) + timedelta(days=1)
        games = games.filter(**{f"{date_field}__lt": until})
    return games.order_by(f"-{date_field}", "-id").prefetch_related(
        Prefetch(
            "seats", queryset=Seat.objects.select_related("user").order_by("number")
        )
    )


# ------------------------------------------------------ ratings and records

LEADERBOARD_DAYS = 90
"""A player must have finished a rated game this recently to be listed."""


def leaderboard(
    *, family: str, computers: bool = False, provisional: bool = False
) -> QuerySet[PlayerStats]:
    """Eligible players of ``family`` by rating, best first: settled ratings only
    (at least ``PROVISIONAL_GAMES`` rated games, ``ratings.rating_provisional``),
    the last within 90 days. People only, or with ``computers`` the computer
    players only (their own list: issue #16).

    Sorted by μ, the number the table shows (``ratings.rating_points``), so the
    rating column reads in order. With ``provisional``, the players not settled
    yet instead (one rated game or more), the nearest to settled first: the
    leaderboard's section below the ranked list (issue #25).
    """
    recent = clock.now() - timedelta(days=LEADERBOARD_DAYS)
    games = (
        Q(rated_games__gte=1, rated_games__lt=PROVISIONAL_GAMES)
        if provisional
        else Q(rated_games__gte=PROVISIONAL_GAMES)
    )
    order = ("-rated_games", "-mu", "id") if provisional else ("-mu", "id")
    return (
        PlayerStats.objects.filter(games, family=family, last_rated_at__gte=recent)
        .filter(
            ~Q(user__computer_level="") if computers else Q(user__computer_level="")
        )
        .select_related("user")
        .order_by(*order)
    )


def high_scores(*, family: str, players: int, limit: int = 20) -> QuerySet[Seat]:
    """The best final scores of ``family`` games for ``players`` players.

    Games played on the site only (rated or not); imported records do not count.
    One walk of the ``seat_score_table`` index (``Seat.score_table`` is set by
    ``game_finish``).
    """
    return (
        Seat.objects.filter(score_table=f"{family}-{players}", score__isnull=False)
        .select_related("user", "game")
        .order_by("-score", "game_id")[:limit]
    )


def player_stats(*, user: User) -> dict[str, PlayerStats]:
    """``user``'s totals and rating per family (families never played are absent)."""
    return {stats.family: stats for stats in PlayerStats.objects.filter(user=user)}


def rating_history(*, user: User, family: str) -> list[RatingChange]:
    """``user``'s rating after each rated game of ``family``, oldest first."""
    return list(
        RatingChange.objects.filter(user=user, family=family).order_by(
            "created_at", "id"
        )
    )
