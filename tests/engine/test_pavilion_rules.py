"""Summer Pavilion rules, hand-worked positions (``docs/rules/summer-pavilion.md``).

Positions are built by :func:`position`, which sets a new game's attributes
directly, taking every tile it places from the bag so the 132 tiles stay counted.
"""

from __future__ import annotations

import random

import pytest

from games.engine.common import CENTER, IllegalMoveError, InvalidMoveError
from games.engine.pavilion import (
    COLOURS,
    STAR_INDEX,
    Bonus,
    Pass,
    PavilionGame,
    Place,
    Take,
)
from tests.engine.pavilion_positions import counts, position

PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED = range(6)


def full_star(star: str, colour: str | None = None) -> list[tuple[str, int, str]]:
    return [(star, n, colour or star) for n in range(1, 7)]


def fails(game: PavilionGame, move: object, match: str) -> None:
    """``play(move)`` is refused with ``match`` and changes nothing."""

    def state() -> tuple[object, ...]:
        return (
            game.events(),
            game.log[:],
            game.scores[:],
            [h[:] for h in game.hands],
            [b[:] for b in game.boards],
            game.supply[:],
            game.tower[:],
            game.phase,
            game.turn,
        )

    before = state()
    with pytest.raises(IllegalMoveError, match=match):
        game.play(move)  # type: ignore[arg-type]
    assert state() == before


# -- §4 Phase 1: taking ----------------------------------------------------------


def test_s4_1_take_from_factory_takes_one_wild_and_moves_the_rest_to_centre() -> None:
    game = position(
        phase="take",
        factories={0: {"red": 2, "purple": 2}, 1: {"blue": 4}},
    )
    assert game.wild_colour == "purple"
    legal = game.legal_moves()
    assert Take(0, 0, RED) in legal
    assert Take(0, 0, PURPLE) not in legal  # wild with other colours present
    game.play(Take(0, 0, RED))
    assert game.hands[0] == counts({"red": 2, "purple": 1})
    assert game.centre == counts({"purple": 1})
    assert game.factories[0] == [0] * 6
    assert game.to_move() == 1
    assert game.log[-1] == {
        "type": "take",
        "seat": 0,
        "from": 0,
        "colour": "red",
        "tiles": 2,
        "wild": 1,
        "to_centre": ["purple"],
    }


def test_s4_1_choosing_the_wild_colour_beside_others_is_refused() -> None:
    game = position(phase="take", factories={0: {"red": 2, "purple": 2}})
    fails(game, Take(0, 0, PURPLE), "purple is wild this round")
    fails(game, Take(0, 0, BLUE), "factory 0 holds no blue")
    fails(game, Take(0, 1, BLUE), "factory 1 is empty")
    fails(game, Take(1, 0, RED), "it is seat 0's turn")


def test_s4_1_only_wilds_on_a_factory_take_exactly_one() -> None:
    game = position(phase="take", factories={0: {"purple": 3}, 1: {"red": 1}})
    assert [m for m in game.legal_moves() if m.source == 0] == [Take(0, 0, PURPLE)]
    game.play(Take(0, 0, PURPLE))
    assert game.hands[0] == counts({"purple": 1})
    assert game.centre == counts({"purple": 2})


def test_s4_2_centre_take_leaves_the_others_and_takes_one_wild() -> None:
    game = position(
        phase="take",
        round=2,  # green is wild
        centre={"red": 2, "green": 2, "blue": 1},
        factories={0: {"blue": 1}},
        token_holder=1,
    )
    game.play(Take(0, CENTER, RED))
    assert game.hands[0] == counts({"red": 2, "green": 1})
    assert game.centre == counts({"green": 1, "blue": 1})
    assert game.scores == [5, 5]  # the token had already gone


def test_s4_2_only_wilds_in_centre_take_one_the_others_stay() -> None:
    game = position(phase="take", centre={"purple": 3}, token_holder=1)
    assert game.legal_moves() == [Take(0, CENTER, PURPLE)]
    game.play(Take(0, CENTER, PURPLE))
    assert game.centre == counts({"purple": 2})
    assert game.to_move() == 1


