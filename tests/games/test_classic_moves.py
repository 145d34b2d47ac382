"""The classic move codec (docs/moves.md, "Azul"): every legal decision printed
and read back is the same record event, and malformed strings are refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.http import QueryDict

from games.classic import FAMILY, moves
from games.classic.forms import ClassicMoveForm
from games.engine import record
from games.engine.classic import COLOURS, FLOOR, Take, WallPlacement
from games.engine.common import CENTER, InvalidMoveError
from games.families import family_for

SQUARED = "²"
TAKE = {"kind": "take", "source": "1", "colour": "red", "line": "1"}


def _without_seat(move: Any) -> dict[str, Any]:
    event = move.to_event()
    del event["seat"]
    return event


def _positions(variant: str, players: int, seed: int) -> list[Any]:
    """Every position of a random game where a player decides, in order."""
    rng = random.Random(seed)
    game = record.new_game(variant, players, first_seat=rng.randrange(players))
    found = []
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            continue
        found.append(game.copy())
        legal = game.legal_moves()
        game.push(legal[rng.randrange(len(legal))])
    return found


@pytest.mark.once  # no database: the SQLite pass is enough
@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [("classic", 2, 1), ("classic", 4, 2), ("classic-grey", 3, 3)],
)
def test_every_legal_decision_prints_and_reads_back_as_its_event(
    variant, players, seed
):
    kinds = set()
    for engine in _positions(variant, players, seed):
        for move in engine.legal_moves():
            printed = moves.fields(move)
            assert all(isinstance(value, str) for value in printed.values())
            assert moves.parse(printed) == _without_seat(move)
            kinds.add(type(move))
            if isinstance(move, Take):
                group = moves.group_value(move.source, move.colour)
                assert moves.parse_group(group) == (move.source, move.colour)
                assert moves.parse_line(moves.line_value(move.line)) == move.line
                assert moves.parse_source(printed["source"]) == move.source
            else:
                assert moves.parse_column(printed["column"]) == move.column
    assert Take in kinds
    assert (WallPlacement in kinds) == (variant == "classic-grey")


def test_the_move_form_reads_what_the_codec_prints():
    for engine in _positions("classic-grey", 2, 5)[:40]:
        for move in engine.legal_moves():
            data = QueryDict(mutable=True)
            data.update({"expected_ply": "12", **moves.fields(move)})
            form = ClassicMoveForm(data)
            assert form.is_valid(), form.errors
            assert form.record_event() == _without_seat(move)
            assert form.cleaned_data["expected_ply"] == 12


def test_values_as_the_board_prints_them():
    assert moves.fields(Take(1, CENTER, COLOURS.index("white"), FLOOR)) == {
        "kind": "take",
        "source": "center",
        "colour": "white",
        "line": "floor",
    }
    assert moves.fields(WallPlacement(0, 4, 0)) == {
        "kind": "wall",
        "line": "4",
        "column": "0",
    }
    assert moves.group_value(3, COLOURS.index("red")) == "3:red"
    assert moves.group_fields(None) == {"kind": "take", "source": "", "colour": ""}
    red = COLOURS.index("red")
    assert moves.selection_query(3, red) == "?group=3%3Ared"
    assert moves.selection_query(CENTER, red, FLOOR) == "?group=center%3Ared&line=floor"
    assert json.loads(moves.destinations_value({FLOOR: 0, 2: 1})) == {
        "2": 1,
        "floor": 0,
    }


@pytest.mark.parametrize(
    "value",
    [
        None,
        "",
        "3",
        ":red",
        "3:",
        "3:pink",
        "3:RED",
        "CENTER:red",
        "centre:red",
        f"{SQUARED}:red",
        "٣:red",  # an Arabic-Indic three
        "100:red",
        "-1:red",
        " 3:red",
        "3:red ",
        "3:red\n",
        "3-red",
        "3:red:2",
        "\x00:red",
        "9" * 5000 + ":red",
    ],
)
def test_a_malformed_group_reads_as_none(value):
    assert moves.parse_group(value) is None


@pytest.mark.parametrize(
    "value", [None, "", "5", "-1", "01", " 1", "1 ", "Floor", "floors", SQUARED, "٣"]
)
def test_a_malformed_line_reads_as_none(value):
    assert moves.parse_line(value) is None


@pytest.mark.parametrize("value", [None, "", "5", "-0", "00", "four", SQUARED])
def test_a_malformed_column_reads_as_none(value):
    assert moves.parse_column(value) is None


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({}, "unreadable", "kind"),
        ({"kind": "steal", "line": "1"}, "unreadable", "kind"),
        ({**TAKE, "source": "x"}, "unreadable", "source"),
        ({**TAKE, "colour": "pink"}, "unreadable", "colour"),
        ({**TAKE, "line": "5"}, "unreadable", "line"),
        ({**TAKE, "line": "floors"}, "unreadable", "line"),
        ({**TAKE, "column": "9"}, "unreadable", "column"),
        ({"kind": "take", "source": "1", "colour": "red"}, "unreadable", "line"),
        ({"kind": "wall", "line": "0", "column": "5"}, "unreadable", "column"),
        ({"kind": "take", "line": "1"}, "no_tiles", None),
        ({"kind": "take", "source": "2", "line": "1"}, "no_tiles", None),
        ({"kind": "wall", "line": "1"}, "no_column", None),
        ({"kind": "wall", "line": "floor", "column": "2"}, "no_column", None),
    ],
)
def test_fields_that_make_no_decision_are_refused(data, code, field):
    with pytest.raises(moves.MoveSyntaxError) as raised:
        moves.parse(data)
    assert raised.value.code == code
    assert raised.value.field == field
    assert isinstance(raised.value, InvalidMoveError)
    assert isinstance(raised.value, ValueError)


def test_the_family_exposes_its_codec():
    assert FAMILY.codec is moves
    assert family_for("classic-grey").codec is moves
