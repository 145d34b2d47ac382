"""Every Summer Pavilion refusal carries a stable code and the params to word it.

The site words refusals from ``code`` and ``params`` (``games/pavilion/words.py``),
never from the English message, so each refusal the engine can raise is driven here
and its code, params and (unchanged) English message are checked; a source walk
makes sure no ``IllegalMoveError``/``InvalidMoveError`` is raised without a code.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

import games.engine.pavilion as pavilion_module
from games.engine.common import CENTER, EngineError, IllegalMoveError, InvalidMoveError
from games.engine.pavilion import (
    COLOURS,
    STAR_INDEX,
    Bonus,
    Pass,
    PavilionGame,
    Place,
    Take,
    move_from_event,
)

PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED = range(6)
C = {name: index for index, name in enumerate(COLOURS)}
SOURCE = Path(pavilion_module.__file__)
ERRORS = ("IllegalMoveError", "InvalidMoveError")


def _counts(tiles: Mapping[str, int] | None) -> list[int]:
    result = [0] * 6
    for name, n in (tiles or {}).items():
        result[C[name]] += n
    return result


def _take(game: PavilionGame, tiles: list[int]) -> list[int]:
    for colour, n in enumerate(tiles):
        game.bag[colour] -= n
    return tiles


def game(
    *,
    grey: bool = False,
    phase: str = "place",
    round: int = 1,
    turn: int | None = 0,
    hand: Mapping[str, int] | None = None,
    board: list[tuple[str, int, str]] | None = None,
    factories: Mapping[int, Mapping[str, int]] | None = None,
    centre: Mapping[str, int] | None = None,
    supply: Mapping[str, int] | None = None,
    bonus_owed: int = 0,
) -> PavilionGame:
    """A two-player game with seat 0's hand and board set directly."""
    g = PavilionGame(2, grey=grey)
    g._refill_then_deal = False
    g.phase, g.round, g.turn, g.bonus_owed = phase, round, turn, bonus_owed
    g.hands[0] = _take(g, _counts(hand))
    for star, n, colour in board or []:
        index = STAR_INDEX[star] * 6 + n - 1
        _take(g, _counts({colour: 1}))
        g.boards[0][index] = C[colour]
        g.filled[0] |= 1 << index
        g.star_colours[0][STAR_INDEX[star]] |= 1 << C[colour]
    for number, tiles in (factories or {}).items():
        g.factories[number] = _take(g, _counts(tiles))
    g.centre = _take(g, _counts(centre))
    g.supply = _take(g, _counts(supply))
    g._table = sum(g.centre) + sum(sum(f) for f in g.factories)
    return g


def no_red_in_bag(phase: str) -> PavilionGame:
    g = game(phase=phase, turn=None)
    g.tower[RED], g.bag[RED] = g.bag[RED], 0
    return g


def _decision(event: dict[str, Any]) -> Callable[[], object]:
    return lambda: move_from_event(event, 2)


def _play(g: PavilionGame, move: object) -> Callable[[], object]:
    return lambda: g.play(move)  # type: ignore[arg-type]


def _event(g: PavilionGame, event: object) -> Callable[[], object]:
    return lambda: g.apply_event(event)  # type: ignore[arg-type]


def _place(star: str, space: int, colour: int, wilds: int = 0) -> Place:
    return Place(0, STAR_INDEX[star], space, colour, wilds)


TAKE = {"seat": 0, "from": 0, "colour": "red"}
PLACE = {"seat": 0, "star": "red", "space": 1, "colour": "red", "wilds": 0}
DUE_SUPPLY = {"phase": "supply", "round": 1, "to_move": None}