def test_s4_3_start_token_penalty_counts_the_wild_and_stops_at_1() -> None:
    """A player at 2 points takes 2 red + 1 wild from the centre: ends at 1."""
    game = position(
        phase="take",
        centre={"red": 2, "purple": 1},
        factories={0: {"blue": 4}},
        scores=[2, 5],
    )
    game.play(Take(0, CENTER, RED))
    assert game.token_holder == 0
    assert game.scores == [1, 5]
    change = game.score_log[-1]
    assert (change.seat, change.points, change.kind) == (0, -1, "start-token")
    assert game.log[-1]["start_token"] is True and game.log[-1]["penalty"] == 1


def test_s4_3_full_start_token_penalty() -> None:
    game = position(phase="take", centre={"red": 3, "purple": 1}, scores=[9, 5])
    game.play(Take(0, CENTER, RED))
    assert game.scores == [5, 5]


def test_s4_5_s5_phase2_starts_with_the_token_holder() -> None:
    game = position(
        3,
        phase="take",
        turn=1,
        round_starter=0,
        centre={"red": 1},
        factories={0: {"blue": 2}},
    )
    game.play(Take(1, CENTER, RED))
    game.play(Take(2, 0, BLUE))
    assert game.phase == "place"
    assert game.to_move() == 1


def test_s4_5_without_a_centre_take_the_start_player_keeps_the_role() -> None:
    game = position(
        3,
        phase="take",
        turn=2,
        round_starter=2,
        factories={0: {"red": 1}},
        supply={"blue": 10},
    )
    game.play(Take(2, 0, RED))
    assert game.phase == "place" and game.to_move() == 2
    for seat in (2, 0, 1):
        game.play(Pass(seat, ()))
    assert game.phase == "deal" and game.round == 2
    game.chance(random.Random(2))
    assert game.to_move() == 2


# -- §5 Phase 2: placing ---------------------------------------------------------


def test_s5_place_cost_4_with_1_real_and_3_wild() -> None:
    game = position(hands={0: {"blue": 1, "purple": 3}})
    game.play(Place(0, STAR_INDEX["blue"], 4, BLUE, 3))
    assert game.space_colour(0, "blue", 4) == "blue"
    assert game.hands[0] == [0] * 6
    assert game.tower == counts({"purple": 3})
    assert game.scores[0] == 6  # a lone tile scores 1
    assert game.log[-1]["paid"] == 1 and game.log[-1]["wilds"] == 3
    assert game.log[-1]["to_tower"] == 3


def test_s5_wilds_only_payment_is_refused() -> None:
    game = position(hands={0: {"orange": 1, "purple": 4}})
    orange = STAR_INDEX["orange"]
    fails(game, Place(0, orange, 4, ORANGE, 4), "at least one orange must be paid")
    bare = position(hands={0: {"purple": 4}})
    fails(
        bare,
        Place(0, orange, 4, ORANGE, 4),
        "you need at least one orange to place on orange 4",
    )
    assert not [
        m for m in bare.legal_moves() if isinstance(m, Place) and m.colour == ORANGE
    ]
    legal = [m for m in game.legal_moves() if isinstance(m, Place) and m.space == 4]
    assert [m.wilds for m in legal if m.star == orange] == [3]


def test_s5_wild_choice_ranges_from_needed_to_cost_minus_one() -> None:
    game = position(hands={0: {"red": 3, "purple": 4}})
    red = STAR_INDEX["red"]
    on_red5 = [
        m.wilds
        for m in game.legal_moves()
        if isinstance(m, Place) and (m.star, m.space) == (red, 5)
    ]
    assert on_red5 == [2, 3, 4]  # max(0, 5 - 3) .. min(5 - 1, 4)
    fails(game, Place(0, red, 5, RED, 1), "with 1 wild you need 4 red and have 3")
    fails(game, Place(0, red, 2, RED, 9), "at most 1 wild")


def test_s5_wild_colour_placed_as_itself_pays_in_its_colour() -> None:
    game = position(round=4, hands={0: {"yellow": 3, "red": 1}})  # yellow wild
    yellow = STAR_INDEX["yellow"]
    fails(game, Place(0, yellow, 3, YELLOW, 1), "wilds must be 0")
    fails(game, Place(0, yellow, 4, YELLOW, 0), "costs 4 yellow and you have 3")
    # A yellow (wild) tile may not stand in on a wild-colour space either.
    game.play(Place(0, yellow, 3, YELLOW, 0))
    assert game.hands[0] == counts({"red": 1})
    assert game.tower == counts({"yellow": 2})


