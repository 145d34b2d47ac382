"""Stars and spaces in the players' words: "orange star, space 3"; on the grey side
a star is named by its place on the board, never by a colour
(docs/rules/summer-pavilion.md §2, §8). The machine values (``orange-3``) stay in
forms and marks."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template.loader import render_to_string

from games.engine import record
from games.engine.common import IllegalMoveError, ScoreChange
from games.engine.pavilion import PavilionGame, Place
from games.engine.pavilion_board import STARS
from games.pavilion import FAMILY
from games.pavilion.board import _star_centre, live_context, position_context
from games.pavilion.words import (
    STAR_PLACES,
    describe_log,
    error_message,
    final_bonus_lines,
    space_label,
    star_label,
    structure_label,
)

from .helpers import engine_seat_view
from .test_pavilion_error_messages import ENGINE_CODES, _error

NAMES = ["ana", "binh", "chloe"]
COLOUR_STAR = re.compile(r"\b(purple|green|orange|yellow|blue|red) star\b")
"""A star named by a colour: never on the grey side."""


def _game(variant: str, seed: int = 7) -> PavilionGame:
    game = record.random_game(variant, 3, seed)
    assert isinstance(game, PavilionGame)
    return game


def _replay_to(game: PavilionGame, count: int) -> PavilionGame:
    replay = PavilionGame(game.players, grey=game.grey, first_seat=game.first_seat)
    for event in game.events()[:count]:
        replay.apply_event(event)
    return replay


# ------------------------------------------------------------------ names


def test_a_space_is_named_by_its_star_and_its_number():
    assert space_label("orange", 3) == "orange star, space 3"
    assert space_label("center", 2) == "centre star, space 2"
    assert star_label("blue") == "blue star"
    assert space_label("orange", 3, grey=True) == "upper-left star, space 3"
    assert space_label("center", 2, grey=True) == "centre star, space 2"


def test_grey_stars_are_named_by_where_the_board_draws_them():
    """Each place name says where ``board.py`` puts the star: upper/lower by its
    height, left/right by its side; no colour, and no two stars alike."""
    names = {star: star_label(star, grey=True) for star in STARS}
    assert len(set(names.values())) == 7
    assert names["center"] == "centre star"
    for star in STARS[1:]:
        name = names[star]
        assert not COLOUR_STAR.search(name) and star not in name
        x, y = _star_centre(star)
        assert ("upper" in name) == (y < 49), name
        assert ("lower" in name) == (y > 51), name
        assert ("left" in name) == (x < 50), name
        assert ("right" in name) == (x > 50), name
    assert set(STAR_PLACES) == set(STARS)


def test_structures_on_the_grey_side_name_their_stars_by_place():
    assert structure_label("pillar", ["blue"]) == "pillar of the blue star"
    assert structure_label("pillar", ["blue"], grey=True) == (
        "pillar of the right-hand star"
    )
    assert structure_label("statue", ["red", "blue"], grey=True) == (
        "statue between the upper-right star and the right-hand star"
    )


# ------------------------------------------------------------------ the log


def test_the_log_names_each_placement_by_star_and_space():
    game = _game("pavilion")
    lines = describe_log(game, NAMES)
    places = [(i, e) for i, e in enumerate(game.log) if e["type"] == "place"]
    assert places
    for index, entry in places:
        star = "centre" if entry["star"] == "center" else entry["star"]
        assert f" on the {star} star, space {entry['space']}, paying " in lines[index]
    assert not any(re.search(r"\b[a-z]+-\d\b", line) for line in lines)


@pytest.mark.parametrize("seed", [3, 7])
def test_the_log_of_a_grey_game_names_no_star_by_colour(seed):
    game = _game("pavilion-grey", seed)
    lines = describe_log(game, NAMES)
    assert not [line for line in lines if COLOUR_STAR.search(line)]
    places = [(i, e) for i, e in enumerate(game.log) if e["type"] == "place"]
    for index, entry in places:
        place = star_label(entry["star"], grey=True)
        assert f" on the {place}, space {entry['space']}, paying " in lines[index]
    # the final bonuses too: a complete grey star by its place
    finals = final_bonus_lines(game, NAMES)
    assert not [line for line in finals if COLOUR_STAR.search(line)]


def test_final_bonuses_on_the_grey_side_say_the_scheme_of_a_star_by_place():
    game = PavilionGame(3, grey=True)
    game.score_log.extend(
        [
            ScoreChange(6, 0, 18, "star-bonus", "orange star, all green"),
            ScoreChange(6, 0, 12, "star-bonus", "center star, six colours"),
        ]
    )
    assert final_bonus_lines(game, NAMES)[0] == (
        "Final bonuses for ana: upper-left star (all green) +18, "
        "centre star (six colours) +12 — final score 5"
    )


# ------------------------------------------------------------------ the board


def _labels(html: str) -> list[str]:
    return re.findall(r'(?:title|aria-label)="([^"]*)"', html)


def test_the_grey_board_names_no_star_by_colour():
    finished = _game("pavilion-grey", 3)
    middle = _replay_to(finished, len(finished.events()) * 2 // 3)
    html = render_to_string(
        FAMILY.position_template, {"position": position_context(middle, NAMES)}
    )
    labels = _labels(html)
    assert sum("star, space" in label for label in labels) == 42 * 3
    assert not [label for label in labels if COLOUR_STAR.search(label)]
    assert "pillar of the left-hand star" in html
    # the machine values keep their colours
    assert 'class="pv-at-purple-3"' in html


def test_choosing_a_grey_space_titles_it_by_place():
    def placing(e: PavilionGame) -> bool:
        return e.phase == "place" and any(isinstance(m, Place) for m in e.legal_moves())

    game = _game("pavilion-grey", 3)
    engine = next(
        e
        for e in (_replay_to(game, n) for n in range(len(game.events())))
        if placing(e)
    )
    move = next(m for m in engine.legal_moves() if isinstance(m, Place))
    board = live_context(
        engine,
        names=NAMES,
        view=engine_seat_view(engine, engine.to_move()),
        query={"space": f"{STARS[move.star]}-{move.space}"},
    )
    title = board["place"]["title"]
    assert title.startswith(
        f"Place on the {star_label(STARS[move.star], grey=True)}, space {move.space}"
    )
    assert not COLOUR_STAR.search(title)
    assert board["place"]["space"] == f"{STARS[move.star]}-{move.space}"


# ------------------------------------------------------------------ refusals


def test_no_refusal_names_a_star_by_colour_but_the_coloured_sides_own():
    """A refusal does not know the side it was made on: only the one refusal
    that only the coloured side makes ("Only red tiles go on the red star.")
    names a star by colour."""
    found: dict[str, str] = {}
    for code in ENGINE_CODES:
        message = error_message(_error(code))
        if COLOUR_STAR.search(message):
            found[code] = message
    assert set(found) == {"star_takes_its_colour"}


@pytest.mark.parametrize(
    ("code", "params", "message"),
    [
        (
            "star_holds_colour",
            {"star": "orange", "colour": "red"},
            "The upper-left star already holds red: its six tiles must all differ.",
        ),
        (
            "space_filled",
            {"star": "green", "space": 2},
            "That space is already filled.",
        ),
        (
            "too_few_tiles",
            {"star": "red", "space": 4, "cost": 4, "colour": "red", "have": 1},
            "That space costs 4 red; you have 1.",
        ),
    ],
)
def test_refusals_name_a_space_without_its_colour(
    code: str, params: dict[str, Any], message: str
) -> None:
    assert error_message(IllegalMoveError("", code, params)) == message
