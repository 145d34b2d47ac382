"""Summer Pavilion refusals are worded from the engine's codes, translatably.

Every code the pavilion engine raises (read from its source with ``ast``) must have
its own wording in ``games/pavilion/words.py``, built from exactly the params the
engine gives; the English message of the engine plays no part.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

import games.engine.pavilion as pavilion_module
from games import selectors, services
from games.engine.common import IllegalMoveError, InvalidMoveError
from games.engine.pavilion_board import COLOURS
from games.families import family_for
from games.models import Game, Move
from games.pavilion import words
from games.pavilion.words import error_message
from games.play import refusals

FALLBACK = "That move is not possible."
HTMX = {"HTTP_HX_REQUEST": "true"}

# A plausible value for each param name the engine uses.
SAMPLE: dict[str, Any] = {
    "allowed": "red",
    "chosen": 1,
    "colour": "red",
    "cost": 4,
    "drawn": 9,
    "factories": 5,
    "factory": 0,
    "field": "colour",
    "have": 1,
    "kept": 5,
    "max": 4,
    "need": 3,
    "only": "green",
    "owed": 2,
    "phase": "place",
    "players": 2,
    "room": 10,
    "round": 2,
    "seat": 1,
    "size": 4,
    "source": 2,
    "space": 4,
    "star": "blue",
    "tiles": 3,
    "to_move": 0,
    "value": "pink",
    "wanted": 2,
    "wilds": 1,
}


def engine_codes() -> dict[str, frozenset[str]]:
    """Each code raised in ``games/engine/pavilion.py`` and its param names."""
    tree = ast.parse(Path(pavilion_module.__file__).read_text(encoding="utf-8"))
    codes: dict[str, frozenset[str]] = {}
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("IllegalMoveError", "InvalidMoveError")
        ):
            continue
        code = node.args[1] if len(node.args) > 1 else None
        assert isinstance(code, ast.Constant), f"line {node.lineno} has no code"
        params = node.args[2] if len(node.args) > 2 else ast.Dict([], [])
        assert isinstance(params, ast.Dict), f"line {node.lineno}: params literal"
        keys = frozenset(k.value for k in params.keys if isinstance(k, ast.Constant))
        codes[code.value] = codes.get(code.value, frozenset()) | keys
    return codes


ENGINE_CODES = engine_codes()


def _error(code: str, keys: frozenset[str] | None = None) -> IllegalMoveError:
    params = {
        key: SAMPLE[key] for key in (ENGINE_CODES[code] if keys is None else keys)
    }
    return IllegalMoveError("an English sentence the site never reads", code, params)


def test_the_engine_raises_many_codes() -> None:
    assert len(ENGINE_CODES) > 40
    assert set(SAMPLE) >= set().union(*ENGINE_CODES.values())


@pytest.mark.parametrize("code", sorted(ENGINE_CODES))
def test_every_engine_code_has_its_own_wording(code: str) -> None:
    """Worded with exactly the params the engine gives; never the fallback."""
    message = error_message(_error(code))
    assert message and message != FALLBACK
    assert "%(" not in message


def test_the_site_words_no_code_the_engine_does_not_raise() -> None:
    assert set(ENGINE_CODES) == words.CODES


@pytest.mark.parametrize("code", sorted(ENGINE_CODES))
def test_every_wording_goes_through_gettext(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in (words, refusals):  # the pavilion's own words, the shared ones
        monkeypatch.setattr(module, "_", lambda text: f"«{text}»")
        monkeypatch.setattr(module, "ngettext", lambda one, many, n: f"«{many}»")
    message = error_message(_error(code))
    assert message.startswith("«") and message.endswith("»")


def test_only_an_unknown_code_falls_back() -> None:
    unknown = IllegalMoveError("red 4 costs 4: with 1 wild you need 3 red", "nope")
    assert error_message(unknown) == FALLBACK
    assert error_message(IllegalMoveError("it is seat 0's turn")) == FALLBACK


@pytest.mark.parametrize(
    ("code", "params", "message"),
    [
        (
            "too_few_tiles_with_wilds",
            {
                "star": "blue",
                "space": 4,
                "cost": 4,
                "colour": "blue",
                "wilds": 1,
                "need": 3,
                "have": 1,
            },
            "That space costs 4: with 1 wild you need 3 blue and have 1.",
        ),
        (
            "star_holds_colour",
            {"star": "center", "colour": "green"},
            "The centre star already holds green: its six tiles must all differ.",
        ),
        (
            "star_takes_its_colour",
            {"star": "red", "colour": "blue", "allowed": "red"},
            "Only red tiles go on the red star.",
        ),
        (
            "star_holds_only",
            {"star": "red", "colour": "blue", "only": "green"},
            # only a grey star holds one colour and refuses others: by place
            "The upper-right star holds only green: it takes green or nothing.",
        ),
        (
            "wild_take_with_others",
            {"source": "center", "colour": "purple"},
            "Purple is wild this round: take another colour "
            "(one purple comes along with it).",
        ),
        (
            "not_enough_wilds",
            {"colour": "orange", "have": 0, "wilds": 2},
            "You have 0 wild orange tiles, not 2.",
        ),
        (
            "bonus_count",
            {"owed": 3, "chosen": 1},
            "Choose exactly 3 tiles from the supply (you chose 1).",
        ),
        ("keep_too_many", {"max": 4, "kept": 6}, "You may keep at most 4 tiles."),
        (
            "deal_short",
            {"factory": 0, "tiles": 3, "size": 4},
            "Factory 1 is dealt 3 tiles while tiles remain to draw.",
        ),
    ],
)
def test_wordings_use_the_params(
    code: str, params: dict[str, Any], message: str
) -> None:
    assert error_message(IllegalMoveError("", code, params)) == message


def test_both_pavilion_sides_word_refusals_the_pavilion_way() -> None:
    """The two engines share codes; the game's family decides whose wording."""
    wild = InvalidMoveError("", "no_such_factory", {"source": 9, "factories": 5})
    pavilion = "That move is not possible: there is no such factory."
    assert family_for("pavilion").error_message(wild) == pavilion
    assert family_for("pavilion-grey").error_message(wild) == pavilion
    assert family_for("classic").error_message(wild) == pavilion  # the same words
    absent = IllegalMoveError("", "colour_absent", {"source": 0, "colour": "red"})
    assert (
        family_for("pavilion").error_message(absent) == "There is no red on factory 1."
    )
    assert family_for("classic").error_message(absent) == "Factory 1 has no red tiles."