def test_s5_outer_star_takes_only_its_colour_centre_takes_each_colour_once() -> None:
    game = position(
        hands={0: {"red": 4, "blue": 2}},
        boards={0: [("center", 1, "red")]},
    )
    fails(game, Place(0, STAR_INDEX["blue"], 1, RED, 0), "only blue goes on the blue")
    fails(game, Place(0, 0, 2, RED, 0), "the centre star already holds red")
    fails(game, Place(0, 0, 1, BLUE, 0), "center 1 is already filled")
    game.play(Place(0, 0, 2, BLUE, 0))
    assert game.scores[0] == 7  # centre 1 and 2: a run of 2


def test_s5_sixth_tile_of_a_star_scores_6() -> None:
    game = position(
        hands={0: {"green": 4}},
        boards={0: [("green", n, "green") for n in (1, 2, 3, 5, 6)]},
    )
    game.play(Place(0, STAR_INDEX["green"], 4, GREEN, 0))
    assert game.scores[0] == 11
    assert game.score_log[-1].kind == "star" and game.score_log[-1].points == 6


def test_s5_run_wraps_around_the_ring() -> None:
    game = position(
        hands={0: {"blue": 2}},
        boards={0: [("blue", 5, "blue"), ("blue", 6, "blue"), ("blue", 1, "blue")]},
    )
    game.play(Place(0, STAR_INDEX["blue"], 2, BLUE, 0))
    assert game.scores[0] == 5 + 4


def test_s5_statue_and_pillar_at_once_give_3_bonus_tiles() -> None:
    """Red 2 completes the red pillar (1) and the red-blue statue (2): 3 tiles."""
    game = position(
        hands={0: {"red": 2}},
        boards={
            0: [
                ("red", 1, "red"),
                ("red", 3, "red"),
                ("center", 1, "green"),
                ("center", 2, "yellow"),
                ("blue", 3, "blue"),
                ("blue", 4, "blue"),
            ]
        },
        supply={"orange": 2, "green": 3, "yellow": 5},
    )
    game.play(Place(0, STAR_INDEX["red"], 2, RED, 0))
    assert game.scores[0] == 5 + 3  # red 1-2-3
    assert game.phase == "bonus" and game.to_move() == 0 and game.bonus_owed == 3
    assert {(c["kind"], tuple(c["stars"])) for c in game.log[-1]["completed"]} == {
        ("pillar", ("red",)),
        ("statue", ("red", "blue")),
    }
    choices = game.legal_moves()
    assert len(choices) == 9  # multisets of 3 from {orange<=2, green, yellow}
    assert all(isinstance(m, Bonus) and len(m.tiles) == 3 for m in choices)
    fails(game, Bonus(0, (ORANGE, ORANGE, ORANGE)), "the supply holds 2 orange")
    fails(game, Bonus(0, (ORANGE,)), "you must choose 3 tiles")
    fails(game, Pass(0, ()), "you must choose your bonus tiles now")
    game.play(Bonus(0, (ORANGE, GREEN, GREEN)))
    assert game.hands[0] == counts({"orange": 1, "green": 2})
    assert game.supply == counts({"orange": 1, "green": 1, "yellow": 5})
    assert game.phase == "supply"
    event = game.chance(random.Random(0))
    assert len(event["supply"]) == 3 and sum(game.supply) == 10
    assert game.to_move() == 1


def test_s5_window_bonus_is_3_and_bonuses_add_up_with_the_star() -> None:
    game = position(
        hands={0: {"blue": 6}},
        boards={0: [("blue", 5, "blue")]},
        supply={"red": 10},
    )
    game.play(Place(0, STAR_INDEX["blue"], 6, BLUE, 0))
    assert game.bonus_owed == 3
    assert game.legal_moves() == [Bonus(0, (RED, RED, RED))]


def test_s5_supply_short_of_tiles_gives_what_it_has() -> None:
    game = position(
        hands={0: {"blue": 6}},
        boards={0: [("blue", 5, "blue")]},
        supply={"red": 1, "green": 1},
    )
    game.play(Place(0, STAR_INDEX["blue"], 6, BLUE, 0))
    assert game.bonus_owed == 2
    assert game.legal_moves() == [Bonus(0, (GREEN, RED))]
    game.play(Bonus(0, (GREEN, RED)))
    assert game.supply == [0] * 6
    assert game.log[-2]["bonus_owed"] == 3 and game.log[-2]["bonus_available"] == 2


