"""Writes, one module per domain; callers use the names here
(``services.game_create``).

- ``lobby``: create, join, accept/decline an invitation, cancel, and the start
  (round 1 dealt) when the last seat is taken; the per-account limits.
- ``play``: a decision (``game_play_move``); the deadlines a vacation moves.
- ``endings``: resignation and timeout.
- ``turns``: the turn loop that lobby, play and endings call and that calls
  none of them (``append_events``: chance events, left seats' turns, the
  next clock, a computer's turn announced), and ``game_finish``, the one place
  a game ends (docs/style.md, "Each fact in one place").
- ``records``: an uploaded record stored as an imported game.
- ``rematches``: "Play again": a finished game's players seated again, one
  place on, in a new game that starts when all have accepted.
- ``reviews``: a finished game's review queued (``tasks.review_game``,
  docs/review.md).
- ``common``: what they share (``GameActionError``, the locked row, the
  generator of live games, the news after commit).

Nothing here imports ``games.tasks``: a computer's turn and a review are
announced (``turns.computer_turn_began``, ``reviews.review_wanted``) and the
tasks module, which plays through these services, queues them.

Every action runs in one transaction that locks the game row first
(``select_for_update``; on SQLite the IMMEDIATE transaction and the unique
``(game, ply)`` constraint are the guard), checks who may act, changes the rows and
registers its notifications with ``transaction.on_commit`` (docs/style.md, "One move").
A refused action raises :class:`GameActionError` and changes nothing. Vacations
are the accounts side's (``accounts.services``); the game deadlines they move
are shifted here (``games.receivers``).
"""

from __future__ import annotations

from games.services.common import GameActionError
from games.services.endings import (
    game_bank_ran_out,
    game_decide,
    game_resign,
    game_stop_play,
    game_timeout,
)
from games.services.lobby import (
    game_cancel,
    game_create,
    game_invitation_respond,
    game_join,
    game_start_seated,
)
from games.services.play import PlayedMove, game_deadlines_shift, game_play_move
from games.services.records import RECORD_MAX_BYTES, ImportedRecord, game_import
from games.services.rematches import game_rematch, rematch_seating
from games.services.reviews import game_review_queue
from games.services.turns import game_finish

__all__ = [
    "RECORD_MAX_BYTES",
    "GameActionError",
    "ImportedRecord",
    "PlayedMove",
    "game_cancel",
    "game_create",
    "game_decide",
    "game_deadlines_shift",
    "game_finish",
    "game_import",
    "game_invitation_respond",
    "game_join",
    "game_play_move",
    "game_rematch",
    "game_start_seated",
    "game_stop_play",
    "game_resign",
    "game_review_queue",
    "game_timeout",
    "game_bank_ran_out",
    "rematch_seating",
]