@pytest.mark.parametrize(
    ("code", "params", "message"),
    [
        (
            "not_enough_wilds",
            {"colour": "orange", "have": 1, "wilds": 2},
            "You have 1 wild orange tile, not 2.",
        ),
        (
            "bonus_count",
            {"owed": 1, "chosen": 2},
            "Choose exactly 1 tile from the supply (you chose 2).",
        ),
    ],
)
def test_counts_of_one_are_worded_in_the_singular(
    code: str, params: dict[str, Any], message: str
) -> None:
    assert error_message(IllegalMoveError("", code, params)) == message


# ------------------------------------------------------------ through the views


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], random.Random]:
    def seed(value: int) -> random.Random:
        rng = random.Random(value)
        monkeypatch.setattr(services.common, "system_rng", lambda: rng)
        return rng

    return seed


def _refused(client: Any, game: Game, data: dict[str, Any]) -> str:
    before = game.ply
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"expected_ply": before, **data},
        **HTMX,
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.ply == before
    assert Move.objects.filter(game=game).count() == before
    return str(response.content.decode())


@pytest.mark.django_db
def test_taking_a_colour_the_factory_lacks_is_refused_in_words(
    client_for, players, start_game, seeded
):
    seeded(4)
    game = start_game(players[:2], variant="pavilion")
    engine = selectors.game_engine(game)
    number, colour = next(
        (n, c)
        for n, factory in enumerate(engine.factories)
        if any(factory)
        for c in range(6)
        if not factory[c] and c != engine.wild
    )
    mover = game.seats.get(number=game.seat_to_move).user
    page = _refused(
        client_for(mover),
        game,
        {"kind": "take", "source": str(number), "colour": COLOURS[colour]},
    )
    assert f"There is no {COLOURS[colour]} on factory {number + 1}." in page
    assert "holds no" not in page  # not the engine's English


@pytest.mark.django_db
def test_passing_while_taking_is_refused_in_words(
    client_for, players, start_game, seeded
):
    seeded(5)
    game = start_game(players[:3], variant="pavilion-grey")
    mover = game.seats.get(number=game.seat_to_move).user
    page = _refused(client_for(mover), game, {"kind": "pass"})
    assert "You can pass only once all tiles are taken: take tiles now." in page
    assert "phase 2" not in page
