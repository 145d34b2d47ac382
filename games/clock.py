"""The site's clock: the one function deadlines read, so tests can move time,
and the time controls a game is played under (``docs/clock.md``).

Tests patch ``games.clock.now`` (``monkeypatch.setattr(clock, "now", ...)``); every
service and the deadline job call ``clock.now()`` through this module.

A game's time control is one of ``TIME_CONTROLS``, by name (``Game.clock``): a
*bank* (capped Fischer: each seat has its own bank, a turn spends wall-clock time
from it, finishing the turn adds the increment up to the cap) for every new
game, or ``days`` (the game's days per move afresh each turn), which games
created before the bank keep until they end. :meth:`TimeControl.allowance` and
:meth:`TimeControl.after_turn` are the one rule both kinds follow; nothing else
branches on the kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.engine.variants import find_variant

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as StrPromise


def now() -> datetime:
    return timezone.now()


@dataclass(frozen=True)
class TimeControl:
    """How long a seat has for its turns."""

    name: str
    """Stored in ``Game.clock`` and in the record's ``clock``."""
    label: StrPromise
    start: timedelta | None
    """A bank's size at the game's start; ``None`` for days per move."""
    increment: timedelta = timedelta(0)
    """Added to the bank when its seat finishes a turn."""
    cap: timedelta = timedelta(0)
    """The most a bank ever holds."""

    @property
    def banked(self) -> bool:
        return self.start is not None

    @property
    def plays_forced(self) -> bool:
        """The site plays every player's only legal decision at once, and it
        costs nothing (a bank); under days per move, each player's setting
        (``User.play_forced``) decides."""
        return self.banked

    def allowance(self, *, bank: timedelta | None, days_per_move: int) -> timedelta:
        """The time a seat's turn may take from its start: its bank (a bank
        clock; a seat without one yet starts full), or the game's days."""
        if self.start is None:
            return timedelta(days=days_per_move)
        return self.start if bank is None else bank

    def after_turn(self, *, left: timedelta) -> timedelta | None:
        """The bank once a turn is finished with ``left`` of its allowance
        unspent: plus the increment, never above the cap (``None``: no bank)."""
        if self.start is None:
            return None
        return min(self.cap, max(left, timedelta(0)) + self.increment)

    def describe(self, *, days_per_move: int) -> str:
        """The control in words: "3 days, +1 day a turn, at most 7 days", or
        "3 days per move"."""
        if self.start is None:
            return ngettext(
                "%(days)s day per move", "%(days)s days per move", days_per_move
            ) % {"days": days_per_move}
        return gettext("%(start)s, +%(increment)s a turn, at most %(cap)s") % {
            "start": duration(self.start),
            "increment": duration(self.increment),
            "cap": duration(self.cap),
        }

    def to_record(self, *, days_per_move: int) -> dict[str, object]:
        """The control as a game's record keeps it (``docs/record.md``, "Clock"):
        a bank's start, increment and cap in seconds, or the days per move."""
        if self.start is None:
            return {"control": self.name, "days_per_move": days_per_move}
        return {
            "control": self.name,
            "start": int(self.start.total_seconds()),
            "increment": int(self.increment.total_seconds()),
            "cap": int(self.cap.total_seconds()),
        }

    def pace(self, turns_each: int) -> timedelta:
        """How long a game takes when every player moves once per increment
        (the pace the clock enforces on average)."""
        return turns_each * self.increment

    def longest(self, *, turns_each: int, players: int) -> timedelta | None:
        """The most a game can last when every player uses all their time:
        each spends at most the bank they start with plus every increment
        (turns are played one after another). ``None`` for days per move."""
        if self.start is None:
            return None
        return players * (self.start + (turns_each - 1) * self.increment)


DAYS = TimeControl("days", _("Days per move"), start=None)
"""The clock of games created before the bank: kept until they end."""

BRISK = TimeControl(
    "brisk",
    _("Brisk"),
    start=timedelta(days=1),
    increment=timedelta(hours=4),
    cap=timedelta(days=3),
)
FAST = TimeControl(
    "fast",
    _("Fast"),
    start=timedelta(days=3),
    increment=timedelta(hours=12),
    cap=timedelta(days=5),
)
DAILY = TimeControl(
    "daily",
    _("Daily"),
    start=timedelta(days=3),
    increment=timedelta(days=1),
    cap=timedelta(days=7),
)
SLOW = TimeControl(
    "slow",
    _("Slow"),
    start=timedelta(days=3),
    increment=timedelta(hours=36),
    cap=timedelta(days=10),
)

PRESETS = (BRISK, FAST, DAILY, SLOW)
"""The banks a new game may choose, fastest first."""
DEFAULT = DEFAULT_CLOCK = DAILY
"""A new game's clock (``DEFAULT_CLOCK`` where ``clock`` names a field)."""
TIME_CONTROLS = {c.name: c for c in (*PRESETS, DAYS)}


def time_control(name: str) -> TimeControl:
    """The time control called ``name`` (``KeyError`` for an unknown one)."""
    return TIME_CONTROLS[name]


def duration(span: timedelta) -> str:
    """A whole number of days, else of hours, in words ("3 days", "36 hours")."""
    hours = int(span.total_seconds()) // 3600
    if hours % 24 == 0:
        days = hours // 24
        return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
    return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}


def pace_text(*, control: TimeControl, variant: str, players: int) -> str:
    """What ``control`` means for a game of ``variant`` with ``players`` (the
    new-game form): its length at the pace the clock enforces, and at most."""
    found = find_variant(variant)
    turns = found.family.turns_each(players)
    longest = control.longest(turns_each=turns, players=players)
    assert longest is not None, "a new game's clock is a bank"
    weeks = round(control.pace(turns) / timedelta(weeks=1))
    shown_weeks = max(1, weeks)
    days = -(-longest // timedelta(days=1))  # "at most": whole days, rounded up
    # Each count its own plural phrase (locale/GLOSSARY.md, "Counts").
    return gettext(
        "%(game)s, %(players)s: %(turns)s; at this pace a game takes %(weeks)s, "
        "at most %(days)s if everyone uses all their time."
    ) % {
        "game": gettext(found.family.title),
        "players": ngettext("%(n)s player", "%(n)s players", players) % {"n": players},
        "turns": ngettext("about %(n)s turn each", "about %(n)s turns each", turns)
        % {"n": turns},
        "weeks": ngettext("about %(n)s week", "about %(n)s weeks", shown_weeks)
        % {"n": shown_weeks},
        "days": ngettext("%(n)s day", "%(n)s days", days) % {"n": days},
    }
