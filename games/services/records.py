"""Stored records: a record file uploaded (``docs/record.md``) becomes an unrated
imported game, each record once."""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import clock
from games.engine import record
from games.engine.common import Game as EngineGame
from games.engine.common import RecordError
from games.families import family_for
from games.models import Game, Move, Seat
from games.services.common import GameActionError

RECORD_MAX_BYTES = 1_000_000
"""Largest record file accepted (a long 4-player game is ~15 kB)."""


def _record_name(name: str) -> str:
    """A record's player name as a seat may store it: no control characters
    (PostgreSQL refuses ``\\u0000``) and no lone surrogates (no database can
    encode them), trimmed to 60 characters."""
    return "".join(
        char for char in name if unicodedata.category(char) not in ("Cc", "Cs")
    ).strip()[:60]


class ImportedRecord(NamedTuple):
    """The game a record was stored as, and whether this upload stored it."""

    game: Game
    created: bool


def _record_digest(variant: str, names: Sequence[str], events: Any) -> str:
    canonical = json.dumps(
        {"variant": variant, "names": list(names), "events": events},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _refusal(error: RecordError) -> str:
    """Why a record cannot be imported, as the site counts: its events are the
    replay's moves, numbered from 1, and an event the engine refused is worded
    by the game's family (factories and lines from 1, in the reader's language).
    A fault in the header (the fields around the events) names the field, in the
    record format's own words (``docs/record.md``)."""
    if error.index is None:
        return _("This record cannot be imported: %(reason)s") % {
            "reason": error.reason
        }
    reason = error.reason
    if error.cause is not None and error.variant is not None:
        reason = family_for(error.variant).error_message(error.cause)
    return _("This record cannot be imported. Move %(number)s: %(reason)s") % {
        "number": error.index + 1,
        "reason": reason,
    }


def game_import(*, uploader: User, data: bytes | str) -> ImportedRecord:
    """Store an uploaded record (``docs/record.md``) as an unrated imported game.

    Every event is checked by the engine (``record.load``); a bad record raises
    :class:`GameActionError` naming the event and the reason, and stores nothing.
    The record's names become the seats' display names (they need not be users);
    a finished record gets the engine's final scores and ranks. A record that
    was imported before (the same variant, names and events, whoever uploaded
    it) is not stored again: the first import is returned.
    """
    if len(data) > RECORD_MAX_BYTES:
        raise GameActionError(_("This file is too large to be a game record."), "size")
    try:
        loaded = record.load(data)
    except RecordError as error:
        raise GameActionError(_refusal(error), "record") from None
    engine = loaded.game
    events = engine.events()
    names = [
        _record_name(name) or _("Player %(n)s") % {"n": number + 1}
        for number, name in enumerate(loaded.names)
    ]
    digest = _record_digest(engine.variant, names, events)
    earlier = Game.objects.filter(record_digest=digest).first()
    if earlier is not None:
        return ImportedRecord(earlier, created=False)
    now = clock.now()
    try:
        with transaction.atomic():
            game = _store_import(uploader, engine, names, digest, now)
    except IntegrityError:  # the same record, uploaded at the same moment
        return ImportedRecord(Game.objects.get(record_digest=digest), created=False)
    return ImportedRecord(game, created=True)


def _store_import(
    uploader: User, engine: EngineGame, names: list[str], digest: str, now: Any
) -> Game:
    """The rows of an imported game: the game, its seats and its moves."""
    events = engine.events()
    outcome = engine.outcome()
    game = Game.objects.create(
        record_digest=digest,
        opening=record.opening_key(engine.variant, events),
        variant=engine.variant,
        players=engine.players,
        rated=False,
        imported=True,
        creator=uploader,
        status=Game.Status.FINISHED if outcome else Game.Status.ACTIVE,
        end_reason=Game.EndReason.NORMAL if outcome else Game.EndReason.NONE,
        started_at=now,
        finished_at=now if outcome else None,
        first_seat=engine.first_seat,
        ply=len(events),
        state={"events": events},
    )
    Seat.objects.bulk_create(
        Seat(
            game=game,
            number=number,
            invite_status=Seat.Invite.IMPORTED,
            display_name=name,
            score=outcome.scores[number] if outcome else None,
            rank=outcome.ranks[number] if outcome else None,
        )
        for number, name in enumerate(names)
    )
    now = clock.now()
    Move.objects.bulk_create(
        Move(game=game, ply=ply, event=event, created_at=now)
        for ply, event in enumerate(events)
    )
    return game
