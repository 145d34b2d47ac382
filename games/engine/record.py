"""Game records, version 1 (``docs/record.md``): export, import, replay, random games.

A record is the game's history: every decision and every random outcome, so it
replays without a random generator. Importing validates every event with the same
checked entry point the site uses (``Game.apply_event``); an illegal event is refused
with its 0-based index and the reason.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from .common import EngineError, Game, InvalidMoveError, RecordError
from .variants import VARIANT_NAMES, find_variant

FORMAT = "azul-record"
VERSION = 1
EVENT_KEYS = ("deal", "supply", "wall", "bonus", "pass", "star", "from")


def new_game(variant: str, players: int, first_seat: int = 0) -> Game:
    """A new game of ``variant`` for ``players`` seats, before its first deal."""
    return find_variant(variant).new_game(players, first_seat)


class Record:
    """A parsed record: the header fields and the replayed game."""

    def __init__(self, names: list[str], game: Game) -> None:
        self.names = names
        self.game = game

    @property
    def variant(self) -> str:
        return self.game.variant


def export(game: Game, names: Sequence[str]) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict (with ``result`` once finished)."""
    if len(names) != game.players:
        raise ValueError("one name per seat is needed")
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.variant,
        "players": list(names),
        "first_seat": game.first_seat,
        "events": game.events(),
    }
    if game.is_over():
        record["result"] = game.result()
    return record


def _header(data: Any) -> tuple[str, list[str], int, list[Any]]:
    """Check the record's fields outside ``events``; raise ``RecordError(None, …)``."""
    if not isinstance(data, Mapping):
        raise RecordError(None, "a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(None, f'"format" must be "{FORMAT}"')
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise RecordError(None, f'"version" must be {VERSION}')
    variant = data.get("variant")
    if variant not in VARIANT_NAMES:
        raise RecordError(None, f'"variant" must be one of {", ".join(VARIANT_NAMES)}')
    names = data.get("players")
    counts = find_variant(variant).players
    if (
        not isinstance(names, list)
        or len(names) not in counts
        or not all(isinstance(name, str) for name in names)
    ):
        raise RecordError(
            None, f'"players" must list {counts[0]} to {counts[-1]} names'
        )
    first_seat = data.get("first_seat")
    if type(first_seat) is not int or not 0 <= first_seat < len(names):
        raise RecordError(None, '"first_seat" must be a seat number')
    events = data.get("events")
    if not isinstance(events, list):
        raise RecordError(None, '"events" must be a list')
    return variant, list(names), first_seat, events


def load(data: Mapping[str, Any] | str | bytes) -> Record:
    """Parse and replay a record, checking every event; raise ``RecordError``."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as error:  # too deep: RecursionError
            raise RecordError(None, f"not valid JSON ({error})") from None
    variant, names, first_seat, events = _header(data)
    game = new_game(variant, len(names), first_seat)
    for index, event in enumerate(events):
        fault = None
        if game.is_over():
            fault = InvalidMoveError("the game is already over", "game_over")
        elif not isinstance(event, Mapping):
            fault = InvalidMoveError("an event is a JSON object", "not_an_object")
        elif sum(key in event for key in EVENT_KEYS) != 1:
            fault = InvalidMoveError(
                f"an event holds exactly one of {', '.join(EVENT_KEYS)}", "malformed"
            )
        if fault is not None:
            raise RecordError(index, str(fault), cause=fault, variant=variant)
        try:
            game.apply_event(event)
        except EngineError as error:
            raise RecordError(index, str(error), cause=error, variant=variant) from None
    return Record(names, game)


def replay_summary(data: Mapping[str, Any] | str | bytes) -> dict[str, Any]:
    """What ``python -m games.engine replay`` prints; refuses an unfinished record."""
    record = load(data)
    game = record.game
    if not game.is_over():
        count = len(game.events())
        raise RecordError(count, "the record ends before the game is over")
    outcome = game.outcome()
    assert outcome is not None
    return {
        "round_scores": [list(scores) for scores in game.round_scores],
        "final_scores": list(outcome.scores),
        "winners": list(outcome.winners),
    }


def play_random(game: Game, rng: random.Random) -> Game:
    """Play ``game`` to the end by uniformly random legal decisions."""
    random_move = getattr(game, "random_move", None)
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
        elif random_move is not None:
            # Same draw as the branch below (tested), without building the list.
            game.push(random_move(rng))
        else:
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
    return game


def dumps(record: Mapping[str, Any]) -> str:
    """JSON text of a record, one event per line (diff- and human-friendly)."""
    lines = ["{"]
    items = list(record.items())
    for position, (key, value) in enumerate(items):
        comma = "," if position < len(items) - 1 else ""
        if key == "events" and value:
            lines.append('  "events": [')
            events = [json.dumps(event, ensure_ascii=False) for event in value]
            lines.append(",\n".join(f"    {event}" for event in events))
            lines.append(f"  ]{comma}")
        else:
            lines.append(
                f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}"
            )
    lines.append("}")
    return "\n".join(lines)


def random_game(variant: str, players: int, seed: int) -> Game:
    """A finished game of random legal decisions, the same for the same seed."""
    rng = random.Random(seed)
    game = new_game(variant, players, first_seat=rng.randrange(players))
    return play_random(game, rng)


def default_names(players: int) -> list[str]:
    """Names for records made without players (the ``random`` command)."""
    return ["ana", "binh", "chloe", "dae"][:players]


def opening_key(variant: str, events: Sequence[Mapping[str, Any]]) -> str:
    """The fingerprint of a game's first deal (Summer Pavilion's bonus supply,
    drawn before it, left out): the same for a game and for every
    record that continues it or branches off it, whatever else it changes
    (``docs/review.md``, "No engine help in a game in progress"); "" before the
    first deal. The deal is read as a multiset of factories, each a multiset of
    tiles, under its family's name and no more: reordering factories or tiles,
    renaming the players, moving the first seat or switching to the other side
    of the board makes no other game. A first deal is 20 to 36 tiles drawn at
    random, so two games played apart never share one."""
    deal = next((event["deal"] for event in events if "deal" in event), None)
    if not isinstance(deal, list):
        return ""
    factories = sorted(sorted(str(tile) for tile in factory) for factory in deal)
    canonical = json.dumps(
        [find_variant(variant).family.name, factories], separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode()).hexdigest()