def test_s5_empty_supply_means_no_bonus_decision() -> None:
    game = position(
        hands={0: {"blue": 6}}, boards={0: [("blue", 5, "blue")]}, supply={}
    )
    game.bag = [0] * 6  # nothing to refill from either
    game.tower = [0] * 6
    game.hands[1] = [22, 22, 22, 22, 15, 22]  # keep the 132 tiles counted
    assert game.tile_total() == 132
    game.play(Place(0, STAR_INDEX["blue"], 6, BLUE, 0))
    assert game.log[-1]["bonus_owed"] == 3 and game.log[-1]["bonus_available"] == 0
    # The 5 blue paid went to the tower: the refill pours it into the bag.
    assert game.phase == "supply" and game.to_move() is None
    event = game.chance(random.Random(3))
    assert event == {"supply": ["blue"] * 5}
    assert game.log[-1]["poured"] == 5
    assert game.to_move() == 1 and sum(game.supply) == 5
    game.play(Pass(1, (RED, RED, RED, RED)))
    assert game.phase == "supply"  # the discards can be drawn now
    assert len(game.chance(random.Random(3))["supply"]) == 5


def test_s5_supply_refilled_after_every_phase2_turn() -> None:
    game = position(
        hands={0: {"red": 1}, 1: {"blue": 1}},
        supply={"red": 9},
    )
    game.play(Place(0, STAR_INDEX["red"], 1, RED, 0))
    assert game.needs_chance() and game.to_move() is None
    game.chance(random.Random(0))
    assert sum(game.supply) == 10 and game.to_move() == 1
    game.play(Place(1, STAR_INDEX["blue"], 1, BLUE, 0))
    assert not game.needs_chance() and game.to_move() == 0


def test_s5_refill_after_the_last_turn_of_a_round_comes_before_the_deal() -> None:
    game = position(supply={"red": 8}, passed=[1])
    game.play(Pass(0, ()))
    assert game.phase == "supply" and game.round == 1
    assert game.round_scores == [[5, 5]]
    game.chance(random.Random(0))
    assert game.phase == "deal" and game.round == 2
    assert [e for e in game.events()][-1]["supply"]


def test_s5_pass_with_6_tiles_keeping_4() -> None:
    game = position(
        hands={0: {"red": 3, "blue": 2, "green": 1}}, scores=[10, 5], supply={"red": 10}
    )
    game.play(Pass(0, (BLUE, RED, RED, RED)))
    assert game.scores[0] == 8
    assert game.corners[0] == counts({"red": 3, "blue": 1})
    assert game.hands[0] == [0] * 6
    assert game.tower == counts({"blue": 1, "green": 1})
    assert game.log[-1]["kept"] == ["blue", "red", "red", "red"]
    assert game.log[-1]["discarded"] == ["green", "blue"]
    assert game.passed == [True, False] and game.to_move() == 1
    # Kept tiles come back to the hand at the start of the next round (§6).
    game.play(Pass(1, ()))
    assert game.round == 2 and game.hands[0] == counts({"red": 3, "blue": 1})
    assert game.corners[0] == [0] * 6


def test_s5_pass_keeping_too_many_or_missing_tiles_is_refused() -> None:
    game = position(hands={0: {"red": 5, "blue": 1}})
    fails(game, Pass(0, (RED,) * 5), "you may keep at most 4 tiles")
    fails(game, Pass(0, (BLUE, BLUE)), "you have 1 blue to keep, not 2")


def test_s5_pass_options_are_distinct_keep_multisets() -> None:
    game = position(hands={0: {"red": 5, "blue": 1}})
    keeps = [m.keep for m in game.legal_moves() if isinstance(m, Pass)]
    assert len(keeps) == len(set(keeps)) == 1 + 2 + 2 + 2 + 2  # sizes 0..4


def test_s5_discard_penalty_never_below_1() -> None:
    game = position(hands={0: {"red": 7}}, scores=[3, 5])
    game.play(Pass(0, ()))
    assert game.scores[0] == 1
    assert game.score_log[-1].points == -2 and game.score_log[-1].kind == "discard"


