"""Every game the engine plays: the one registry of families and variants.

Like python-chess's ``chess/variant.py``: ``VARIANTS`` (in the order the site offers
them) and ``find_variant(name)``; every other place, in the engine and on the site,
asks here instead of listing names. A variant's ``name`` is the record's
``variant`` (``docs/record.md``); its ``family`` is what ratings, leaderboards and
rules pages are kept by. A grey variant's name is its family's name plus
``GREY_SUFFIX`` (the database derives ``Game.family`` that way). Titles are English
and marked for the site's catalogs; the site translates them where it shows them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .common import Game

GREY_SUFFIX = "-grey"
PLAYERS = range(2, 5)
"""The player counts every variant is played with (2 to 4)."""


def gettext_noop(message: str) -> str:
    """``message`` itself; the name marks it for ``makemessages`` (no Django here)."""
    return message


class UnknownVariantError(ValueError):
    """A variant name the registry does not know."""


@dataclass(frozen=True)
class Family:
    """A game family: one rule book, played with a coloured or a grey board."""

    name: str
    title: str

    def variants(self) -> tuple[Variant, ...]:
        """The family's variants, coloured first."""
        return tuple(variant for variant in VARIANTS if variant.family is self)

    def variant(self, *, grey: bool) -> Variant:
        """The family's coloured or grey variant."""
        return next(variant for variant in self.variants() if variant.grey is grey)


@dataclass(frozen=True)
class Variant:
    """One variant: its record name, family, board side and player counts."""

    name: str
    family: Family
    grey: bool
    title: str
    factory: Callable[[int, bool, int], Game]
    """Makes the engine game: ``factory(players, grey, first_seat)``."""
    players: range = PLAYERS

    def new_game(self, players: int, first_seat: int = 0) -> Game:
        """A new game of this variant for ``players`` seats, before its first deal."""
        return self.factory(players, self.grey, first_seat)


def _classic_game(players: int, grey: bool, first_seat: int) -> Game:
    from .classic import ClassicGame

    return ClassicGame(players, grey=grey, first_seat=first_seat)


def _pavilion_game(players: int, grey: bool, first_seat: int) -> Game:
    from .pavilion import PavilionGame

    return PavilionGame(players, grey=grey, first_seat=first_seat)


CLASSIC_FAMILY = Family("classic", gettext_noop("Azul"))
PAVILION_FAMILY = Family("pavilion", gettext_noop("Azul: Summer Pavilion"))
FAMILIES: tuple[Family, ...] = (CLASSIC_FAMILY, PAVILION_FAMILY)

CLASSIC = Variant(
    "classic",
    CLASSIC_FAMILY,
    grey=False,
    title=gettext_noop("Azul (coloured wall)"),
    factory=_classic_game,
)
CLASSIC_GREY = Variant(
    "classic-grey",
    CLASSIC_FAMILY,
    grey=True,
    title=gettext_noop("Azul (grey wall)"),
    factory=_classic_game,
)
PAVILION = Variant(
    "pavilion",
    PAVILION_FAMILY,
    grey=False,
    title=gettext_noop("Azul: Summer Pavilion (coloured side)"),
    factory=_pavilion_game,
)
PAVILION_GREY = Variant(
    "pavilion-grey",
    PAVILION_FAMILY,
    grey=True,
    title=gettext_noop("Azul: Summer Pavilion (grey side)"),
    factory=_pavilion_game,
)
VARIANTS: tuple[Variant, ...] = (CLASSIC, CLASSIC_GREY, PAVILION, PAVILION_GREY)
VARIANT_NAMES: tuple[str, ...] = tuple(variant.name for variant in VARIANTS)

_BY_NAME = {variant.name: variant for variant in VARIANTS}
_FAMILY_BY_NAME = {family.name: family for family in FAMILIES}


def find_variant(name: str) -> Variant:
    """The variant called ``name``; ``UnknownVariantError`` if there is none."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise UnknownVariantError(
            f"unknown variant {name!r}: one of {', '.join(VARIANT_NAMES)}"
        ) from None


def find_family(name: str) -> Family:
    """The family called ``name``; ``UnknownVariantError`` if there is none."""
    try:
        return _FAMILY_BY_NAME[name]
    except (KeyError, TypeError):
        names = ", ".join(family.name for family in FAMILIES)
        raise UnknownVariantError(f"unknown family {name!r}: one of {names}") from None
