"""Each seat's time left (``docs/clock.md``): the one rule a turn's allowance
follows, and what the board, the lists and the API read from it.

The seat to move has its deadline less now (never below nothing; while its
player is on vacation, the deadline less the vacation's end: the bank does not
run, the deadline moved); every other person's seat has its bank, or the
allowance of its next turn when it has not moved yet (under days per move, the
days per move); a computer, or a seat whose turns the site plays, has none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext, ngettext

from accounts.models import VACATION_DAYS_PER_YEAR, Vacation
from accounts.services import vacation_days_used
from games import clock
from games.models import Game, Seat


def turn_allowance(game: Game, seat: Seat | None) -> timedelta:
    """How long a turn of ``seat`` may take: its bank, or the game's days per
    move (``games.clock``: one rule for both)."""
    bank = seat.bank_seconds if seat is not None else None
    return game.time_control.allowance(
        bank=None if bank is None else timedelta(seconds=bank),
        days_per_move=game.days_per_move,
    )


@dataclass(frozen=True)
class SeatBank:
    """One seat's time left at a moment (``seat_banks``)."""

    seat: int
    """The seat's number."""
    name: str
    """The seat's name as the board shows it."""
    seconds: int | None
    """Whole seconds left; None for a seat with no clock (a computer, a seat
    the site plays for, a game not in progress)."""
    running: bool = False
    """It runs now: the seat is to move and its player is not on vacation."""
    until: datetime | None = None
    """When it runs out: the game's deadline, for the seat to move."""
    vacation_days_left: int | None = None
    """For a seat whose player is on vacation (asked for with
    ``vacations``): the vacation days they have left this year."""

    @property
    def words(self) -> str:
        """The time left in words ("2 days 4 hours left"); "" for none."""
        return "" if self.seconds is None else time_left_words(self.seconds)


def _vacation_ends(
    game: Game, seats: Sequence[Seat], at: datetime
) -> dict[int, datetime]:
    """Seat number → the end of its player's vacation, for seats on one at
    ``at``: read off seats prefetched with ``selectors.seats_with_users(
    vacations=True)`` (no query), else looked up."""
    if seats and all(hasattr(seat, "vacation_until") for seat in seats):
        ends = {s.number: getattr(s, "vacation_until", None) for s in seats}
        return {n: end for n, end in ends.items() if end is not None and end > at}
    users = {s.user_id: s.number for s in seats if s.user_id is not None}
    found: dict[int, datetime] = {}
    for user_id, end in Vacation.objects.filter(
        user_id__in=users, starts_at__lte=at, ends_at__gt=at
    ).values_list("user_id", "ends_at"):
        number = users[user_id]
        found[number] = max(found.get(number, end), end)
    return found


def seat_banks(
    *,
    game: Game,
    seats: Sequence[Seat] | None = None,
    at: datetime | None = None,
    first: int | None = None,
    vacations: bool = False,
) -> list[SeatBank]:
    """Each seat's time left in ``game`` at ``at`` (default: now), in seat
    order, or with seat ``first`` (the viewer's) first. ``seats``: the game's
    seat rows when the caller has them (with their users). With
    ``vacations``, a seat on vacation says how many days its player has left
    this year (a query for each)."""
    rows = list(seats if seats is not None else game.seats.all())
    rows.sort(key=lambda s: (s.number != first, s.number))
    if game.status != Game.Status.ACTIVE:
        return [SeatBank(s.number, s.shown_name, None) for s in rows]
    at = clock.now() if at is None else at
    vacations_now = _vacation_ends(game, rows, at)
    banks = []
    for seat in rows:
        if (
            seat.user_id is None
            or (seat.user is not None and seat.user.is_computer)
            or seat.resigned
            or seat.forfeited_at is not None
        ):
            banks.append(SeatBank(seat.number, seat.shown_name, None))
            continue
        days_left = None
        if vacations and seat.number in vacations_now and seat.user is not None:
            days_left = max(
                0, VACATION_DAYS_PER_YEAR - vacation_days_used(user=seat.user)
            )
        if seat.number == game.seat_to_move and game.turn_deadline is not None:
            vacation = vacations_now.get(seat.number)
            since = at if vacation is None else max(at, vacation)
            left = max(0, int((game.turn_deadline - since).total_seconds()))
            banks.append(
                SeatBank(
                    seat.number,
                    seat.shown_name,
                    left,
                    running=vacation is None and left > 0,
                    until=game.turn_deadline,
                    vacation_days_left=days_left,
                )
            )
        else:
            allowance = turn_allowance(game, seat)
            banks.append(
                SeatBank(
                    seat.number,
                    seat.shown_name,
                    int(allowance.total_seconds()),
                    vacation_days_left=days_left,
                )
            )
    return banks


def bank_to_move(*, game: Game, at: datetime | None = None) -> SeatBank | None:
    """The time left of ``game``'s seat to move (``seat_banks``), or None."""
    if game.seat_to_move is None:
        return None
    return next(
        (b for b in seat_banks(game=game, at=at) if b.seat == game.seat_to_move),
        None,
    )


def _span_words(seconds: int) -> str:
    """A span in its two largest units ("2 days 4 hours", "3 hours 5 minutes",
    "12 minutes")."""
    minutes = seconds // 60
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        big = ngettext("%(num)d day", "%(num)d days", days) % {"num": days}
        small = (
            ngettext("%(num)d hour", "%(num)d hours", hours) % {"num": hours}
            if hours
            else ""
        )
    elif hours:
        big = ngettext("%(num)d hour", "%(num)d hours", hours) % {"num": hours}
        small = (
            ngettext("%(num)d minute", "%(num)d minutes", minutes) % {"num": minutes}
            if minutes
            else ""
        )
    elif minutes:
        return ngettext("%(num)d minute", "%(num)d minutes", minutes) % {"num": minutes}
    else:
        return gettext("less than a minute")
    if not small:
        return big
    # Translators: two parts of a span of time, the larger first: "2 days 4 hours".
    return gettext("%(larger)s %(smaller)s") % {"larger": big, "smaller": small}


def time_left_words(seconds: int) -> str:
    """``seconds`` left, in words: "2 days 4 hours left", "no time left"."""
    if seconds <= 0:
        return gettext("no time left")
    return gettext("%(span)s left") % {"span": _span_words(seconds)}


def took_words(seconds: float) -> str:
    """How long a move took, short: "2 d 4 h", "3 h 5 min", "12 min", "40 s"."""
    whole = max(0, int(seconds))
    minutes, secs = divmod(whole, 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        return gettext("%(days)s d %(hours)s h") % {"days": days, "hours": hours}
    if hours:
        return gettext("%(hours)s h %(minutes)s min") % {
            "hours": hours,
            "minutes": minutes,
        }
    if minutes:
        return gettext("%(minutes)s min") % {"minutes": minutes}
    return gettext("%(seconds)s s") % {"seconds": secs}