def test_s5_passed_players_are_skipped() -> None:
    game = position(3, hands={0: {"red": 1}, 2: {"blue": 1}}, passed=[1])
    game.play(Place(0, STAR_INDEX["red"], 1, RED, 0))
    assert game.to_move() == 2


def test_s5_play_out_of_phase_or_turn_is_refused() -> None:
    game = position(phase="take", factories={0: {"red": 1}}, hands={0: {"red": 1}})
    fails(game, Place(0, 3, 1, RED, 0), "placed in phase 2")
    fails(game, Pass(0, ()), "you can pass only in phase 2")
    fails(game, Bonus(0, ()), "no bonus tiles are owed")
    with pytest.raises(InvalidMoveError):
        game.play(Take(0, 12, RED))
    fresh = PavilionGame(2)
    with pytest.raises(IllegalMoveError, match="supply must be refilled"):
        fresh.play(Take(0, 0, RED))


# -- §6 Between rounds -------------------------------------------------------------


def test_s6_empty_deal_phase1_has_no_turns() -> None:
    game = position(phase="deal", round=3, round_starter=1)
    game.hands[0] = game.bag
    game.bag = [0] * 6
    event = {"deal": [[] for _ in range(5)]}
    game.apply_event(event)
    assert game.phase == "place" and game.to_move() == 1
    assert game.events()[-1] == event


def test_s6_deal_short_while_tiles_remain_is_illegal() -> None:
    game = position(phase="deal")
    short = {"deal": [["red"] * 4] * 4 + [["red"] * 3]}
    with pytest.raises(IllegalMoveError, match="factory 4 gets 3 tiles"):
        game.apply_event(short)
    with pytest.raises(InvalidMoveError, match="must list 5 factories"):
        game.apply_event({"deal": [["red"] * 4] * 4})
    game.bag = counts({"red": 3})
    game.tower = [0] * 6
    with pytest.raises(IllegalMoveError, match="red cannot be drawn"):
        game.apply_event({"deal": [["red"] * 4] + [[]] * 4})
    assert game.phase == "deal" and not game.events()


def test_s5_draws_pour_the_tower_only_when_the_bag_is_empty() -> None:
    game = position(phase="deal")
    game.tower = game.bag
    game.bag = counts({"red": 2})
    game.tower[RED] -= 2
    # Two reds from the bag, then the tower is poured: blue is drawable.
    game.apply_event({"deal": [["red", "red", "blue", "blue"]] + [["green"] * 4] * 4})
    assert game.log[-1]["poured"] > 0
    other = position(phase="deal")
    other.tower = other.bag
    other.bag = counts({"red": 2})
    other.tower[RED] -= 2
    with pytest.raises(IllegalMoveError, match="blue cannot be drawn"):
        other.apply_event({"deal": [["blue"] * 4] * 5})


# -- §7 End of game ----------------------------------------------------------------


def test_s7_round6_leftovers_and_no_keeping() -> None:
    game = position(round=6, hands={0: {"red": 2, "blue": 1}}, supply={"red": 3})
    assert [m for m in game.legal_moves() if isinstance(m, Pass)] == [Pass(0, ())]
    fails(game, Pass(0, (RED,)), "nothing can be kept after round 6")
    game.play(Pass(0, ()))
    assert game.scores[0] == 2 and game.score_log[-1].kind == "leftover"
    assert game.phase == "supply"  # refills go on in round 6, except at the end
    game.chance(random.Random(0))
    game.play(Pass(1, ()))
    assert game.is_over() and not game.needs_chance()  # no refill after the end
    assert len(game.round_scores) == 6
    assert game.log[-1]["game_over"] is True


def test_s5_no_refill_after_the_last_turn_of_round_6() -> None:
    game = position(round=6, supply={"red": 3}, passed=[1])
    game.play(Pass(0, ()))
    assert game.is_over() and not game.needs_chance() and game.to_move() is None
    assert game.supply == counts({"red": 3})
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play(Pass(0, ()))
    with pytest.raises(IllegalMoveError, match="already over"):
        game.apply_event({"supply": ["red"]})


