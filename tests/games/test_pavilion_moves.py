"""The Summer Pavilion move codec (docs/moves.md, "Summer Pavilion"): every legal
decision printed and read back is the same record event, and malformed strings
are refused."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.http import QueryDict

from games.engine import record
from games.engine.common import CENTER, InvalidMoveError
from games.engine.pavilion import Bonus, Pass, Place, Take
from games.engine.pavilion_board import COLOURS, STARS
from games.families import family_for
from games.pavilion import FAMILY, moves
from games.pavilion.forms import PavilionMoveForm

from .helpers import pavilion_choose

SQUARED = "²"
SPACE = "space"
RED, BLUE = COLOURS.index("red"), COLOURS.index("blue")


def _without_seat(move: Any) -> dict[str, Any]:
    event = move.to_event()
    del event["seat"]
    return event


def _positions(variant: str, players: int, seed: int) -> list[Any]:
    """Every position of a game of plausible players where one decides, in order
    (a plausible player places often enough to earn bonus tiles)."""
    rng = random.Random(seed)
    game = record.new_game(variant, players, first_seat=rng.randrange(players))
    found = []
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            continue
        found.append(game.copy())
        game.push(pavilion_choose(game, rng))
    return found


@pytest.mark.once  # no database: the SQLite pass is enough
@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [("pavilion", 2, 2), ("pavilion", 4, 1), ("pavilion-grey", 3, 3)],
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
                # a group's own button posts it as one field
                one_click = {"kind": "take", moves.GROUP: group}
                assert moves.parse(one_click) == _without_seat(move)
            elif isinstance(move, Place):
                space = moves.parse_space(printed[moves.SPACE])
                assert space == (move.star, move.space)
                payment = moves.parse_payment(printed["payment"])
                assert payment == (move.colour, move.wilds)
            else:
                prefix = moves.BONUS if isinstance(move, Bonus) else moves.KEEP
                tiles = move.tiles if isinstance(move, Bonus) else move.keep
                counts = moves.parse_counts(printed, prefix)
                assert counts == [tiles.count(c) for c in range(len(COLOURS))]
    assert kinds == {Take, Place, Bonus, Pass}


def test_the_move_form_reads_what_the_codec_prints():
    for engine in _positions("pavilion", 2, 5)[::3]:
        for move in engine.legal_moves()[:30]:
            data = QueryDict(mutable=True)
            data.update({"expected_ply": "7", **moves.fields(move)})
            form = PavilionMoveForm(data)
            assert form.is_valid(), form.errors
            assert form.record_event() == _without_seat(move)
            assert form.cleaned_data["expected_ply"] == 7


def test_values_as_the_board_prints_them():
    assert moves.fields(Take(0, CENTER, RED)) == {
        "kind": "take",
        "source": "center",
        "colour": "red",
    }
    assert moves.fields(Place(1, STARS.index("blue"), 4, BLUE, 1)) == {
        "kind": "place",
        "space": "blue-4",
        "payment": "blue:1",
    }
    assert moves.fields(Pass(0, (RED, RED)))["keep_red"] == "2"
    assert moves.fields(Bonus(0, (BLUE,)))["bonus_purple"] == "0"
    assert moves.space_value(0, 6) == "center-6"
    keep = [0] * len(COLOURS)
    keep[RED] = 2
    assert moves.count_query(moves.PASS_ASKED, moves.KEEP, keep) == (
        "?pass=1&keep_red=2"
    )
    assert moves.count_query({}, moves.BONUS, [0] * len(COLOURS)) == ""
    assert moves.pass_asked({"pass": "1"}) and not moves.pass_asked({"pass": "yes"})


@pytest.mark.parametrize(
    "value",
    [None, "", "3", ":red", "3:", "3:pink", "3-red", f"{SQUARED}:red", "٣:red"]
    + ["100:red", " 3:red", "3:red\n", "3:red:x", "\x00:red", "9" * 5000 + ":red"],
)
def test_a_malformed_group_reads_as_none(value):
    assert moves.parse_group(value) is None


@pytest.mark.parametrize(
    "value",
    [None, "", "red", "red-", "red-0", "red-7", "red-12", "pink-2", "red:2"]
    + ["red-2 ", f"red-{SQUARED}", "red-٣", "center", "-2", "Red-2", "red--2"],
)
def test_a_malformed_space_reads_as_none(value):
    assert moves.parse_space(value) is None


@pytest.mark.parametrize(
    "value", [None, "", "red", "red:", "red:6", "red:-1", "pink:0", "red-1", "red:1 "]
)
def test_a_malformed_payment_reads_as_none(value):
    assert moves.parse_payment(value) is None


@pytest.mark.parametrize("value", ["-1", "100", "1.0", " 2", SQUARED, "٣", "9" * 5000])
def test_a_malformed_count_reads_as_none(value):
    assert moves.parse_count(value) is None
    assert moves.parse_counts({"keep_red": value}, moves.KEEP) is None


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({}, "unreadable", "kind"),
        ({"kind": "steal"}, "unreadable", "kind"),
        ({"kind": "take", "take": "3-red"}, "unreadable", "take"),
        ({"kind": "take", "source": "x", "colour": "red"}, "unreadable", "source"),
        ({"kind": "place", "space": "red-9", "payment": "red:0"}, "unreadable", SPACE),
        ({"kind": "bonus", "bonus_red": SQUARED}, "unreadable", "bonus_red"),
        ({"kind": "pass", "keep_blue": "100"}, "unreadable", "keep_blue"),
        ({"kind": "take"}, "no_tiles", None),
        ({"kind": "take", "source": "2"}, "no_tiles", None),
        ({"kind": "place", "space": "red-2"}, "no_space", None),
        ({"kind": "place", "payment": "red:0"}, "no_space", None),
        ({"kind": "bonus"}, "no_bonus", None),
    ],
)
def test_fields_that_make_no_decision_are_refused(data, code, field):
    with pytest.raises(moves.MoveSyntaxError) as raised:
        moves.parse(data)
    assert raised.value.code == code
    assert raised.value.field == field
    assert isinstance(raised.value, InvalidMoveError)


def test_a_pass_keeping_nothing_reads():
    assert moves.parse({"kind": "pass"}) == {"pass": {"keep": []}}


def test_the_family_exposes_its_codec():
    assert FAMILY.codec is moves
    assert family_for("pavilion-grey").codec is moves
