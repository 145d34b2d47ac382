"""Summer Pavilion in words: tile, star and space names, the log, refusals.

Everything is translated when it is asked for (``gettext`` at call time), so one
process serves every language. Stars and spaces are named as players name them:
"orange star, space 3", "centre star"; on the grey side
(``docs/rules/summer-pavilion.md §8``)
a star has no colour and is named by its place on the board ("upper-left star",
as ``board.py`` draws it), never by a colour. Machine values ("orange-3") stay in
forms and marks. Counts go through ``ngettext``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import (
    gettext_lazy,
    ngettext,
    npgettext_lazy,
    pgettext_lazy,
)

from games.engine.common import CENTER, EngineError
from games.engine.pavilion import ROUNDS, PavilionGame
from games.engine.pavilion_board import COLOURS
from games.play.refusals import SHARED

# ------------------------------------------------------------------ names

COLOUR_NAMES = {
    "purple": gettext_lazy("purple"),
    "green": gettext_lazy("green"),
    "orange": gettext_lazy("orange"),
    "yellow": gettext_lazy("yellow"),
    "blue": gettext_lazy("blue"),
    "red": gettext_lazy("red"),
}
COUNTED_COLOUR_NAMES = {
    "purple": npgettext_lazy("colour of counted tiles", "purple", "purple", "n"),
    "green": npgettext_lazy("colour of counted tiles", "green", "green", "n"),
    "orange": npgettext_lazy("colour of counted tiles", "orange", "orange", "n"),
    "yellow": npgettext_lazy("colour of counted tiles", "yellow", "yellow", "n"),
    "blue": npgettext_lazy("colour of counted tiles", "blue", "blue", "n"),
    "red": npgettext_lazy("colour of counted tiles", "red", "red", "n"),
}
"""A colour after a count of tiles (``tiles_colour``)."""
COLOUR_LETTERS = {
    "purple": pgettext_lazy("tile letter for purple", "P"),
    "green": pgettext_lazy("tile letter for green", "G"),
    "orange": pgettext_lazy("tile letter for orange", "O"),
    "yellow": pgettext_lazy("tile letter for yellow", "Y"),
    "blue": pgettext_lazy("tile letter for blue", "B"),
    "red": pgettext_lazy("tile letter for red", "R"),
}
"""A letter on every tile: colour is never the only cue."""

STAR_NAMES = {
    "purple": gettext_lazy("purple star"),
    "green": gettext_lazy("green star"),
    "orange": gettext_lazy("orange star"),
    "yellow": gettext_lazy("yellow star"),
    "blue": gettext_lazy("blue star"),
    "red": gettext_lazy("red star"),
}
"""A coloured-side star, named whole: the colour agrees with "star" (Portuguese
"estrela vermelha")."""
STAR_PLACES = {
    "center": gettext_lazy("centre star"),
    "orange": pgettext_lazy("a grey-side star, by its place", "upper-left star"),
    "red": pgettext_lazy("a grey-side star, by its place", "upper-right star"),
    "blue": pgettext_lazy("a grey-side star, by its place", "right-hand star"),
    "yellow": pgettext_lazy("a grey-side star, by its place", "lower-right star"),
    "green": pgettext_lazy("a grey-side star, by its place", "lower-left star"),
    "purple": pgettext_lazy("a grey-side star, by its place", "left-hand star"),
}
"""A star named by where it sits (the grey side, whose stars have no colour): the
outer stars clockwise from upper-left, as ``board.py`` draws them (§2)."""

_CENTRE = ("center", "centre")


def colour_label(colour: str | int) -> str:
    """Translated colour name of a colour name or index."""
    name = COLOURS[colour] if isinstance(colour, int) else colour
    label = COLOUR_NAMES.get(name)
    return str(label) if label is not None else name


def tiles_colour(colour: str | int, count: int) -> str:
    """A colour's name as it goes with ``count`` tiles ("3 red tiles"): where
    adjectives agree (Portuguese "azulejos vermelhos") the catalog has the forms."""
    name = COLOURS[colour] if isinstance(colour, int) else colour
    label = COUNTED_COLOUR_NAMES.get(name)
    return str(label % {"n": count}) if label is not None else name


def points_text(points: int) -> str:
    """ "1 point", "3 points": a count of points inside a longer sentence."""
    return ngettext("%(points)s point", "%(points)s points", points) % {
        "points": points
    }


def colour_letter(colour: str | int) -> str:
    """The letter printed on a tile of ``colour``."""
    name = COLOURS[colour] if isinstance(colour, int) else colour
    return str(COLOUR_LETTERS[name])


def tile_label(colour: str | int, wild: bool = False) -> str:
    """A tile's spoken name: "red", or "purple (wild)" in the round it is wild."""
    label = colour_label(colour)
    if wild:
        return _("%(colour)s (wild)") % {"colour": label}
    return label