# (code, params, English message, the call that is refused)
CASES: list[tuple[str, dict[str, Any], str, Callable[[], object]]] = [
    # -- decisions that do not parse ----------------------------------------------
    ("not_an_object", {}, "an event is a JSON object", _decision([])),  # type: ignore[arg-type]
    ("not_an_object", {}, "an event is a JSON object", _event(game(), [])),
    (
        "no_such_seat",
        {"seat": 5, "players": 2},
        '"seat" must be a seat number 0-1',
        _decision({**TAKE, "seat": 5}),
    ),
    (
        "no_such_factory",
        {"source": 9, "factories": 5},
        '"from" must be "center" or a factory number 0-4',
        _decision({**TAKE, "from": 9}),
    ),
    (
        "no_such_colour",
        {"field": "colour", "value": "pink"},
        "colour must be one of purple, green, orange, yellow, blue, red, not 'pink'",
        _decision({**TAKE, "colour": "pink"}),
    ),
    (
        "no_such_star",
        {"star": "black"},
        '"star" must be one of center, purple, orange, red, blue, yellow, green',
        _decision({**PLACE, "star": "black"}),
    ),
    (
        "no_such_space",
        {"space": 7},
        '"space" must be a number 1-6',
        _decision({**PLACE, "space": 7}),
    ),
    (
        "invalid_wilds",
        {"wilds": -1},
        '"wilds" must be a number 0 or more',
        _decision({**PLACE, "wilds": -1}),
    ),
    (
        "not_a_colour_list",
        {"field": "bonus"},
        '"bonus" must be a list of colours',
        _decision({"seat": 0, "bonus": "red"}),
    ),
    (
        "no_such_colour",
        {"field": "keep", "value": 3},
        'each of "keep" must be one of purple, green, orange, yellow, blue, red, not 3',
        _decision({"seat": 0, "pass": {"keep": [3]}}),
    ),
    (
        "malformed_pass",
        {},
        '"pass" must be an object with a "keep" list',
        _decision({"seat": 0, "pass": []}),
    ),
    ("not_a_decision", {}, "not a Summer Pavilion decision", _decision({"seat": 0})),
    # -- moves that are not moves --------------------------------------------------
    ("not_a_move", {}, "not a Summer Pavilion move", _play(game(), "take")),
    (
        "no_such_seat",
        {"seat": 7, "players": 2},
        "seat must be a seat number 0-1",
        _play(game(phase="take"), Take(7, 0, RED)),
    ),
    (
        "no_such_colour",
        {"field": "colour", "value": 9},
        "unknown colour",
        _play(game(phase="take"), Take(0, 0, 9)),
    ),
    (
        "no_such_factory",
        {"source": 9, "factories": 5},
        "there is no factory 9",
        _play(game(phase="take"), Take(0, 9, RED)),
    ),
    ("no_such_star", {"star": 9}, "unknown star", _play(game(), Place(0, 9, 1, 0, 0))),
    (
        "no_such_space",
        {"space": 7},
        "space must be 1-6",
        _play(game(), _place("red", 7, RED)),
    ),
    (
        "no_such_colour",
        {"field": "colour", "value": 9},
        "unknown colour",
        _play(game(), _place("red", 1, 9)),
    ),
    (
        "invalid_wilds",
        {"wilds": -1},
        "wilds must be 0 or more",
        _play(game(), _place("red", 1, RED, -1)),
    ),
    (
        "no_such_colour",
        {"field": "bonus", "value": 9},
        "unknown colour",
        _play(game(phase="bonus", bonus_owed=1), Bonus(0, (9,))),
    ),
    (
        "no_such_colour",
        {"field": "keep", "value": -1},
        "unknown colour",
        _play(game(), Pass(0, (-1,))),
    ),
    # -- whose turn, which phase ---------------------------------------------------
    ("game_over", {}, "the game is over", _play(game(phase="over"), Pass(0, ()))),
    ("game_over", {}, "the game is already over", _event(game(phase="over"), TAKE)),
    (
        "supply_due",
        {},
        "the supply must be refilled first",
        _play(PavilionGame(2), Take(0, 0, RED)),
    ),
    (
        "supply_due",
        {},
        "a supply draw is due before any decision",
        _event(PavilionGame(2), TAKE),
    ),
    (
        "deal_due",
        {"round": 2},
        "the factories of round 2 must be dealt",
        _play(game(phase="deal", round=2, turn=None), Take(0, 0, RED)),
    ),
    (
        "deal_due",
        {"round": 2},
        "the deal of round 2 is due",
        _event(game(phase="deal", round=2, turn=None), TAKE),
    ),
    (
        "not_your_turn",
        {"seat": 1, "to_move": 0},
        "it is seat 0's turn, not seat 1's",
        _play(game(phase="take"), Take(1, 0, RED)),
    ),
    (
        "bonus_due",
        {},
        "you must choose your bonus tiles now",
        _play(game(phase="bonus", bonus_owed=1), Take(0, 0, RED)),
    ),
    (
        "bonus_due",
        {},
        "you must choose your bonus tiles now",
        _play(game(phase="bonus", bonus_owed=1), _place("red", 1, RED)),
    ),
    (
        "bonus_due",
        {},
        "you must choose your bonus tiles now",
        _play(game(phase="bonus", bonus_owed=1), Pass(0, ())),
    ),
    (
        "take_phase_over",
        {},
        "phase 1 is over: place a tile or pass",
        _play(game(), Take(0, 0, RED)),
    ),
    (
        "place_before_phase_2",
        {},
        "tiles are placed in phase 2: take tiles now",
        _play(game(phase="take"), _place("red", 1, RED)),
    ),
    (
        "pass_before_phase_2",
        {},
        "you can pass only in phase 2: take tiles now",
        _play(game(phase="take"), Pass(0, ())),
    ),
    # -- taking --------------------------------------------------------------------
    (
        "source_empty",
        {"source": 1},
        "factory 1 is empty",
        _play(game(phase="take", factories={0: {"red": 4}}), Take(0, 1, RED)),
    ),
    (
        "source_empty",
        {"source": "center"},
        "the centre is empty",
        _play(game(phase="take", factories={0: {"red": 4}}), Take(0, CENTER, RED)),
    ),
    (
        "wild_take_with_others",
        {"source": 0, "colour": "purple"},
        "purple is wild this round: take another colour from factory 0 "
        "(one purple comes with it)",
        _play(
            game(phase="take", factories={0: {"purple": 1, "red": 3}}),
            Take(0, 0, PURPLE),
        ),
    ),
    (
        "colour_absent",
        {"source": "center", "colour": "blue"},
        "the centre holds no blue",
        _play(game(phase="take", centre={"red": 2}), Take(0, CENTER, BLUE)),
    ),
    # -- placing -------------------------------------------------------------------
    (
        "space_filled",
        {"star": "red", "space": 1},
        "red 1 is already filled",
        _play(game(hand={"red": 1}, board=[("red", 1, "red")]), _place("red", 1, RED)),
    ),
    (
        "star_takes_its_colour",
        {"star": "red", "colour": "blue", "allowed": "red"},
        "only red goes on the red star",
        _play(game(hand={"blue": 1}), _place("red", 1, BLUE)),
    ),
    (
        "star_holds_colour",
        {"star": "center", "colour": "blue"},
        "the centre star already holds blue",
        _play(
            game(hand={"blue": 2}, board=[("center", 1, "blue")]),
            _place("center", 2, BLUE),
        ),
    ),
    (
        "star_holds_only",
        {"star": "red", "colour": "blue", "only": "green"},
        "the red star holds only green: it takes green or nothing",
        _play(
            game(
                grey=True,
                hand={"blue": 3},
                board=[("red", 1, "green"), ("red", 2, "green")],
            ),
            _place("red", 3, BLUE),
        ),
    ),
    (
        "wild_pays_for_itself",
        {"colour": "purple", "wilds": 1},
        "purple is wild this round and pays for itself: wilds must be 0",
        _play(game(hand={"purple": 2}), _place("purple", 2, PURPLE, 1)),
    ),
    (
        "too_few_tiles",
        {"star": "purple", "space": 3, "cost": 3, "colour": "purple", "have": 2},
        "purple 3 costs 3 purple and you have 2",
        _play(game(hand={"purple": 2}), _place("purple", 3, PURPLE)),
    ),
    (
        "no_tile_of_colour",
        {"star": "red", "space": 1, "colour": "red"},
        "you need at least one red to place on red 1",
        _play(game(hand={"purple": 1}), _place("red", 1, RED, 1)),
    ),
    (
        "too_many_wilds",
        {"star": "red", "space": 2, "cost": 2, "colour": "red", "wilds": 2},
        "red 2 costs 2: at least one red must be paid, so at most 1 wild",
        _play(game(hand={"red": 1, "purple": 3}), _place("red", 2, RED, 2)),
    ),
    (
        "not_enough_wilds",
        {"colour": "purple", "have": 0, "wilds": 1},
        "you have 0 purple (wild), not 1",
        _play(game(hand={"red": 1}), _place("red", 2, RED, 1)),
    ),
    (
        "too_few_tiles_with_wilds",
        {
            "star": "red",
            "space": 4,
            "cost": 4,
            "colour": "red",
            "wilds": 1,
            "need": 3,
            "have": 1,
        },
        "red 4 costs 4: with 1 wild you need 3 red and have 1",
        _play(game(hand={"red": 1, "purple": 1}), _place("red", 4, RED, 1)),
    ),
    # -- bonus tiles -----------------------------------------------------------------
    (
        "no_bonus_owed",
        {},
        "no bonus tiles are owed now",
        _play(game(supply={"red": 2}), Bonus(0, (RED,))),
    ),
    (
        "bonus_count",
        {"owed": 2, "chosen": 1},
        "you must choose 2 tiles from the supply, not 1",
        _play(game(phase="bonus", bonus_owed=2, supply={"red": 3}), Bonus(0, (RED,))),
    ),
    (
        "supply_short",
        {"colour": "red", "have": 1, "wanted": 2},
        "the supply holds 1 red, not 2",
        _play(
            game(phase="bonus", bonus_owed=2, supply={"red": 1, "blue": 1}),
            Bonus(0, (RED, RED)),
        ),
    ),
    # -- passing -----------------------------------------------------------------------
    (
        "keep_after_last_round",
        {"round": 6},
        "nothing can be kept after round 6",
        _play(game(round=6, hand={"red": 1}), Pass(0, (RED,))),
    ),
    (
        "keep_too_many",
        {"max": 4, "kept": 5},
        "you may keep at most 4 tiles",
        _play(game(hand={"red": 5}), Pass(0, (RED,) * 5)),
    ),
    (
        "keep_not_in_hand",
        {"colour": "red", "have": 1, "wanted": 2},
        "you have 1 red to keep, not 2",
        _play(game(hand={"red": 1}), Pass(0, (RED, RED))),
    ),
    # -- random events ---------------------------------------------------------------
    (
        "no_chance_due",
        {"phase": "take", "round": 1, "to_move": 0},
        "no random event is due",
        lambda: game(phase="take").chance(random.Random(1)),
    ),
    (
        "no_supply_due",
        {"phase": "deal", "round": 1, "to_move": None},
        "no supply draw is due now (the deal of round 1 is due)",
        _event(game(phase="deal", turn=None), {"supply": ["red"]}),
    ),
    (
        "not_a_colour_list",
        {"field": "supply"},
        '"supply" must be a list of colours',
        _event(PavilionGame(2), {"supply": "red"}),
    ),
    (
        "no_such_colour",
        {"field": "supply", "value": "pink"},
        "each supply tile must be one of purple, green, orange, yellow, blue, red, "
        "not 'pink'",
        _event(PavilionGame(2), {"supply": ["pink"]}),
    ),
    (
        "supply_draw_empty",
        {},
        "a supply draw lists at least one tile",
        _event(PavilionGame(2), {"supply": []}),
    ),
    (
        "supply_draw_too_many",
        {"room": 10, "drawn": 11},
        "the supply has room for 10 tiles, not 11",
        _event(PavilionGame(2), {"supply": ["red"] * 11}),
    ),
    (
        "supply_draw_impossible",
        {"colour": "red"},
        "red cannot be drawn: the bag holds none",
        _event(no_red_in_bag("supply"), {"supply": ["red"]}),
    ),
    (
        "supply_draw_short",
        {"room": 10, "drawn": 9},
        "the supply refill stops at 9 of 10 tiles while tiles remain to draw",
        _event(PavilionGame(2), {"supply": ["red"] * 9}),
    ),
    (
        "no_deal_due",
        {**DUE_SUPPLY},
        "no deal is due now (a supply draw is due)",
        _event(PavilionGame(2), {"deal": [[]] * 5}),
    ),
    (
        "deal_size",
        {"factories": 5},
        '"deal" must list 5 factories',
        _event(game(phase="deal", turn=None), {"deal": [["red"] * 4]}),
    ),
    (
        "deal_overfull",
        {"factory": 1, "max": 4},
        "each factory of a deal lists at most 4 colours",
        _event(game(phase="deal", turn=None), {"deal": [[], ["red"] * 5, [], [], []]}),
    ),
    (
        "no_such_colour",
        {"field": "deal", "value": "pink"},
        "each dealt tile must be one of purple, green, orange, yellow, blue, red, "
        "not 'pink'",
        _event(game(phase="deal", turn=None), {"deal": [["pink"]] * 5}),
    ),
    (
        "deal_impossible",
        {"factory": 0, "colour": "red"},
        "factory 0: red cannot be drawn, the bag holds none",
        _event(no_red_in_bag("deal"), {"deal": [["red"] * 4] * 5}),
    ),
    (
        "deal_short",
        {"factory": 0, "tiles": 3, "size": 4},
        "factory 0 gets 3 tiles while tiles remain to draw",
        _event(game(phase="deal", turn=None), {"deal": [["red"] * 3] * 5}),
    ),
]


