"""The pavilion board's data and drawing, and the move log in words, without views."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from django.template.loader import render_to_string

from games.engine import record
from games.engine.common import CENTER
from games.engine.pavilion import Pass, PavilionGame, Place, Take
from games.engine.pavilion_board import COLOURS, STARS
from games.pavilion import FAMILY
from games.pavilion.board import live_context, position_context
from games.pavilion.words import describe_entries, describe_log

from .helpers import engine_seat_view
from .marks import zones
from .test_pavilion_positions import engine_zones

NAMES = ["ana", "binh", "chloe"]


def _game(variant: str = "pavilion", players: int = 3, seed: int = 7) -> PavilionGame:
    game = record.random_game(variant, players, seed)
    assert isinstance(game, PavilionGame)
    return game


def _replay_to(game: PavilionGame, count: int) -> PavilionGame:
    replay = PavilionGame(game.players, grey=game.grey, first_seat=game.first_seat)
    for event in game.events()[:count]:
        replay.apply_event(event)
    return replay


def _position_html(engine: PavilionGame, names: list[str]) -> str:
    return render_to_string(
        FAMILY.position_template, {"position": position_context(engine, names)}
    )


def _first(game: PavilionGame, wanted: Any) -> PavilionGame:
    """The first position of ``game`` where ``wanted(position)`` holds."""
    for count in range(len(game.events()) + 1):
        position = _replay_to(game, count)
        if wanted(position):
            return position
    raise AssertionError("no such position in the game")


def test_position_partial_renders_from_its_context_alone():
    finished = _game()
    middle = _replay_to(finished, len(finished.events()) // 2)
    html = _position_html(middle, NAMES)
    assert zones(html) == engine_zones(middle)
    assert f"Round {middle.round} of 6" in html
    for seat, name in enumerate(NAMES):
        assert (
            f'<bdi>{name}</bdi> — <span class="pv-score">score {middle.scores[seat]}'
            in html
        )
    # one labelled space per board space, filled ones say their colour
    labels = re.findall(r'title="([a-z]+ star, space \d, cost \d, [a-z]+)"', html)
    assert len(labels) == 42 * 3
    filled = sum(1 for board in middle.boards for c in board if c >= 0)
    assert sum(1 for label in labels if not label.endswith("empty")) == filled
    # read-only: no buttons, no forms
    assert "<button" not in html and "<form" not in html


@pytest.mark.once  # drawing, no database at all
@pytest.mark.parametrize(
    ("variant", "players"), [("pavilion", 4), ("pavilion-grey", 2)]
)
def test_every_zone_is_marked_at_every_event_of_a_game(variant, players):
    game = _game(variant, players, seed=11)
    engine = PavilionGame(players, grey=game.grey, first_seat=game.first_seat)
    names = NAMES + ["dae"]
    for event in game.events():
        engine.apply_event(event)
        assert zones(_position_html(engine, names[:players])) == engine_zones(engine)


def test_bag_and_tower_show_their_counts_by_colour():
    engine = _first(_game(seed=2), lambda e: sum(e.tower) and e.round > 2)
    found = zones(_position_html(engine, NAMES))
    assert found["bag"] == Counter(
        {COLOURS[c]: n for c, n in enumerate(engine.bag) if n}
    )
    assert found["tower"] == Counter(
        {COLOURS[c]: n for c, n in enumerate(engine.tower) if n}
    )


def test_position_shows_completed_structures_and_hands():
    finished = _game(seed=3)
    html = _position_html(finished, NAMES)
    completed = sum(bin(mask).count("1") for mask in finished.completed)
    assert html.count(": complete</title>") == completed
    assert html.count('class="pv-structure') == 18 * 3
    assert "Round 6 of 6" in html


def test_grey_position_prints_grey_costs():
    game = PavilionGame(2, grey=True)
    game.chance(random.Random(1))
    game.chance(random.Random(1))
    html = _position_html(game, NAMES[:2])
    assert html.count('title="centre star, space 1, cost 3, empty"') == 2
    # the blue star of the coloured side, named by its place
    assert html.count('title="right-hand star, space 3, cost 1, empty"') == 2


def test_names_are_escaped_by_the_template():
    engine = _replay_to(_game(), 20)
    html = _position_html(engine, ["<ana>", "binh", "chloe"])
    assert "&lt;ana&gt;" in html and "<ana>" not in html


# ------------------------------------------------------------------ decisions


def _live(engine: PavilionGame, query: dict[str, str] | None = None) -> dict[str, Any]:
    return live_context(
        engine,
        names=NAMES[: engine.players],
        view=engine_seat_view(engine, engine.to_move()),
        query=query or {},
    )


def test_the_mover_is_offered_exactly_the_legal_spaces_as_buttons():
    engine = _first(
        _game(seed=4),
        lambda e: (
            e.phase == "place" and any(isinstance(m, Place) for m in e.legal_moves())
        ),
    )
    seat = engine.to_move()
    legal = {
        f"{STARS[m.star]}-{m.space}"
        for m in engine.legal_moves()
        if isinstance(m, Place)
    }
    board = _live(engine)
    assert board["my_turn"] and board["prompt"] == (
        "Choose a space to place a tile on, or pass."
    )
    html = render_to_string(FAMILY.position_template, {"position": board["position"]})
    offered = re.findall(
        r'<button type="submit" name="space" value="([a-z]+-\d)"', html
    )
    assert set(offered) == legal and len(offered) == len(legal)
    assert zones(html) == engine_zones(engine)  # the buttons hide no tile
    # the viewer's board is theirs; the others' boards offer nothing
    assert html.count('class="pv-player') == 3
    assert f'id="h-pv-player-{seat}"><bdi>{NAMES[seat]}</bdi> (you)' in html


def test_a_spectator_and_a_finished_game_are_offered_nothing():
    engine = _first(_game(seed=4), lambda e: e.phase == "take")
    watching = live_context(
        engine, names=NAMES, view=engine_seat_view(engine, None), query={}
    )
    assert not watching["my_turn"] and watching["prompt"] == ""
    assert watching["position"]["to_move"] == engine.to_move()
    # a game ended by resignation: the engine still has a seat to move
    ended = live_context(
        engine,
        names=NAMES,
        view=engine_seat_view(engine, engine.to_move(), active=False),
        query={},
    )
    assert not ended["my_turn"] and ended["take"] is None
    assert ended["to_move"] is None
    assert not any(p["to_move"] for p in ended["position"]["players"])


def test_the_take_preview_is_what_the_take_brings():
    engine = _first(
        _game(seed=5),
        lambda e: (
            e.phase == "take"
            and any(f[e.wild] and sum(f) > f[e.wild] for f in e.factories)
        ),
    )
    seat, wild = engine.to_move(), engine.wild
    number, tiles = next(
        (i, f) for i, f in enumerate(engine.factories) if f[wild] and sum(f) > f[wild]
    )
    colour = next(c for c in range(6) if tiles[c] and c != wild)
    prompt = "Choose a colour in a factory or the centre."
    assert _live(engine)["prompt"] == prompt
    board = _live(engine, {"take": f"{number}:{COLOURS[colour]}"})
    take = board["take"]
    # the status line says the same once a take is chosen: it keeps its height
    assert board["prompt"] == prompt
    brought = Counter(t["colour"] for t in take["tiles"])
    assert brought == Counter({COLOURS[colour]: tiles[colour], COLOURS[wild]: 1})
    rest = sum(tiles) - tiles[colour] - 1
    assert f"One wild {COLOURS[wild]} tile comes along." in take["notes"]
    if rest:
        assert any(note.startswith(f"{rest} tile") for note in take["notes"])
    # the chosen group is selected, and nothing changed in the engine
    groups = board["position"]["factories"][number]["groups"]
    assert [g["colour"] for g in groups if g["selected"]] == [COLOURS[colour]]
    assert engine.to_move() == seat and engine.factories[number] == tiles


def test_the_first_take_from_the_centre_previews_the_start_token_penalty():
    def centre_first(e: PavilionGame) -> bool:
        return (
            e.phase == "take"
            and e.token_holder is None
            and any(e.centre[c] for c in range(6) if c != e.wild)
        )

    engine = _first(_game(seed=6), centre_first)
    seat = engine.to_move()
    colour = next(c for c in range(6) if engine.centre[c] and c != engine.wild)
    probe = engine.copy()
    probe.play(Take(seat, CENTER, colour))
    before, after = engine.scores[seat], probe.scores[seat]
    notes = _live(engine, {"take": f"center:{COLOURS[colour]}"})["take"]["notes"]
    assert (
        "You are the first to take from the centre: you take the start token and "
        f"lose {before - after} points (score {before} → {after})."
    ) in notes


def _pass_position(e: PavilionGame) -> bool:
    return e.phase == "place" and e.round < 6 and sum(e.hands[e.to_move()]) >= 5


def test_the_pass_preview_is_what_passing_costs():
    engine = _first(_game(seed=8), _pass_position)
    seat = engine.to_move()
    hand = engine.hands[seat]
    keep = [c for c in range(6) for _n in range(hand[c])][:2]
    query = {"pass": "1"}
    for c in set(keep):
        query[f"keep_{COLOURS[c]}"] = str(keep.count(c))
    passing = _live(engine, query)["passing"]
    probe = engine.copy()
    probe.play(Pass(seat, tuple(keep)))
    entry = probe.log[len(engine.log)]
    discarded, lost, score = sum(hand) - 2, entry["penalty"], engine.scores[seat]
    assert passing["error"] == "" and passing["preview"]["discarded"] == discarded
    assert passing["preview"]["summary"] == (
        f"You discard {discarded} tiles and lose {lost} points "
        f"(score {score} → {score - lost})."
    )
    kept = {c["colour"]: c["chosen"] for c in passing["colours"]}
    assert kept == {COLOURS[c]: keep.count(c) for c in range(6) if hand[c]}
    assert {c["colour"]: c["value"] for c in passing["keep"] if c["value"]} == {
        COLOURS[c]: keep.count(c) for c in set(keep)
    }


def test_a_pass_the_engine_refuses_says_why_and_offers_no_pass():
    engine = _first(_game(seed=8), _pass_position)
    hand = engine.hands[engine.to_move()]
    colour = next(c for c in range(6) if hand[c] < 4)
    name = COLOURS[colour]
    passing = _live(engine, {"pass": "1", f"keep_{name}": str(hand[colour] + 1)})[
        "passing"
    ]
    assert passing["preview"] is None
    assert passing["error"] == (
        f"You have {hand[colour]} {name} to keep, not {hand[colour] + 1}."
    )
    unreadable = _live(engine, {"pass": "1", f"keep_{name}": "lots"})["passing"]
    assert unreadable["error"] == "Choose how many tiles of each colour to keep."


def test_the_bonus_prompt_counts_the_tiles_owed():
    engine = _first(_game(seed=4), lambda e: e.phase == "bonus")
    board = _live(engine)
    owed = engine.bonus_owed
    assert board["prompt"] == (
        f"Choose {owed} bonus tile{'s' if owed > 1 else ''} from the supply."
    )
    assert {c["colour"]: c["available"] for c in board["bonus"]["colours"]} == {
        COLOURS[c]: n for c, n in enumerate(engine.supply) if n
    }


# ------------------------------------------------------------------ the log


def test_log_words_a_placement_with_wilds_and_its_bonus():
    for seed in range(40):
        game = _game(seed=seed)
        entries = game.log
        for index, entry in enumerate(entries[:-1]):
            if (
                entry["type"] == "place"
                and entry["wilds"]
                and entry["completed"]
                and entries[index + 1]["type"] == "bonus"
            ):
                break
        else:
            continue
        lines = describe_log(game, NAMES)
        assert len(lines) == len(entries) + len(NAMES)  # and the final bonuses
        bonus = entries[index + 1]["tiles"]
        wanted = (
            f"{NAMES[entry['seat']]} placed {entry['colour']} on the "
            f"{entry['star'].replace('center', 'centre')} star, space "
            f"{entry['space']}, paying "
            f"{entry['cost'] - entry['wilds']} {entry['colour']} + {entry['wilds']} "
            f"{entry['wild_colour']} (wild): +{entry['points']}; "
        )
        assert lines[index].startswith(wanted) and lines[index].endswith(" complete")
        player = NAMES[entry["seat"]]
        assert lines[index + 1] == f"{player} took {', '.join(bonus)} as a bonus"
        assert any(line.startswith("Final bonuses for ana") for line in lines)
        return
    raise AssertionError("no random game placed with wilds and a bonus")


def test_log_words_takes_with_the_start_token_and_passes():
    game = _game(seed=5)
    lines = describe_log(game, NAMES)
    assert sum("took the start token: −" in line for line in lines) == 6
    assert any(" passed, keeping " in line for line in lines)
    assert any(re.search(r"passed; \d+ tiles? left over", line) for line in lines)
    assert any(
        re.search(r"took \d+ [a-z]+ \+ 1 [a-z]+ \(wild\)", line) for line in lines
    )
    assert not any(isinstance(m, Place) for m in game.legal_moves())


def test_each_log_entry_has_its_own_line_then_the_final_bonuses():
    game = _game(seed=4)  # two structures completed with a bonus
    entries = game.log
    texts = describe_entries(entries, NAMES)
    assert len(texts) == len(entries) and all(texts)
    bonuses = [i for i, e in enumerate(entries) if e["type"] == "bonus"]
    assert bonuses, "seed 4 should complete a structure with a bonus"
    for index in bonuses:
        entry = entries[index]
        assert texts[index] == (
            f"{NAMES[entry['seat']]} took {', '.join(entry['tiles'])} as a bonus"
        )
        # the placement before it says what it completed, not what was taken
        assert texts[index - 1].endswith("complete")
    lines = FAMILY.describe_log(game, NAMES)
    assert lines[: len(texts)] == texts
    assert [line.split(":")[0] for line in lines[len(texts) :]] == [
        f"Final bonuses for {name}" for name in NAMES
    ]
    # a game not over has no final bonuses yet
    middle = _replay_to(game, len(game.events()) // 2)
    assert FAMILY.describe_log(middle, NAMES) == describe_entries(middle.log, NAMES)