def star_label(star: str, grey: bool = False) -> str:
    """``"blue"`` → "blue star"; ``"center"`` → "centre star"; on the grey side
    the star's place: ``"blue"`` → "right-hand star" (no colour names it)."""
    if star in _CENTRE:
        return str(STAR_PLACES["center"])
    if grey:
        return str(STAR_PLACES[star])
    name = STAR_NAMES.get(star)
    return str(name) if name is not None else star


def space_label(star: str, number: int, grey: bool = False) -> str:
    """A space as players name it: "orange star, space 3", "centre star, space
    2"; on the grey side "upper-left star, space 3". (Forms and marks keep the
    machine value ``orange-3``.)"""
    return _("%(star)s, space %(number)s") % {
        "star": star_label(star, grey),
        "number": number,
    }


# ------------------------------------------------------------------ the log


def structure_label(kind: str, stars: Sequence[str], grey: bool = False) -> str:
    """ "pillar of the blue star", "statue between the red star and the blue
    star"; on the grey side the stars by place."""
    if kind == "pillar":
        return _("pillar of the %(star)s") % {"star": star_label(stars[0], grey)}
    if kind == "window":
        return _("window of the %(star)s") % {"star": star_label(stars[0], grey)}
    return _("statue between the %(a)s and the %(b)s") % {
        "a": star_label(stars[0], grey),
        "b": star_label(stars[1], grey),
    }


def list_colours(names: Sequence[str]) -> str:
    return ", ".join(colour_label(name) for name in names) or _("nothing")


def from_source_label(source: int | str) -> str:
    """``from the centre`` or ``from factory 3``: the preposition goes with the
    source, since languages contract it ("do centro", "da fábrica 3")."""
    if source in ("center", CENTER):
        return _("from the centre")
    return _("from factory %(number)s") % {"number": int(source) + 1}


def payment_label(colour: str, wilds: int, cost: int, wild: str) -> str:
    """ "1 blue + 3 purple (wild)" — what a placement pays."""
    if colour == wild:
        return _("%(count)s %(colour)s (this round's wild colour)") % {
            "count": cost,
            "colour": colour_label(colour),
        }
    text = _("%(count)s %(colour)s") % {
        "count": cost - wilds,
        "colour": colour_label(colour),
    }
    if wilds:
        text += " + " + _("%(count)s %(colour)s (wild)") % {
            "count": wilds,
            "colour": colour_label(wild),
        }
    return text


def describe_entries(
    entries: Sequence[Mapping[str, Any]], names: Sequence[str], *, grey: bool = False
) -> list[str]:
    """One text per log entry (``PavilionGame.log``, from its start: a take's
    wild colour is the round's, read from the deals before it), "" for an entry
    not told. ``grey``: the grey side's log, its stars named by place.

    A placement says which structures it completed, the bonus that follows has
    its own text ("ana took red, green as a bonus").
    """
    texts: list[str] = []
    round_number = 1
    for entry in entries:
        kind = entry["type"]
        seat = entry.get("seat")
        player = names[seat] if seat is not None else ""
        if kind == "supply":
            text = ngettext(
                "%(count)s tile drawn into the supply",
                "%(count)s tiles drawn into the supply",
                len(entry["tiles"]),
            ) % {"count": len(entry["tiles"])}
        elif kind == "deal":
            round_number = int(entry["round"])
            dealt = sum(len(tiles) for tiles in entry["factories"])
            text = ngettext(
                "Round %(round)s (wild colour: %(wild)s): %(count)s tile dealt "
                "to the factories",
                "Round %(round)s (wild colour: %(wild)s): %(count)s tiles dealt "
                "to the factories",
                dealt,
            ) % {
                "round": entry["round"],
                "wild": colour_label(entry["round"] - 1),
                "count": dealt,
            }
        elif kind == "take":
            text = _describe_take(entry, player, COLOURS[round_number - 1])
        elif kind == "place":
            text = _(
                "%(player)s placed %(colour)s on the %(space)s, paying %(payment)s: "
                "+%(points)s"
            ) % {
                "player": player,
                "colour": colour_label(entry["colour"]),
                "space": space_label(entry["star"], entry["space"], grey),
                "payment": payment_label(
                    entry["colour"], entry["wilds"], entry["cost"], entry["wild_colour"]
                ),
                "points": entry["points"],
            }
            if entry["completed"]:
                done = ", ".join(
                    structure_label(s["kind"], s["stars"], grey)
                    for s in entry["completed"]
                )
                text += "; " + _("%(structures)s complete") % {"structures": done}
                if not entry["bonus_available"]:
                    text += ": " + _("the supply is empty")
        elif kind == "bonus":
            text = _("%(player)s took %(tiles)s as a bonus") % {
                "player": player,
                "tiles": list_colours(entry["tiles"]),
            }
        elif kind == "pass":
            text = _describe_pass(entry, player, round_number == ROUNDS)
        else:
            text = ""
        texts.append(text)
    return texts


