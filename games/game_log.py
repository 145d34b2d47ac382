"""The move log of the live board in words, both families.

The family words each event (``family.describe_log``); the site adds a line
where a player resigned or forfeited on time, after the lines of the events
played before they left, and one after each decision it played as a player's
only legal one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from games.engine import record
from games.engine.common import Game as EngineGame

from .models import Game, Seat

if TYPE_CHECKING:
    from .families import GameFamily


def _left_text(game: Game, seat: Seat, last_forfeit: int | None) -> str:
    if seat.resigned and seat.forfeited_at is None:
        if game.status == Game.Status.FINISHED and seat.forfeited_ply == game.ply:
            return _("%(player)s resigned.")
        return _("%(player)s resigned; the site plays their turns from now on.")
    if game.end_reason == Game.EndReason.TIMEOUT and seat.forfeited_ply == last_forfeit:
        return _("%(player)s did not move in time and lost the game.")
    return _(
        "%(player)s did not move in time and forfeited; the site plays "
        "their turns from now on."
    )


def game_log(
    *,
    game: Game,
    engine: EngineGame,
    family: GameFamily,
    seats: Sequence[Seat],
    names: Sequence[str],
    described: Sequence[str] | None = None,
) -> list[str]:
    """The log in words, with a line where each player left the game.
    ``described`` is ``family.describe_log(engine, names)`` when the caller has
    it already."""
    lines = list(family.describe_log(engine, names) if described is None else described)
    notes = _forced_notes(game, engine, names)
    left = [seat for seat in seats if seat.forfeited_ply is not None]
    if left:
        last_forfeit = max(int(seat.forfeited_ply or 0) for seat in left)
        events = engine.events()
        for seat in left:
            # The lines of the events before the player left come first.
            before = record.new_game(game.variant, game.players, engine.first_seat)
            for event in events[: seat.forfeited_ply]:
                before.apply_event(event)
            position = len(family.describe_log(before, names))
            text = _left_text(game, seat, last_forfeit)
            notes.append((position, text % {"player": names[seat.number]}))
    for position, text in sorted(notes, reverse=True):
        lines.insert(position, text)
    return [line for line in lines if line]


def _forced_notes(
    game: Game, engine: EngineGame, names: Sequence[str]
) -> list[tuple[int, str]]:
    """A line after each decision the site played as a player's only legal one
    (``Game.state``'s ``forced`` plies), with its position in the log."""
    forced = set(game.forced_plies)
    events = engine.events()
    if not forced or max(forced) >= len(events):
        return []
    text = _("(%(player)s had no other legal move: the site played it.)")
    notes = []
    before = record.new_game(game.variant, game.players, engine.first_seat)
    for ply, event in enumerate(events[: max(forced) + 1]):
        position = len(before.log) + 1  # after the decision's own line
        before.apply_event(event)
        if ply in forced:
            notes.append((position, text % {"player": names[event["seat"]]}))
    return notes


def log_since(
    *, game: Game, engine: EngineGame, described: Sequence[str], ply: int
) -> list[str]:
    """The lines of ``described`` (the log in words) for the events after
    ``ply``: what happened since a player's decision at that ply. What the
    engine did at once with that decision (a wall tiling, the round's end)
    belongs to it, not to what came since."""
    events = engine.events()
    if ply + 1 >= len(events):
        return []
    before = record.new_game(game.variant, game.players, engine.first_seat)
    for event in events[: ply + 1]:
        before.apply_event(event)
    return [line for line in described[len(before.log) :] if line]