def _raise_calls() -> list[ast.Call]:
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ERRORS
    ]


def _code_argument(call: ast.Call) -> ast.expr | None:
    if len(call.args) >= 2:
        return call.args[1]
    return next((k.value for k in call.keywords if k.arg == "code"), None)


def _params_argument(call: ast.Call) -> ast.expr | None:
    if len(call.args) >= 3:
        return call.args[2]
    return next((k.value for k in call.keywords if k.arg == "params"), None)


def engine_codes() -> dict[str, set[frozenset[str]]]:
    """Each code raised in pavilion.py and the param key sets it is raised with."""
    codes: dict[str, set[frozenset[str]]] = {}
    for call in _raise_calls():
        code = _code_argument(call)
        params = _params_argument(call)
        assert isinstance(code, ast.Constant) and isinstance(code.value, str)
        keys: frozenset[str] = frozenset()
        if isinstance(params, ast.Dict):
            keys = frozenset(
                k.value
                for k in params.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            )
        codes.setdefault(code.value, set()).add(keys)
    return codes


@pytest.mark.parametrize(
    ("code", "params", "message", "call"),
    CASES,
    ids=[f"{case[0]}-{n}" for n, case in enumerate(CASES)],
)
def test_each_refusal_carries_its_code_and_params(
    code: str, params: dict[str, Any], message: str, call: Callable[[], object]
) -> None:
    with pytest.raises(EngineError) as info:
        call()
    error = info.value
    assert isinstance(error, IllegalMoveError | InvalidMoveError)
    assert (error.code, error.params, str(error)) == (code, params, message)


