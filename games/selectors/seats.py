"""A seat's view of a game (``SeatView``: whose seat, whose turn, what the viewer may
do), the standings and the rematch offer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from django.contrib.auth.models import AnonymousUser
from django.db.models import Prefetch

from accounts.models import User, Vacation
from accounts.selectors import user_blocks
from games import clock
from games.engine.common import Game as EngineGame
from games.models import Game, Seat


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
