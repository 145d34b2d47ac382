"""Summer Pavilion refusals worded for players, translatable.

The pavilion engine (``games.engine.pavilion``) gives every refusal a stable ``code``
and its ``params`` (colour and star names as the record spells them, space numbers,
counts); this module words each code with ``gettext``, so a Vietnamese, Portuguese
or Korean player reads the reason in their language, whatever the engine's English
says. Factories are shown 1-based to people. Only an unknown code falls back to a
generic refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from games.engine.common import EngineError

from .pavilion_tiles import colour_label, space_label, star_label

_Params = dict[str, Any]


def _space(p: _Params) -> str:
    return space_label(p["star"], p["space"])


def _factory(p: _Params) -> int:
    return int(p["factory"]) + 1


def _unreadable(p: _Params) -> str:
    return _("That move could not be read.")


_MESSAGES: dict[str, Callable[[_Params], str]] = {
    # -- whose turn, which phase -------------------------------------------
    "game_over": lambda p: _("The game is over."),
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
        _("There is no %(colour)s there.") % {"colour": colour_label(p["colour"])}
    ),
    # -- placing a tile ----------------------------------------------------------
    "space_filled": lambda p: _("%(space)s is already filled.") % {"space": _space(p)},
    "star_takes_its_colour": lambda p: (
        _("Only %(colour)s tiles go on the %(star)s.")
        % {"colour": colour_label(p["allowed"]), "star": star_label(p["star"])}
    ),
    "star_holds_colour": lambda p: (
        _("The %(star)s already holds %(colour)s: its six tiles must all differ.")
        % {"star": star_label(p["star"]), "colour": colour_label(p["colour"])}
    ),
    "star_holds_only": lambda p: (
        _("The %(star)s holds only %(colour)s: it takes %(colour)s or nothing.")
        % {"star": star_label(p["star"]), "colour": colour_label(p["only"])}
    ),
    "wild_pays_for_itself": lambda p: (
        _(
            "%(colour)s is this round's wild colour: it is paid with %(colour)s "
            "tiles only."
        )
        % {"colour": colour_label(p["colour"])}
    ),
    "too_few_tiles": lambda p: (
        _("%(space)s costs %(cost)s %(colour)s; you have %(have)s.")
        % {
            "space": _space(p),
            "cost": p["cost"],
            "colour": colour_label(p["colour"]),
            "have": p["have"],
        }
    ),
    "no_tile_of_colour": lambda p: (
        _("You need at least one %(colour)s tile to place %(colour)s on %(space)s.")
        % {"colour": colour_label(p["colour"]), "space": _space(p)}
    ),
    "too_many_wilds": lambda p: (
        _(
            "%(space)s costs %(cost)s: pay at least one %(colour)s tile; "
            "wild tiles can only stand in for the rest."
        )
        % {"space": _space(p), "cost": p["cost"], "colour": colour_label(p["colour"])}
    ),
    "not_enough_wilds": lambda p: (
        _("You have %(have)s wild %(colour)s tiles, not %(wanted)s.")
        % {
            "have": p["have"],
            "colour": colour_label(p["colour"]),
            "wanted": p["wilds"],
        }
    ),
    "too_few_tiles_with_wilds": lambda p: (
        _(
            "%(space)s costs %(cost)s: with %(wilds)s wild you need %(need)s "
            "%(colour)s and have %(have)s."
        )
        % {
            "space": _space(p),
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
        _("Choose exactly %(owed)s tiles from the supply (you chose %(n)s).")
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
    "keep_too_many": lambda p: _("You may keep at most %(n)s tiles.") % {"n": p["max"]},
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
    "no_such_seat": lambda p: _("That move is not possible: there is no such seat."),
    "no_such_factory": lambda p: _(
        "That move is not possible: there is no such factory."
    ),
    "no_such_colour": lambda p: _(
        "That move is not possible: there is no such colour."
    ),
    "no_such_star": lambda p: _("That move is not possible: there is no such star."),
    "no_such_space": lambda p: _("That move is not possible: there is no such space."),
    "invalid_wilds": lambda p: _(
        "That move is not possible: the number of wild tiles must be 0 or more."
    ),
    # -- random events (supply refills and deals, in records) ----------------------
    "no_chance_due": lambda p: _("No tiles are to be drawn now."),
    "no_supply_due": lambda p: _("No supply refill is due now."),
    "no_deal_due": lambda p: _("No deal is due now."),
    "supply_draw_empty": lambda p: _("A supply refill draws at least one tile."),
    "supply_draw_too_many": lambda p: (
        _("The supply has room for %(room)s tiles, not %(drawn)s.")
        % {"room": p["room"], "drawn": p["drawn"]}
    ),
    "supply_draw_impossible": lambda p: (
        _("No %(colour)s tile is left to draw for the supply.")
        % {"colour": colour_label(p["colour"])}
    ),
    "supply_draw_short": lambda p: (
        _(
            "The supply refill stops at %(drawn)s of %(room)s tiles while tiles "
            "remain to draw."
        )
        % {"drawn": p["drawn"], "room": p["room"]}
    ),
    "deal_size": lambda p: (
        _("A deal lists %(count)s factories.") % {"count": p["factories"]}
    ),
    "deal_overfull": lambda p: (
        _("Factory %(number)s is dealt more than %(max)s tiles.")
        % {"number": _factory(p), "max": p["max"]}
    ),
    "deal_impossible": lambda p: (
        _("Factory %(number)s: no %(colour)s tile is left to draw.")
        % {"number": _factory(p), "colour": colour_label(p["colour"])}
    ),
    "deal_short": lambda p: (
        _("Factory %(number)s is dealt %(tiles)s tiles while tiles remain to draw.")
        % {"number": _factory(p), "tiles": p["tiles"]}
    ),
}

CODES = frozenset(_MESSAGES)
"""Every code this module words (the pavilion engine's refusals)."""


def pavilion_error_message(error: EngineError) -> str:
    """A player's wording of the pavilion engine's refusal ``error``.

    Worded from ``error.code`` and ``error.params``, never from the English message;
    an unknown code gives a generic refusal.
    """
    words = _MESSAGES.get(error.code)
    if words is None:
        return _("That move is not possible.")
    return words(error.params)
