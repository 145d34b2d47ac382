"""The turn loop, which lobby, play and endings call and which calls none of
them back (lila's ``Finisher`` is called by play and never calls back): after a
start, a move or a seat leaving, the chance events, the turns of seats that
left, the decisions the rules leave alone, the next clock, a computer's turn
announced, and ``game_finish``, the one place a game ends (docs/style.md,
"Each fact in one place").

The caller passes the random source (``rng``) that deals and plays for the
seats that left.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Max
from django.dispatch import Signal

from accounts.models import User, Vacation
from games import clock, signals
from games.engine import bots
from games.engine.common import Game as EngineGame
from games.models import Game, Move, Seat
from games.play.banks import turn_allowance
from games.ratings.ratings import ratings_update_for_game
from games.services.common import announce, notify_after_commit
from games.services.reviews import game_review_queue

computer_turn_began = Signal()
"""A computer player is to move in ``game_id`` at ``ply``, sent after commit;
``games.tasks`` queues its move (connected in ``GamesConfig.ready()``)."""


def vacation_given(seat: Seat, delta: timedelta) -> timedelta:
    """How far a vacation that began (``delta`` > 0, its length) or ended
    early (``delta`` < 0, what was left of it) moves ``seat``'s deadline: all
    of it, or for a seat with a cap (``Seat.vacation_left_seconds``) what the
    cap still gives, kept on the seat (docs/clock.md, "A vacation's cap")."""
    if seat.vacation_left_seconds is None:
        return delta
    asked = int(delta.total_seconds())
    if asked >= 0:
        given = min(asked, seat.vacation_left_seconds)
        seat.vacation_left_seconds -= given
        seat.vacation_unapplied_seconds = asked - given
    else:
        # back early: the time not spent comes off the part not given first
        given = -max(0, -asked - seat.vacation_unapplied_seconds)
        seat.vacation_left_seconds -= given
        seat.vacation_unapplied_seconds = 0
    seat.save(update_fields=["vacation_left_seconds", "vacation_unapplied_seconds"])
    return timedelta(seconds=given)


def turn_start(seat: Seat | None) -> datetime:
    """When a turn of ``seat`` that begins now starts: now, or the end of its
    player's vacation.

    A seat read with its vacation (``selectors.seats_with_users``, in this
    transaction) carries it as ``vacation_until``; others cost a query.
    """
    now = clock.now()
    start = now
    user_id = seat.user_id if seat is not None else None
    if user_id is not None and hasattr(seat, "vacation_until"):
        until = getattr(seat, "vacation_until", None)
        if until is not None and until > now:
            start = until
    elif user_id is not None:
        vacation_end = Vacation.objects.filter(
            user_id=user_id, starts_at__lte=now, ends_at__gt=now
        ).aggregate(end=Max("ends_at"))["end"]
        if vacation_end is not None:
            start = vacation_end
    if seat is not None and start > now:
        # the vacation's rest stops this turn's clock, as far as a cap lets it
        start = now + vacation_given(seat, start - now)
    return start


def bank_settle(game: Game, seat: Seat) -> None:
    """``seat`` has finished its turn now: its bank keeps the time its deadline
    had left, plus the increment, up to the cap (``docs/clock.md``). Nothing
    under days per move."""
    if game.turn_deadline is None:
        return
    bank = game.time_control.after_turn(left=game.turn_deadline - clock.now())
    if bank is None:
        return
    seat.bank_seconds = int(bank.total_seconds())
    seat.save(update_fields=["bank_seconds"])


def computer_seats(seats: Sequence[Seat]) -> dict[int, str]:
    """The seats computer players hold, and their levels."""
    return {
        s.number: s.user.computer_level
        for s in seats
        if s.user is not None and s.user.computer_level
    }


def seats_that_left(seats: Sequence[Seat]) -> set[int]:
    """Seats that left (on time, or by resigning with others still playing)."""
    return {s.number for s in seats if s.forfeited_at is not None or s.resigned}


def seats_that_play_forced(
    game: Game,
    seats: Sequence[Seat],
    *,
    left: set[int],
    computers: Mapping[int, str],
) -> set[int]:
    """Seats whose decisions the rules leave alone the site plays at once:
    every person's under a bank clock (docs/clock.md: they cost nothing), else
    those whose players let it (``User.play_forced``); a computer plays even
    its only legal decision from its task."""
    everyone = game.time_control.plays_forced
    return {
        s.number
        for s in seats
        if s.user is not None
        and (everyone or s.user.play_forced)
        and s.number not in left
        and s.number not in computers
    }


def play_for_left_seat(engine: EngineGame, rng: random.Random) -> None:
    """A decision for a player who left: the easy computer level (issue #16).

    Played here, in the move's transaction, as the site's forfeit policy was: the
    easy level is a one-move greedy choice (no search; measured p95 0.2 ms, max
    0.6 ms a decision over whole 2- and 4-player games of both families), and
    the table should not wait on a queue for a seat nobody plays.
    """
    engine.play(bots.choose(engine, User.ComputerLevel.EASY, seed=rng.randrange(2**32)))


def play_only_decision(engine: EngineGame) -> bool:
    """Play the seat to move's decision if it is its only legal one."""
    moves = engine.legal_moves()
    if len(moves) != 1:
        return False
    engine.play(moves[0])
    return True


def play_until_a_decision(
    engine: EngineGame,
    rng: random.Random,
    *,
    left: set[int],
    plays_forced: set[int],
) -> list[int]:
    """Run chance events, the turns of seats that ``left`` and the only legal
    decisions of seats that ``plays_forced``, until the game is over or a
    player has a choice to make; the plies of those only decisions."""
    forced: list[int] = []
    while True:
        while engine.needs_chance():
            engine.chance(rng)
        if engine.is_over():
            return forced
        seat = engine.to_move()
        if seat in left:
            play_for_left_seat(engine, rng)
        elif seat in plays_forced and play_only_decision(engine):
            forced.append(len(engine.events()) - 1)
        else:
            return forced


def store_moves(
    game: Game,
    new_events: list[dict[str, Any]],
    *,
    seats: Sequence[Seat],
    left: set[int],
    forced: list[int],
) -> None:
    """Append the Move rows of ``new_events`` after the game's ply (a left
    seat's as ``auto`` rows, an only decision the site played as ``forced``)."""
    users = {s.number: s.user_id for s in seats}
    now = clock.now()
    rows = [
        Move(
            game=game,
            created_at=now,
            ply=game.ply + index,
            event=event,
            user_id=users.get(event["seat"]) if "seat" in event else None,
            auto="seat" in event and event["seat"] in left,
            forced=game.ply + index in forced,
        )
        for index, event in enumerate(new_events)
    ]
    Move.objects.bulk_create(rows)
    game.ply += len(rows)


def start_clock(game: Game, seats: Sequence[Seat]) -> None:
    """A new turn: the seat to move's deadline, no reminder or e-mail yet."""
    seat = next((s for s in seats if s.number == game.seat_to_move), None)
    game.turn_started_at = turn_start(seat)
    game.turn_deadline = game.turn_started_at + turn_allowance(game, seat)
    game.reminder_sent_at = None
    game.turn_email_sent = False


def computer_turn(game: Game, computers: Mapping[int, str]) -> None:
    """When a computer is to move, its turn has no deadline and a task is
    queued after commit (``games.tasks.computer_move``)."""
    if game.status != Game.Status.ACTIVE or game.seat_to_move not in computers:
        game.computer_turn_since = None
        return
    # Computers never time out, get no reminder and no e-mail.
    game.turn_deadline = None
    game.reminder_sent_at = None
    game.turn_email_sent = True
    game.computer_turn_since = clock.now()
    announce(computer_turn_began, game_id=game.pk, ply=game.ply)


def computer_turn_claim(*, game_id: int, ply: int, now: datetime) -> bool:
    """The computer's task takes its turn in ``game_id`` at ``ply`` as it starts
    (``tasks.computer_move``): the turn's lease (``Game.computer_turn_since``)
    starts again ``now``, so the deadline loop hands the turn to the queue again
    only if this worker dies. A turn that moved on, a game over or a turn that
    is no computer's is left as it is; whether the turn was claimed."""
    return bool(
        Game.objects.filter(
            pk=game_id,
            ply=ply,
            status=Game.Status.ACTIVE,
            computer_turn_since__isnull=False,
        ).update(computer_turn_since=now)
    )


def computer_turn_reclaim(
    *, game_id: int, ply: int, since: datetime | None, now: datetime
) -> bool:
    """The deadline loop takes a computer's turn that was lost
    (``tasks.process_computer_turns``): its lease, read as ``since``, starts
    again ``now`` if nobody renewed it meanwhile (compare and set), so two job
    processes queue it once; whether this one claimed it."""
    return bool(
        Game.objects.filter(pk=game_id, ply=ply, computer_turn_since=since).update(
            computer_turn_since=now
        )
    )


def publish(game: Game, seats: Sequence[Seat], computers: Mapping[int, str]) -> None:
    """After commit: a person's "your move" (``signals.turn_started``) and the
    doorbells of people's pages (nobody reads a computer's)."""
    if game.status == Game.Status.ACTIVE and not game.turn_email_sent:
        announce(signals.turn_started, game_id=game.pk, ply=game.ply)
    people = {s.number: s.user_id for s in seats if s.number not in computers}
    notify_after_commit(game, people)


def append_events(
    game: Game,
    engine: EngineGame,
    events: list[dict[str, Any]],
    *,
    rng: random.Random,
    seats: Sequence[Seat],
    quiet: bool = False,
) -> None:
    """Run pending chance events and forfeited seats' turns, append the Move rows.

    ``events`` is the engine's event list before the action; the rows appended are
    the events after it. A seat that forfeited on time (or resigned while others
    play on) has its turns played by the easy computer level
    (``play_for_left_seat``) here, in the same transaction, as ``auto`` Move rows; a
    player's only legal decision is played for them (``forced`` rows) when they
    let the site do so (``User.play_forced``). Starts
    the next turn's clock, ends the game if it is over, and rings the channel layer
    after commit. When a computer player is to move, its turn has no deadline and
    a task is queued after commit (``games.tasks.computer_move``): its decision is
    never computed here, in a request. ``quiet``: nobody is told of the new
    turn nor rung (a game an event creates among many: it tells its players
    once). The caller saves ``game``.
    """
    left = seats_that_left(seats)
    computers = computer_seats(seats)
    plays_forced = seats_that_play_forced(game, seats, left=left, computers=computers)
    forced = play_until_a_decision(engine, rng, left=left, plays_forced=plays_forced)
    new_events = engine.events_from(len(events))
    previous_seat = game.seat_to_move
    store_moves(game, new_events, seats=seats, left=left, forced=forced)
    game.state = {"events": events + new_events, "forced": game.forced_plies + forced}
    game.seat_to_move = engine.to_move()
    dealt = any("deal" in event for event in new_events)
    if game.seat_to_move is not None and (game.seat_to_move != previous_seat or dealt):
        mover = next((s for s in seats if s.number == previous_seat), None)
        if mover is not None and not (
            mover.number in computers or mover.number in left
        ):
            bank_settle(game, mover)
        start_clock(game, seats)
    if engine.is_over():
        game_finish(game=game, engine=engine, reason=Game.EndReason.NORMAL, seats=seats)
    computer_turn(game, computers)
    if quiet:  # an event's game created with its others: the event tells
        game.turn_email_sent = game.computer_turn_since is None
        return
    publish(game, seats, computers)


# ------------------------------------------------------------ the end


def left_at(seat: Seat, game: Game) -> tuple[int, float] | None:
    """When a seat left the game (forfeit or resignation): the ply, then the
    time (two can leave at the same ply); None if it is still in."""
    if seat.forfeited_ply is None and not seat.resigned:
        return None
    ply = game.ply if seat.forfeited_ply is None else seat.forfeited_ply
    return ply, seat.left_at.timestamp() if seat.left_at is not None else 0.0


def game_finish(
    *,
    game: Game,
    engine: EngineGame,
    reason: str,
    seats: Sequence[Seat],
    ranks: Sequence[int] | None = None,
) -> None:
    """The one place a game ends: final scores and ranks on the seats.

    Players still in the game rank first: at a normal end by the engine's outcome
    (``docs/rules/azul.md §7``; Summer Pavilion shares ties,
    ``docs/rules/summer-pavilion.md §7``), else by their current score and then
    complete wall rows. Seats that resigned or forfeited on time rank after all
    of them, the one that left later above the one that left earlier. Totals and
    ratings are updated here, in the same transaction
    (``ratings.ratings_update_for_game``).
    ``seats`` are the game's seats in order; they get their final score and rank
    (so a caller that drew them from the same objects shows the result). The
    caller holds the row lock and saves ``game``.

    A game decided from outside its play (an event's last day,
    ``endings.game_decide``) comes with its ``ranks`` by seat: they stand, the
    scores are those so far, and nobody is told of it game by game (the event
    tells its players once).
    """
    outcome = engine.outcome()
    if reason == Game.EndReason.NORMAL and outcome is not None:
        scores = list(outcome.scores)
        strength: list[tuple[int, ...]] = [(-rank,) for rank in outcome.ranks]
    else:
        scores = list(engine.scores)
        strength = engine.standing_keys()
    keys: list[tuple[float, ...]] = []
    for seat in seats:
        left = left_at(seat, game)
        still_in = (1, 0, 0.0) if left is None else (0, *left)
        keys.append((*still_in, *strength[seat.number]))
    if ranks is None:
        ranks = [1 + sum(1 for other in keys if other > key) for key in keys]
    table = Seat.score_table_of(game)
    for seat in seats:
        seat.score = scores[seat.number]
        seat.rank = ranks[seat.number]
        seat.score_table = table
    Seat.objects.bulk_update(seats, ["score", "rank", "score_table"])
    game.status = Game.Status.FINISHED
    game.end_reason = reason
    game.finished_at = clock.now()
    game.seat_to_move = None
    game.turn_deadline = None
    game.computer_turn_since = None
    ratings_update_for_game(game=game)
    if not game.imported:
        if reason != Game.EndReason.DECIDED:
            announce(signals.game_finished, game_id=game.pk)
        game_review_queue(game=game)  # finished just above
