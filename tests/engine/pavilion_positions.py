"""Summer Pavilion test positions: a game mid-round with its attributes set directly.

Shared by the rules tests and the audit tests; every tile placed comes out of the
bag, so all 132 stay accounted for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.engine.pavilion import COLOURS, STAR_INDEX, STRUCTURE_MASKS, PavilionGame

C = {name: index for index, name in enumerate(COLOURS)}
PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED = range(6)


def counts(tiles: Mapping[str, int] | None) -> list[int]:
    result = [0] * 6
    for name, n in (tiles or {}).items():
        result[C[name]] += n
    return result


def _from_bag(game: PavilionGame, tiles: list[int]) -> list[int]:
    for colour, n in enumerate(tiles):
        assert game.bag[colour] >= n, "position uses more tiles than exist"
        game.bag[colour] -= n
    return tiles


def position(
    players: int = 2,
    *,
    grey: bool = False,
    round: int = 1,
    phase: str = "place",
    turn: int = 0,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    boards: Mapping[int, Iterable[tuple[str, int, str]]] | None = None,
    supply: Mapping[str, int] | None = None,
    factories: Mapping[int, Mapping[str, int]] | None = None,
    centre: Mapping[str, int] | None = None,
    scores: list[int] | None = None,
    token_holder: int | None = None,
    round_starter: int = 0,
    passed: Iterable[int] = (),
) -> PavilionGame:
    """A game in the middle of a round, its attributes set directly."""
    game = PavilionGame(players, grey=grey, first_seat=round_starter)
    game._refill_then_deal = False
    game.round = round
    game.phase = phase
    game.turn = turn
    game.round_starter = round_starter
    game.token_holder = token_holder
    game.round_scores = [[5] * players for _ in range(round - 1)]
    for seat, tiles in (hands or {}).items():
        game.hands[seat] = _from_bag(game, counts(tiles))
    for seat, spaces in (boards or {}).items():
        for star, n, colour in spaces:
            index = STAR_INDEX[star] * 6 + n - 1
            _from_bag(game, counts({colour: 1}))
            game.boards[seat][index] = C[colour]
            game.filled[seat] |= 1 << index
            game.star_colours[seat][STAR_INDEX[star]] |= 1 << C[colour]
        game.completed[seat] = sum(
            1 << j
            for j, mask in enumerate(STRUCTURE_MASKS)
            if game.filled[seat] & mask == mask
        )
    game.supply = _from_bag(game, counts({"yellow": 10} if supply is None else supply))
    for number, tiles in (factories or {}).items():
        game.factories[number] = _from_bag(game, counts(tiles))
    game.centre = _from_bag(game, counts(centre))
    game._table = sum(game.centre) + sum(sum(f) for f in game.factories)
    if scores is not None:
        game.scores = list(scores)
    for seat in passed:
        game.passed[seat] = True
    assert game.tile_total() == 132
    return game
