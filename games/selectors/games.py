"""One game read: the game row, its engine rebuilt from its events, its record, moves
and version.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery

from accounts.models import User, Vacation
from games import clock
from games.engine import record
from games.engine.common import Game as EngineGame
from games.history import review_queue
from games.models import Game, GameReview, Move, Seat


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
    vacations (each seat's time left, ``games.play.banks``), not the event cache
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
    """The game record (``docs/record.md``) of a started game; one played here
    has the site's own fields too: its ``clock`` and the ``times`` its events
    were stored at (an imported game's record is the one imported)."""
    seats = game.seats.select_related("user").order_by("number")
    names = [seat.record_name for seat in seats]  # the account names, untranslated
    exported = record.export(game_engine_from_moves(game), names)
    if game.imported:
        return exported
    times = game.moves.order_by("ply").values_list("created_at", flat=True)
    if game.end_reason == Game.EndReason.DECIDED:
        # ended by a verdict, not by its play: the places given (docs/record.md)
        exported["decided"] = {"ranks": [seat.rank for seat in seats]}
    return {
        **exported,
        "clock": game.time_control.to_record(days_per_move=game.days_per_move),
        "times": [
            moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
            for moment in times
        ],
    }


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
