"""The move log of the live board in words, both families.

The family words each event (``family.describe_log``); the site adds a line
where a player resigned or forfeited on time, after the lines of the events
played before they left, and says so at the end of the line of each decision
it played as a player's only legal one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from django.utils.translation import gettext as _

from games.engine.common import Game as EngineGame
from games.models import Game, Seat
from games.selectors import engine_replayed

if TYPE_CHECKING:
    from games.families import GameFamily


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


class GameLog(NamedTuple):
    lines: list[str]
    """The whole log in words, with the site's own lines."""
    since: list[str]
    """The lines after ``since_ply``'s decision (empty without one)."""


def game_log(
    *,
    game: Game,
    engine: EngineGame,
    family: GameFamily,
    seats: Sequence[Seat],
    names: Sequence[str],
    since_ply: int | None = None,
) -> GameLog:
    """The log in words, with a line where each player left the game and a note
    at the end of the line of each decision the site played as a player's only
    legal one (``Game.state``'s ``forced`` plies); and the lines for the events after
    ``since_ply``: what happened since a player's decision there. What the
    engine did at once with that decision (a wall tiling, the round's end)
    belongs to it. One replay finds where each note goes."""
    lines = list(family.describe_log(engine, names))
    events = engine.events()
    forced = [ply for ply in game.forced_plies if ply < len(events)]
    left = [seat for seat in seats if seat.forfeited_ply is not None]
    since_end = since_ply + 1 if since_ply is not None else None
    ends = {*forced, *(int(seat.forfeited_ply or 0) for seat in left)}
    if since_end is not None and since_end < len(events):
        ends.add(since_end)
    sizes = _log_sizes(game, events, ends)
    forced_text = _("(%(player)s had no other legal move: the site played it.)")
    # At the end of the forced decision's own line (its first entry).
    for ply in forced:
        note = forced_text % {"player": names[events[ply]["seat"]]}
        at = sizes[ply]
        if at < len(lines) and lines[at]:
            lines[at] = f"{lines[at]} {note}"
    since = (
        [line for line in lines[sizes[since_end] :] if line]
        if since_end is not None and since_end in sizes
        else []
    )
    notes = []
    if left:
        last_forfeit = max(int(seat.forfeited_ply or 0) for seat in left)
        for seat in left:
            # The lines of the events before the player left come first.
            text = _left_text(game, seat, last_forfeit)
            position = sizes[int(seat.forfeited_ply or 0)]
            notes.append((position, text % {"player": names[seat.number]}))
    for position, text in sorted(notes, reverse=True):
        lines.insert(position, text)
    return GameLog([line for line in lines if line], since)


def _log_sizes(
    game: Game, events: Sequence[Mapping[str, Any]], ends: set[int]
) -> dict[int, int]:
    """How many log entries the first ``end`` events make, for each of
    ``ends`` (one line of the log in words per entry), from one replay."""
    sizes = {end: 0 for end in ends if end <= 0}
    wanted = {end for end in ends if end > 0}
    if not wanted:
        return sizes
    replayed = engine_replayed(game=game, events=events[: max(wanted)])
    for count, before in enumerate(replayed):
        if count in wanted:
            sizes[count] = before.log_size()
    return sizes
