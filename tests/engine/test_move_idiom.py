"""One move idiom for both families (issue #36 item 3): every decision is a
frozen, slotted dataclass that prints itself as its record event
(``to_event()``) and reads back from it with its family's
``move_from_event(event, players)``, equal and with the same hash."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engine import classic, pavilion
from games.engine.record import new_game
from games.engine.variants import VARIANTS

PARSERS = {"classic": classic.move_from_event, "pavilion": pavilion.move_from_event}


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_every_decision_prints_and_parses_itself(variant: str) -> None:
    rng = random.Random(36)
    game = new_game(variant, 3, 0)
    parse = PARSERS[game.family.name]
    seen: set[type] = set()
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            continue
        moves = game.legal_moves()
        for move in moves:
            kind = type(move)
            assert dataclasses.is_dataclass(move) and kind.__dataclass_params__.frozen
            assert not hasattr(move, "__dict__")  # slotted
            read = parse(move.to_event(), game.players)
            assert read == move and hash(read) == hash(move)
            assert type(read) is kind and str(read) == str(move)
            seen.add(kind)
        game.push(moves[rng.randrange(len(moves))])
    # classic: takes (and grey wall columns); pavilion: takes, places, passes
    expected = 2 if variant == "classic-grey" else 1 if variant == "classic" else 3
    assert len(seen) >= expected


def test_a_move_is_frozen() -> None:
    take = classic.Take(0, 1, 2, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        take.line = 4  # type: ignore[misc]
    assert dataclasses.replace(take, line=classic.FLOOR) == classic.Take(0, 1, 2, 5)
