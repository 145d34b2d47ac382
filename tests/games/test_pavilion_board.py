"""The read-only pavilion drawing and the move log in words, without views."""

from __future__ import annotations

import random
import re

from django.template.loader import render_to_string

from games.engine import record
from games.engine.pavilion import PavilionGame, Place
from games.pavilion_board import describe_entries, describe_log, position_context

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


def test_position_partial_renders_from_its_context_alone():
    finished = _game()
    middle = _replay_to(finished, len(finished.events()) // 2)
    html = render_to_string(
        "games/pavilion/_position.html", position_context(middle, NAMES)
    )
    assert f"Round {middle.round} of 6" in html
    for seat, name in enumerate(NAMES):
        assert f'{name} — <span class="pv-score">score {middle.scores[seat]}' in html
    # one labelled space per board space, filled ones say their colour
    labels = re.findall(r'title="([a-z]+ star, space \d, cost \d, [a-z]+)"', html)
    assert len(labels) == 42 * 3
    filled = sum(1 for board in middle.boards for c in board if c >= 0)
    assert sum(1 for label in labels if not label.endswith("empty")) == filled
    # read-only: no buttons, no forms
    assert "<button" not in html and "<form" not in html
    # the wild colour and the supply are shown
    assert "wild colour:" in html
    assert f"Bonus supply: {sum(middle.supply)} tile" in html


def test_position_shows_completed_structures_and_hands():
    finished = _game(seed=3)
    html = render_to_string(
        "games/pavilion/_position.html", position_context(finished, NAMES)
    )
    completed = sum(bin(mask).count("1") for mask in finished.completed)
    assert html.count(": complete</title>") == completed
    assert html.count('class="pv-structure') == 18 * 3
    assert "Round 6 of 6" in html


def test_grey_position_prints_grey_costs():
    game = PavilionGame(2, grey=True)
    game.chance(random.Random(1))
    game.chance(random.Random(1))
    html = render_to_string(
        "games/pavilion/_position.html", position_context(game, NAMES[:2])
    )
    assert html.count('title="centre star, space 1, cost 3, empty"') == 2
    assert html.count('title="blue star, space 3, cost 1, empty"') == 2


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
        bonus = entries[index + 1]["tiles"]
        wanted = (
            f"{NAMES[entry['seat']]} placed {entry['colour']} on "
            f"{entry['star'].replace('center', 'centre')}-{entry['space']} paying "
            f"{entry['cost'] - entry['wilds']} {entry['colour']} + {entry['wilds']} "
            f"{entry['wild_colour']} (wild): +{entry['points']}; "
        )
        line = next(line for line in lines if line.startswith(wanted))
        assert line.endswith(f"complete: took {', '.join(bonus)}")
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


def test_each_log_entry_has_its_own_text_and_the_live_log_joins_bonuses():
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
    lines = describe_log(game, NAMES)
    # the live log: every text except bonuses, each bonus joined to its placement
    assert lines[: len(texts) - len(bonuses)] == [
        text + f": took {', '.join(entries[i + 1]['tiles'])}"
        if i + 1 in bonuses
        else text
        for i, text in enumerate(texts)
        if i not in bonuses
    ]
    assert len(lines) == len(texts) - len(bonuses) + len(NAMES)  # final bonuses


def test_spaces_are_drawn_as_they_stand_when_the_page_is_written():
    """A board's spaces are drawn in Python when the template writes them
    (pavilion_board._DrawnLater): marks made on the context after it was built
    (the live page's choices) show, and labels are escaped once."""
    engine = _replay_to(_game(), 20)
    context = position_context(engine, ["<ana>", "binh", "chloe"])
    before = render_to_string("games/pavilion/_position.html", context)
    assert 'name="space"' not in before
    assert "&lt;ana&gt;" in before and "<ana>" not in before
    space = context["players"][0]["spaces"][3]
    space["choice"] = space["selected"] = True
    after = render_to_string("games/pavilion/_position.html", context)
    assert after.count('name="space"') == 1
    button = re.search(r'<button type="submit" name="space"[^>]*>', after).group(0)
    assert f'value="{space["value"]}"' in button
    assert 'class="pv-space choice selected"' in button
    assert 'aria-pressed="true"' in button
    assert (
        after.count('class="pv-diamond choice')
        + after.count('class="pv-diamond filled choice')
        == 1
    )