def taken_label(entry: Mapping[str, Any], wild_name: str) -> str:
    """What a take took, read off its log entry (``PavilionGame.log``): "3 red +
    1 purple (wild)", "1 purple (wild)" (a source of wild tiles only gives one).
    The log, the take's preview and each take button's label all say it so."""
    if entry["colour"] == wild_name:
        return _("%(count)s %(colour)s (wild)") % {
            "count": entry["tiles"],
            "colour": colour_label(wild_name),
        }
    taken = _("%(count)s %(colour)s") % {
        "count": entry["tiles"],
        "colour": colour_label(entry["colour"]),
    }
    if entry["wild"]:
        taken += " + " + _("1 %(colour)s (wild)") % {"colour": colour_label(wild_name)}
    return taken


def _describe_take(entry: Mapping[str, Any], player: str, wild_name: str) -> str:
    text = _("%(player)s took %(tiles)s %(from_source)s") % {
        "player": player,
        "tiles": taken_label(entry, wild_name),
        "from_source": from_source_label(entry["from"]),
    }
    if entry.get("to_centre"):
        text += "; " + ngettext(
            "%(count)s tile to the centre",
            "%(count)s tiles to the centre",
            len(entry["to_centre"]),
        ) % {"count": len(entry["to_centre"])}
    if entry.get("start_token"):
        text += "; " + _("took the start token: −%(points)s") % {
            "points": entry["penalty"]
        }
    return text


def _describe_pass(entry: Mapping[str, Any], player: str, last_round: bool) -> str:
    count = len(entry["discarded"])
    if last_round:
        text = _("%(player)s passed") % {"player": player}
        lost = ngettext(
            "%(count)s tile left over: −%(points)s",
            "%(count)s tiles left over: −%(points)s",
            count,
        )
    else:
        text = _("%(player)s passed, keeping %(kept)s") % {
            "player": player,
            "kept": list_colours(entry["kept"]),
        }
        lost = ngettext(
            "%(count)s tile to the tower: −%(points)s",
            "%(count)s tiles to the tower: −%(points)s",
            count,
        )
    if count:
        text += "; " + lost % {"count": count, "points": entry["penalty"]}
    return text


def describe_log(engine: PavilionGame, names: Sequence[str]) -> list[str]:
    """The move log in words: one line per log entry, then, once the game is
    over, each player's final bonuses.

    e.g. "ana placed blue on the blue star, space 4, paying 1 blue + 3 purple
    (wild): +3; statue between the red star and the blue star complete", then
    "ana took red, green as a bonus".
    """
    lines = describe_entries(engine.log, names, grey=engine.grey)
    if engine.is_over():
        lines.extend(final_bonus_lines(engine, names))
    return lines


def final_bonus_lines(engine: PavilionGame, names: Sequence[str]) -> list[str]:
    """ "Final bonuses for ana: blue star +12, … — final score 57", a line a seat."""
    lines = []
    for seat, name in enumerate(names):
        parts = []
        for change in engine.score_log:
            if change.seat != seat:
                continue
            if change.kind == "star-bonus":
                label = _star_bonus_label(change.detail, engine.grey)
                parts.append(f"{label} +{change.points}")
            elif change.kind == "number-bonus":
                number = change.detail.removeprefix("all ").removesuffix("s")
                label = _("all spaces of cost %(cost)s") % {"cost": number}
                parts.append(f"{label} +{change.points}")
        lines.append(
            _("Final bonuses for %(player)s: %(bonuses)s — final score %(score)s")
            % {
                "player": name,
                "bonuses": ", ".join(parts) or _("none"),
                "score": engine.scores[seat],
            }
        )
    return lines