def test_every_code_in_the_engine_is_driven_here() -> None:
    assert {case[0] for case in CASES} == set(engine_codes())


def test_invalid_and_illegal_codes_are_kept_apart() -> None:
    """A code names one kind of fault: a move that does not parse, or a rule."""
    kinds: dict[str, set[str]] = {}
    for call in _raise_calls():
        code = _code_argument(call)
        assert isinstance(code, ast.Constant)
        assert isinstance(call.func, ast.Name)
        kinds.setdefault(code.value, set()).add(call.func.id)
    assert {code: k for code, k in kinds.items() if len(k) > 1} == {}


def test_every_raise_in_the_source_names_a_code_and_literal_params() -> None:
    """No refusal without a code; params are dict literals so tools can read them."""
    calls = _raise_calls()
    assert len(calls) > 40
    faults = []
    for call in calls:
        where = f"pavilion.py:{call.lineno}"
        code = _code_argument(call)
        if not (
            isinstance(code, ast.Constant)
            and isinstance(code.value, str)
            and re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", code.value)
        ):
            faults.append(f"{where}: no snake_case code")
            continue
        params = _params_argument(call)
        if params is not None and not (
            isinstance(params, ast.Dict)
            and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str)
                for k in params.keys
            )
        ):
            faults.append(f"{where}: params are not a dict literal with named keys")
    assert faults == []


def test_a_code_always_comes_with_the_same_params() -> None:
    assert {code: keys for code, keys in engine_codes().items() if len(keys) > 1} == {}
