"""A Summer Pavilion take is labelled with what it brings, not with what its
source holds (issue #25 item 9): a factory of wild tiles only gives one of them
(``docs/rules/summer-pavilion.md §4.1``, ``§4.2``), and a colour beside wild
tiles brings one wild along."""

from __future__ import annotations

import re
from html import unescape

from django.template.loader import render_to_string

from games.engine.pavilion import PavilionGame, Take
from games.engine.pavilion_board import COLOURS
from games.pavilion import FAMILY
from games.pavilion.board import live_context
from games.pavilion.words import describe_log

from .helpers import engine_seat_view

NAMES = ["ana", "binh"]
SUPPLY = ["green", "blue", "orange", "orange", "green", "orange", "yellow"]
SUPPLY += ["blue", "red", "yellow"]
# Round 1: purple is wild.
DEAL = [
    ["purple", "purple", "purple", "purple"],  # factory 1: wild tiles only
    ["red", "red", "purple", "green"],  # factory 2: red and green, one wild
    ["yellow", "yellow", "blue", "red"],
    ["blue", "green", "green", "blue"],
    ["orange", "blue", "yellow", "red"],
]


def _engine() -> PavilionGame:
    engine = PavilionGame(2)
    engine.apply_event({"supply": SUPPLY})
    engine.apply_event({"deal": DEAL})
    assert engine.phase == "take" and engine.wild == 0  # purple
    return engine


def _take_buttons(engine: PavilionGame, query: dict[str, str] | None = None):
    """The position as the player to move sees it: each take button's value
    and label (aria-label and title), and the board's context."""
    board = live_context(
        engine,
        names=NAMES,
        view=engine_seat_view(engine, engine.to_move()),
        query=query or {},
    )
    html = render_to_string(FAMILY.position_template, {"position": board["position"]})
    buttons = {}
    for tag in re.findall(r'<button type="submit" name="take"[^>]*>', html):
        value = re.search(r'value="([^"]+)"', tag).group(1)
        label = unescape(re.search(r'aria-label="([^"]*)"', tag).group(1))
        title = unescape(re.search(r'title="([^"]*)"', tag).group(1))
        assert label == title
        buttons[value] = label
    return buttons, board, html


def test_a_factory_of_wild_tiles_offers_one_wild_tile():
    buttons, _board, html = _take_buttons(_engine())
    assert buttons["0:purple"] == "1 purple (wild)"
    # the factory still shows its four tiles, as they lie
    factory = re.search(r'data-zone="factory-0".*?</div>', html, re.S).group(0)
    assert factory.count('data-colour="purple"') == 4


def test_a_colour_beside_a_wild_tile_says_the_wild_tile_comes_along():
    buttons, _board, html = _take_buttons(_engine())
    assert buttons["1:red"] == "2 red + 1 purple (wild)"
    assert buttons["1:green"] == "1 green + 1 purple (wild)"
    # the wild tile beside other colours is no take of its own
    assert "1:purple" not in buttons
    assert 'class="group" title="1 purple (wild)"' in html
    # a factory without wild tiles: its colours only
    assert buttons["2:yellow"] == "2 yellow"


def test_every_take_button_says_what_the_engine_puts_in_the_hand():
    engine = _engine()
    seat = engine.to_move()
    buttons, _board, _html = _take_buttons(engine)
    assert len(buttons) == len(engine.legal_moves())
    for value, label in buttons.items():
        source, colour = value.split(":")
        probe = engine.copy()
        probe.play(Take(seat, int(source), COLOURS.index(colour)))
        hand = dict(zip(COLOURS, probe.hands[seat], strict=True))
        wild = hand.pop("purple")
        (own, count), *others = [(c, n) for c, n in hand.items() if n] or [("", 0)]
        assert not others
        expected = f"{count} {own} + {wild} purple (wild)" if count else ""
        if not wild:
            expected = f"{count} {own}"
        if not count:
            expected = f"{wild} purple (wild)"
        assert label == expected


def test_the_take_preview_and_the_log_say_the_same():
    engine = _engine()
    seat = engine.to_move()
    buttons, board, _html = _take_buttons(engine, {"take": "0:purple"})
    take = board["take"]
    assert take["title"] == "Take 1 purple (wild) from factory 1"
    assert [t["colour"] for t in take["tiles"]] == ["purple"]
    engine.play(Take(seat, 0, 0))
    player = NAMES[seat]
    assert describe_log(engine, NAMES)[-1].startswith(
        f"{player} took 1 purple (wild) from factory 1"
    )