def _star_bonus_label(detail: str, grey: bool) -> str:
    """The engine's "blue star", "red star, all green", "center star, six colours"
    (the last two on the grey side, whose stars are named by place)."""
    star = detail.split(" ", 1)[0]
    text = star_label(star, grey)
    if ", all " in detail:
        text += " " + _("(all %(colour)s)") % {
            "colour": colour_label(detail.rsplit(" ", 1)[1])
        }
    elif "six colours" in detail:
        text += " " + _("(six colours)")
    return text


# ------------------------------------------------------------------ refusals

_Params = dict[str, Any]


def _factory(p: _Params) -> int:
    return int(p["factory"]) + 1


def _unreadable(p: _Params) -> str:
    return _("That move could not be read.")


_MESSAGES: dict[str, Callable[[_Params], str]] = {
    **SHARED,  # games/play/refusals.py: the words both games share
    # -- whose turn, which phase -------------------------------------------
    "not_your_turn": lambda p: _("It is not your turn."),
    "supply_due": lambda p: _("The supply must be refilled first."),
    "deal_due": lambda p: (
        _("The factories of round %(round)s must be dealt first.")
        % {"round": p["round"]}
    ),
    "bonus_due": lambda p: _("Choose your bonus tiles from the supply first."),
    "take_phase_over": lambda p: _(
        "Taking is over for this round: place a tile or pass."
    ),
    "place_before_phase_2": lambda p: _(
        "Tiles are placed once all tiles are taken: take tiles now."
    ),
    "pass_before_phase_2": lambda p: _(
        "You can pass only once all tiles are taken: take tiles now."
    ),
    # -- taking tiles ----------------------------------------------------------
    "source_empty": lambda p: _("That factory or the centre is empty."),
    "wild_take_with_others": lambda p: (
        _(
            "%(colour)s is wild this round: take another colour "
            "(one %(colour)s comes along with it)."
        )
        % {"colour": colour_label(p["colour"])}
    ),
    "colour_absent": lambda p: (
        _("There is no %(colour)s in the centre.")
        % {"colour": colour_label(p["colour"])}
        if p["source"] == "center"
        else _("There is no %(colour)s on factory %(number)s.")
        % {"colour": colour_label(p["colour"]), "number": int(p["source"]) + 1}
    ),
    # -- placing a tile ----------------------------------------------------------
    # A refusal does not know the side of the board it was made on, so it names
    # no star by colour: "that space" is the one the player just chose; a star is
    # named by place where only a grey star (or the centre) can refuse.
    "space_filled": lambda p: _("That space is already filled."),
    "star_takes_its_colour": lambda p: (
        _("Only %(colour)s tiles go on the %(star)s.")
        % {"colour": colour_label(p["allowed"]), "star": star_label(p["star"])}
    ),
    "star_holds_colour": lambda p: (
        _("The %(star)s already holds %(colour)s: its six tiles must all differ.")
        % {"star": star_label(p["star"], True), "colour": colour_label(p["colour"])}
    ),
    "star_holds_only": lambda p: (
        _("The %(star)s holds only %(colour)s: it takes %(colour)s or nothing.")
        % {"star": star_label(p["star"], True), "colour": colour_label(p["only"])}
    ),
    "wild_pays_for_itself": lambda p: (
        _(
            "%(colour)s is this round's wild colour: it is paid with %(colour)s "
            "tiles only."
        )
        % {"colour": colour_label(p["colour"])}
    ),
    "too_few_tiles": lambda p: (
        _("That space costs %(cost)s %(colour)s; you have %(have)s.")
        % {
            "cost": p["cost"],
            "colour": colour_label(p["colour"]),
            "have": p["have"],
        }
    ),
    "no_tile_of_colour": lambda p: (
        _("You need at least one %(colour)s tile to place %(colour)s there.")
        % {"colour": colour_label(p["colour"])}
    ),
    "too_many_wilds": lambda p: (
        _(
            "That space costs %(cost)s: pay at least one %(colour)s tile; "
            "wild tiles can only stand in for the rest."
        )
        % {"cost": p["cost"], "colour": colour_label(p["colour"])}
    ),
    "not_enough_wilds": lambda p: (
        ngettext(
            "You have %(have)s wild %(colour)s tile, not %(wanted)s.",
            "You have %(have)s wild %(colour)s tiles, not %(wanted)s.",
            p["have"],
        )
        % {
            "have": p["have"],
            "colour": tiles_colour(p["colour"], p["have"]),
            "wanted": p["wilds"],
        }
    ),
    "too_few_tiles_with_wilds": lambda p: (
        _(
            "That space costs %(cost)s: with %(wilds)s wild you need %(need)s "
            "%(colour)s and have %(have)s."
        )
        % {
            "cost": p["cost"],
            "wilds": p["wilds"],
            "need": p["need"],
            "colour": colour_label(p["colour"]),
            "have": p["have"],
        }
    ),
    # -- bonus tiles -------------------------------------------------------------
    "no_bonus_owed": lambda p: _("No bonus tiles are owed now."),
    "bonus_count": lambda p: (
        ngettext(
            "Choose exactly %(owed)s tile from the supply (you chose %(n)s).",
            "Choose exactly %(owed)s tiles from the supply (you chose %(n)s).",
            p["owed"],
        )
        % {"owed": p["owed"], "n": p["chosen"]}
    ),
    "supply_short": lambda p: (
        _("The supply holds %(have)s %(colour)s, not %(wanted)s.")
        % {
            "have": p["have"],
            "colour": colour_label(p["colour"]),
            "wanted": p["wanted"],
        }
    ),
    # -- passing -------------------------------------------------------------------
    "keep_after_last_round": lambda p: _("Nothing can be kept after round 6."),
    "keep_too_many": lambda p: (
        ngettext(
            "You may keep at most %(n)s tile.",
            "You may keep at most %(n)s tiles.",
            p["max"],
        )
        % {"n": p["max"]}
    ),
    "keep_not_in_hand": lambda p: (
        _("You have %(have)s %(colour)s to keep, not %(wanted)s.")
        % {
            "have": p["have"],
            "colour": colour_label(p["colour"]),
            "wanted": p["wanted"],
        }
    ),
    # -- decisions that do not parse (a forged or broken form) ---------------------
    "not_an_object": _unreadable,
    "not_a_decision": _unreadable,
    "not_a_move": _unreadable,
    "malformed_pass": _unreadable,
    "not_a_colour_list": lambda p: _(
        "That move is not possible: tiles are listed by colour."
    ),
    "no_such_star": lambda p: _("That move is not possible: there is no such star."),
    "no_such_space": lambda p: _("That move is not possible: there is no such space."),
    "invalid_wilds": lambda p: _(
        "That move is not possible: the number of wild tiles must be 0 or more."
    ),
    # -- random events (supply refills and deals, in records) ----------------------
    "no_chance_due": lambda p: _("No tiles are to be drawn now."),
    "no_supply_due": lambda p: _("No supply refill is due now."),
    "supply_draw_empty": lambda p: _("A supply refill draws at least one tile."),
    "supply_draw_too_many": lambda p: (
        ngettext(
            "The supply has room for %(room)s tile, not %(drawn)s.",
            "The supply has room for %(room)s tiles, not %(drawn)s.",
            p["room"],
        )
        % {"room": p["room"], "drawn": p["drawn"]}
    ),
    "supply_draw_impossible": lambda p: (
        _("No %(colour)s tile is left to draw for the supply.")
        % {"colour": colour_label(p["colour"])}
    ),
    "supply_draw_short": lambda p: (
        ngettext(
            "The supply refill stops at %(drawn)s of %(room)s tile while tiles "
            "remain to draw.",
            "The supply refill stops at %(drawn)s of %(room)s tiles while tiles "
            "remain to draw.",
            p["room"],
        )
        % {"drawn": p["drawn"], "room": p["room"]}
    ),
    "deal_impossible": lambda p: (
        _("Factory %(number)s: no %(colour)s tile is left to draw.")
        % {"number": _factory(p), "colour": colour_label(p["colour"])}
    ),
}

CODES = frozenset(_MESSAGES)
"""Every code this module words (the pavilion engine's refusals)."""


def error_message(error: EngineError) -> str:
    """A player's wording of the pavilion engine's refusal ``error``.

    Worded from ``error.code`` and ``error.params``, never from the English message;
    an unknown code gives a generic refusal. A sentence that opens with a colour
    ("purple is wild this round…") starts with a capital.
    """
    words = _MESSAGES.get(error.code)
    if words is None:
        return _("That move is not possible.")
    return capfirst(words(error.params))
