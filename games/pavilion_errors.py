"""Summer Pavilion refusals worded for players, translatable.

The pavilion engine raises its errors with English sentences and no ``code``
(``games.engine.pavilion``); this module recognises each sentence by its shape and
rewords it with ``gettext``, so a Vietnamese, Portuguese or Korean player reads the
reason in their language. An unknown sentence falls back to a generic refusal.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _

from .pavilion_tiles import colour_label, space_label, star_label

_Words = Callable[[re.Match[str]], str]

_STAR = r"(center|centre|purple|orange|red|blue|yellow|green)"
_COLOUR = r"(purple|green|orange|yellow|blue|red)"


def _space(match: re.Match[str], star: int = 1, number: int = 2) -> str:
    return space_label(match.group(star), int(match.group(number)))


_PATTERNS: list[tuple[str, _Words]] = [
    (
        r"the game is (already )?over",
        lambda m: _("The game is over."),
    ),
    (
        r"it is seat \d+'s turn",
        lambda m: _("It is not your turn."),
    ),
    (
        r"you must choose your bonus tiles now",
        lambda m: _("Choose your bonus tiles from the supply first."),
    ),
    (
        r"phase 1 is over: place a tile or pass",
        lambda m: _("Taking is over for this round: place a tile or pass."),
    ),
    (
        r"tiles are placed in phase 2: take tiles now",
        lambda m: _("Tiles are placed once all tiles are taken: take tiles now."),
    ),
    (
        r"you can pass only in phase 2: take tiles now",
        lambda m: _("You can pass only once all tiles are taken: take tiles now."),
    ),
    (
        r"(the centre|factory (\d+)) is empty",
        lambda m: _("That factory or the centre is empty."),
    ),
    (
        rf"{_COLOUR} is wild this round: take another colour",
        lambda m: (
            _(
                "%(colour)s is wild this round: take another colour "
                "(one %(colour)s comes along with it)."
            )
            % {"colour": colour_label(m.group(1))}
        ),
    ),
    (
        rf"(the centre|factory \d+) holds no {_COLOUR}",
        lambda m: (
            _("There is no %(colour)s there.") % {"colour": colour_label(m.group(2))}
        ),
    ),
    (
        rf"{_STAR} (\d) is already filled",
        lambda m: _("%(space)s is already filled.") % {"space": _space(m)},
    ),
    (
        rf"only {_STAR} goes on the {_STAR} star",
        lambda m: (
            _("Only %(colour)s tiles go on the %(star)s.")
            % {"colour": colour_label(m.group(1)), "star": star_label(m.group(2))}
        ),
    ),
    (
        rf"the {_STAR} star already holds {_COLOUR}",
        lambda m: (
            _("The %(star)s already holds %(colour)s: its six tiles must all differ.")
            % {"star": star_label(m.group(1)), "colour": colour_label(m.group(2))}
        ),
    ),
    (
        rf"the {_STAR} star holds only {_COLOUR}",
        lambda m: (
            _("The %(star)s holds only %(colour)s: it takes %(colour)s or nothing.")
            % {"star": star_label(m.group(1)), "colour": colour_label(m.group(2))}
        ),
    ),
    (
        rf"{_COLOUR} is wild this round and pays for itself",
        lambda m: (
            _(
                "%(colour)s is this round's wild colour: it is paid with %(colour)s "
                "tiles only."
            )
            % {"colour": colour_label(m.group(1))}
        ),
    ),
    (
        rf"{_STAR} (\d) costs (\d+) {_COLOUR} and you have (\d+)",
        lambda m: (
            _("%(space)s costs %(cost)s %(colour)s; you have %(have)s.")
            % {
                "space": _space(m),
                "cost": m.group(3),
                "colour": colour_label(m.group(4)),
                "have": m.group(5),
            }
        ),
    ),
    (
        rf"you need at least one {_COLOUR} to place on {_STAR} (\d)",
        lambda m: (
            _("You need at least one %(colour)s tile to place %(colour)s on %(space)s.")
            % {"colour": colour_label(m.group(1)), "space": _space(m, 2, 3)}
        ),
    ),
    (
        rf"{_STAR} (\d) costs (\d+): at least one {_COLOUR} must be paid",
        lambda m: (
            _(
                "%(space)s costs %(cost)s: pay at least one %(colour)s tile; "
                "wild tiles can only stand in for the rest."
            )
            % {
                "space": _space(m),
                "cost": m.group(3),
                "colour": colour_label(m.group(4)),
            }
        ),
    ),
    (
        rf"you have (\d+) {_COLOUR} \(wild\), not (\d+)",
        lambda m: (
            _("You have %(have)s wild %(colour)s tiles, not %(wanted)s.")
            % {
                "have": m.group(1),
                "colour": colour_label(m.group(2)),
                "wanted": m.group(3),
            }
        ),
    ),
    (
        rf"{_STAR} (\d) costs (\d+): with (\d+) wild you need (\d+) {_COLOUR} "
        r"and have (\d+)",
        lambda m: (
            _(
                "%(space)s costs %(cost)s: with %(wilds)s wild you need %(need)s "
                "%(colour)s and have %(have)s."
            )
            % {
                "space": _space(m),
                "cost": m.group(3),
                "wilds": m.group(4),
                "need": m.group(5),
                "colour": colour_label(m.group(6)),
                "have": m.group(7),
            }
        ),
    ),
    (
        r"no bonus tiles are owed now",
        lambda m: _("No bonus tiles are owed now."),
    ),
    (
        r"you must choose (\d+) tiles? from the supply, not (\d+)",
        lambda m: (
            _("Choose exactly %(owed)s tiles from the supply (you chose %(n)s).")
            % {"owed": m.group(1), "n": m.group(2)}
        ),
    ),
    (
        rf"the supply holds (\d+) {_COLOUR}, not (\d+)",
        lambda m: (
            _("The supply holds %(have)s %(colour)s, not %(wanted)s.")
            % {
                "have": m.group(1),
                "colour": colour_label(m.group(2)),
                "wanted": m.group(3),
            }
        ),
    ),
    (
        r"nothing can be kept after round 6",
        lambda m: _("Nothing can be kept after round 6."),
    ),
    (
        r"you may keep at most (\d+) tiles",
        lambda m: _("You may keep at most %(n)s tiles.") % {"n": m.group(1)},
    ),
    (
        rf"you have (\d+) {_COLOUR} to keep, not (\d+)",
        lambda m: (
            _("You have %(have)s %(colour)s to keep, not %(wanted)s.")
            % {
                "have": m.group(1),
                "colour": colour_label(m.group(2)),
                "wanted": m.group(3),
            }
        ),
    ),
]
_COMPILED = [(re.compile(pattern), words) for pattern, words in _PATTERNS]


def pavilion_error_message(text: str) -> str:
    """A player's wording of the pavilion engine's refusal ``text``."""
    for pattern, words in _COMPILED:
        match = pattern.search(text)
        if match is not None:
            return words(match)
    return _("That move is not possible.")