def test_s7_end_bonuses_for_stars_and_numbers() -> None:
    board = [(name, n, name) for name in ("purple", "orange") for n in range(1, 7)]
    board += [
        ("center", 1, "red"),
        ("center", 2, "blue"),
        ("center", 3, "green"),
        ("center", 4, "yellow"),
        ("center", 5, "orange"),
        ("center", 6, "purple"),
    ]
    ones = [(name, 1, name) for name in ("red", "blue", "yellow", "green")]
    game = position(round=6, boards={0: board + ones, 1: [("red", 1, "red")]})
    game.play(Pass(0, ()))
    game.play(Pass(1, ()))
    assert game.round_scores[-1] == [5, 5]
    # purple 20 + orange 17 + centre 12 + all 1s 4; the 2s are not all filled
    assert game.scores == [5 + 20 + 17 + 12 + 4, 5]
    kinds = [(c.kind, c.points) for c in game.score_log if c.seat == 0]
    assert kinds == [
        ("star-bonus", 12),
        ("star-bonus", 20),
        ("star-bonus", 17),
        ("number-bonus", 4),
    ]
    result = game.result()
    assert result["breakdown"][0] == {
        "start": 5,
        "star-bonus": 49,
        "number-bonus": 4,
    }


def test_s7_all_numbers_filled_earn_4_8_12_16() -> None:
    board = [(star, n, star) for star in pvstars() for n in (1, 2, 3, 4)]
    board += [("center", n, c) for n, c in zip((1, 2, 3, 4), COLOURS, strict=False)]
    game = position(round=6, boards={0: board})
    game.play(Pass(0, ()))
    game.play(Pass(1, ()))
    assert game.scores[0] == 5 + 4 + 8 + 12 + 16


def pvstars() -> list[str]:
    return ["purple", "orange", "red", "blue", "yellow", "green"]


def test_s7_ties_are_shared() -> None:
    game = position(3, round=6, scores=[9, 9, 4])
    for seat in range(3):
        game.play(Pass(seat, ()))
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.ranks == (1, 1, 3)
    assert game.result()["winners"] == [0, 1]
    other = position(3, round=6, scores=[4, 9, 4])
    for seat in range(3):
        other.play(Pass(seat, ()))
    assert other.result()["ranks"] == [2, 1, 2]


# -- §8 Grey side ----------------------------------------------------------------


def test_s8_grey_star_with_one_tile_takes_any_colour() -> None:
    game = position(
        grey=True, hands={0: {"red": 3}}, boards={0: [("blue", 1, "green")]}
    )
    game.play(Place(0, STAR_INDEX["blue"], 2, RED, 1 - 1))
    assert game.scores[0] == 7  # blue 1-2


def test_s8_grey_two_matching_tiles_allow_only_that_colour() -> None:
    game = position(
        grey=True,
        hands={0: {"red": 3, "green": 3}},
        boards={0: [("blue", 1, "green"), ("blue", 2, "green")]},
    )
    fails(game, Place(0, STAR_INDEX["blue"], 3, RED, 0), "holds only green")
    placeable = {(m.star, m.colour) for m in game.legal_moves() if isinstance(m, Place)}
    assert (STAR_INDEX["blue"], GREEN) in placeable
    assert (STAR_INDEX["blue"], RED) not in placeable
    game.play(Place(0, STAR_INDEX["blue"], 3, GREEN, 0))  # grey blue 3 costs 1


def test_s8_grey_two_different_tiles_allow_only_new_colours() -> None:
    game = position(
        grey=True,
        hands={0: {"red": 3, "green": 3}},
        boards={0: [("center", 1, "green"), ("center", 2, "yellow")]},
    )
    fails(game, Place(0, 0, 3, GREEN, 0), "the centre star already holds green")
    game.play(Place(0, 0, 3, RED, 0))  # grey centre costs 3
    assert game.hands[0] == counts({"green": 3})
    assert game.scores[0] == 5 + 3


def test_s8_grey_star_bonus_by_the_colour_it_ended_with() -> None:
    board = full_star("blue", "purple") + [
        ("center", n, c) for n, c in zip(range(1, 7), COLOURS, strict=True)
    ]
    board += full_star("red", "red")
    game = position(3, grey=True, round=6, boards={0: board, 1: full_star("green")})
    for seat in range(3):
        game.play(Pass(seat, ()))
    # purple 20 on the blue star, six colours 12 in the centre, red 14
    # grey all 3s: centre (6) + every outer n=1 — not all filled: no number bonus.
    # grey all 1s: outer n=3 spaces, only blue-3/red-3 filled: none.
    assert game.scores[0] == 5 + 20 + 12 + 14
    assert game.scores[1] == 5 + 18


