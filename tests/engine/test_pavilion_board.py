"""Summer Pavilion board geometry against ``docs/rules/summer-pavilion.md`` §2, §7
and §8."""

from __future__ import annotations

import pytest

from games.engine import pavilion as pv
from games.engine import pavilion_board as board


def outer(s: int) -> str:
    """Name of outer star ``s`` (1-6, wrapping) in the internal order of §2."""
    return board.STARS[(s - 1) % 6 + 1]


def test_s2_stars_go_clockwise_from_purple_in_the_internal_order() -> None:
    assert board.STARS == (
        "center",
        "purple",
        "orange",
        "red",
        "blue",
        "yellow",
        "green",
    )
    assert pv.STAR_COLOUR[1:] == tuple(
        board.COLOURS.index(name) for name in board.STARS[1:]
    )


def test_s1_wild_colour_by_round() -> None:
    assert board.COLOURS == ("purple", "green", "orange", "yellow", "blue", "red")
    game = pv.PavilionGame(2)
    for r, name in enumerate(board.COLOURS, start=1):
        game.round = r
        assert game.wild_colour == name


@pytest.mark.parametrize("s", range(1, 7))
def test_s2_pillar_spaces_follow_the_formula(s: int) -> None:
    expected = {
        (outer(s), 2),
        (outer(s), 3),
        ("center", (s + 3) % 6 + 1),
        ("center", (s + 4) % 6 + 1),
    }
    assert set(board.PILLARS[outer(s)]) == expected


def test_s2_pillar_examples_from_the_rules() -> None:
    assert set(board.PILLARS["blue"]) == {
        ("blue", 2),
        ("blue", 3),
        ("center", 2),
        ("center", 3),
    }
    assert set(board.PILLARS["orange"]) == {
        ("orange", 2),
        ("orange", 3),
        ("center", 6),
        ("center", 1),
    }


@pytest.mark.parametrize("s", range(1, 7))
def test_s2_statue_spaces_follow_the_formula(s: int) -> None:
    expected = {(outer(s), 1), (outer(s), 2), (outer(s + 1), 3), (outer(s + 1), 4)}
    assert set(board.STATUES[(outer(s), outer(s + 1))]) == expected


def test_s2_statue_between_red_and_blue() -> None:
    assert set(board.STATUES[("red", "blue")]) == {
        ("red", 1),
        ("red", 2),
        ("blue", 3),
        ("blue", 4),
    }


@pytest.mark.parametrize("s", range(1, 7))
def test_s2_window_spaces(s: int) -> None:
    assert set(board.WINDOWS[outer(s)]) == {(outer(s), 5), (outer(s), 6)}


def test_s2_structures_have_their_bonuses_and_count() -> None:
    kinds = [s.kind for s in pv.STRUCTURES]
    assert kinds == ["pillar"] * 6 + ["statue"] * 6 + ["window"] * 6
    assert [s.bonus for s in pv.STRUCTURES] == [1] * 6 + [2] * 6 + [3] * 6
    # Every centre space touches two pillars; red 2 touches a pillar and a statue.
    for n in range(1, 7):
        index = pv.space_index(("center", n))
        assert [pv.STRUCTURES[j].kind for j in pv.SPACE_STRUCTURES[index]] == [
            "pillar",
            "pillar",
        ]
    red2 = pv.SPACE_STRUCTURES[pv.space_index(("red", 2))]
    assert sorted(pv.STRUCTURES[j].kind for j in red2) == ["pillar", "statue"]


def test_s2_coloured_costs_are_the_space_numbers() -> None:
    for star in range(7):
        for n in range(1, 7):
            assert pv.COSTS_COLOURED[star * 6 + n - 1] == n


def test_s8_grey_costs() -> None:
    for star in range(1, 7):
        for n in range(1, 7):
            assert pv.COSTS_GREY[star * 6 + n - 1] == [3, 2, 1, 4, 5, 6][n - 1]
    assert pv.COSTS_GREY[:6] == (3, 3, 3, 3, 3, 3)
    game = pv.PavilionGame(2, grey=True)
    assert game.cost(0, 5) == 3 and game.cost(4, 1) == 3 and game.cost(4, 3) == 1


def test_s7_s8_number_bonus_masks() -> None:
    counts = [bin(mask).count("1") for mask, _ in pv.NUMBER_MASKS_COLOURED]
    assert counts == [7, 7, 7, 7]
    grey = [bin(mask).count("1") for mask, _ in pv.NUMBER_MASKS_GREY]
    assert grey == [6, 6, 12, 6]  # all 3s on the grey side = 12 spaces (§8)
    assert [bonus for _, bonus in pv.NUMBER_MASKS_COLOURED] == [4, 8, 12, 16]


def test_s7_star_bonuses() -> None:
    assert board.STAR_BONUS == {
        "center": 12,
        "red": 14,
        "blue": 15,
        "yellow": 16,
        "orange": 17,
        "green": 18,
        "purple": 20,
    }


def test_s5_ring_run_lengths() -> None:
    def mask(*spaces: int) -> int:
        return sum(1 << (n - 1) for n in spaces)

    assert pv.RUN[mask(4)][3] == 1  # a lone tile scores 1
    assert pv.RUN[mask(1, 2, 3, 4, 5, 6)][3] == 6  # the sixth tile scores 6
    assert pv.RUN[mask(5, 6, 1, 2)][1] == 4  # runs wrap from 6 to 1
    assert pv.RUN[mask(1, 2, 4)][1] == 2  # a gap breaks the run
    assert pv.RUN[mask(1, 2, 3, 5, 6)][0] == 5  # 5-6-1-2-3