def test_s8_grey_number_bonus_uses_grey_costs() -> None:
    # All n=3 outer spaces cost 1 on the grey side.
    board = [(star, 3, "red") for star in pvstars()]
    game = position(grey=True, round=6, boards={0: board})
    game.play(Pass(0, ()))
    game.play(Pass(1, ()))
    assert game.scores[0] == 5 + 4


# -- copy, events, logs ------------------------------------------------------------


def test_copy_is_independent() -> None:
    game = position(hands={0: {"red": 2, "blue": 1}}, supply={"red": 5})
    twin = game.copy()
    twin.play(Place(0, STAR_INDEX["red"], 2, RED, 0))
    assert game.hands[0] == counts({"red": 2, "blue": 1})
    assert game.boards[0] == [-1] * 42 and game.filled[0] == 0
    assert game.scores == [5, 5] and not game.score_log and not game.log
    assert twin.scores == [6, 5]


def test_moves_print_and_turn_into_events() -> None:
    assert Take(1, CENTER, RED).to_event() == {
        "seat": 1,
        "from": "center",
        "colour": "red",
    }
    assert str(Take(1, 3, RED)) == "1:take:f3:red"
    place = Place(0, STAR_INDEX["blue"], 4, BLUE, 1)
    assert place.to_event() == {
        "seat": 0,
        "star": "blue",
        "space": 4,
        "colour": "blue",
        "wilds": 1,
    }
    assert str(place) == "0:place:blue-4:blue:w1"
    assert Bonus(2, (PURPLE, RED)).to_event() == {
        "seat": 2,
        "bonus": ["purple", "red"],
    }
    assert Pass(0, (RED, RED)).to_event() == {
        "seat": 0,
        "pass": {"keep": ["red", "red"]},
    }
    assert str(Pass(0, ())) == "0:pass:"


def test_apply_event_checks_seat_and_shape() -> None:
    game = position(hands={0: {"red": 2}})
    with pytest.raises(IllegalMoveError, match="it is seat 0's turn"):
        game.apply_event({"seat": 1, "pass": {"keep": []}})
    with pytest.raises(InvalidMoveError):
        game.apply_event({"seat": 0, "star": "pink", "space": 1, "colour": "red"})
    with pytest.raises(InvalidMoveError):
        game.apply_event({"seat": 0, "pass": {"keep": ["rouge"]}})
    with pytest.raises(InvalidMoveError):
        game.apply_event({"seat": 0, "pass": []})
    with pytest.raises(InvalidMoveError):
        game.apply_event({"seat": 0, "star": "red", "space": 1, "colour": "red"})
    with pytest.raises(IllegalMoveError, match="no supply draw is due"):
        game.apply_event({"supply": ["red"]})
    with pytest.raises(IllegalMoveError, match="no deal is due"):
        game.apply_event({"deal": [[]] * 5})
    game.apply_event(
        {"seat": 0, "star": "red", "space": 2, "colour": "red", "wilds": 0, "x": 1}
    )
    assert game.events() == [
        {"seat": 0, "star": "red", "space": 2, "colour": "red", "wilds": 0}
    ]


def test_supply_event_must_fill_up_to_10_when_it_can() -> None:
    game = PavilionGame(2)
    with pytest.raises(IllegalMoveError, match="stops at 9 of 10"):
        game.apply_event({"supply": ["red"] * 9})
    with pytest.raises(IllegalMoveError, match="room for 10 tiles, not 11"):
        game.apply_event({"supply": ["red"] * 11})
    with pytest.raises(IllegalMoveError, match="at least one tile"):
        game.apply_event({"supply": []})
    game.apply_event({"supply": ["red"] * 10})
    assert game.supply == counts({"red": 10}) and game.phase == "deal"


def test_first_round_starts_at_first_seat_and_token_starts_in_centre() -> None:
    game = PavilionGame(3, first_seat=2)
    rng = random.Random(5)
    game.chance(rng)
    game.chance(rng)
    assert game.phase == "take" and game.to_move() == 2 and game.token_holder is None
    assert sum(sum(f) for f in game.factories) == 28
