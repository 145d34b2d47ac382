"""Every game the engine plays: the one registry of families and variants.

Like python-chess's ``chess/variant.py``: ``VARIANTS`` (in the order the site offers
them) and ``find_variant(name)``; every other place, in the engine and on the site,
asks here instead of listing names. This module is plain data and imports no rules:
each family's module registers its game class here as it loads (``register``), and
the package's ``__init__`` imports both, so the registry is complete whenever it can
be asked (no import cycle, no import inside a function: ``tests/engine/
test_engine_imports.py``). A variant's ``name`` is the record's
``variant`` (``docs/record.md``); its ``family`` is what ratings, leaderboards and
rules pages are kept by. A grey variant's name is its family's name plus
``GREY_SUFFIX`` (the database derives ``Game.family`` that way). Titles are English
and marked for the site's catalogs; the site translates them where it shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

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


class GameClass(Protocol):
    """What a family registers: its engine game's class (``ClassicGame``...)."""

    def __call__(self, players: int, *, grey: bool, first_seat: int) -> Game: ...


_GAME_CLASSES: dict[str, GameClass] = {}
"""Each family's game class by family name, as the family's module registered it."""


def register(family: Family, game_class: GameClass) -> None:
    """Make ``game_class`` the engine game of ``family`` (called once, by the
    family's own module as it loads)."""
    _GAME_CLASSES[family.name] = game_class


@dataclass(frozen=True)
class Family:
    """A game family: one rule book, played with a coloured or a grey board."""

    name: str
    title: str
    turns: tuple[int, int, int] = (0, 0, 0)
    """About how many turns each player takes in a game of 2, 3 and 4 players
    (a player's decisions in a row, forced ones left out; measured over
    medium self-play: ``bench/turns.py``): what a clock means for a game."""

    def turns_each(self, players: int) -> int:
        """About how many turns each of ``players`` takes (``turns``)."""
        return self.turns[players - PLAYERS.start]

    def variants(self) -> tuple[Variant, ...]:
        """The family's variants, coloured first."""
        return tuple(variant for variant in VARIANTS if variant.family is self)

    def variant(self, *, grey: bool) -> Variant:
        """The family's coloured or grey variant."""
        return next(variant for variant in self.variants() if variant.grey is grey)

    @property
    def game_class(self) -> GameClass:
        """The family's engine game, as its module registered it (``register``)."""
        return _GAME_CLASSES[self.name]


@dataclass(frozen=True)
class Variant:
    """One variant: its record name, family, board side and player counts."""

    name: str
    family: Family
    grey: bool
    title: str
    players: range = PLAYERS

    def new_game(self, players: int, first_seat: int = 0) -> Game:
        """A new game of this variant for ``players`` seats, before its first deal."""
        game_class = self.family.game_class
        return game_class(players, grey=self.grey, first_seat=first_seat)


CLASSIC_FAMILY = Family("classic", gettext_noop("Azul"), turns=(24, 21, 20))
PAVILION_FAMILY = Family(
    "pavilion", gettext_noop("Azul: Summer Pavilion"), turns=(53, 50, 47)
)
FAMILIES: tuple[Family, ...] = (CLASSIC_FAMILY, PAVILION_FAMILY)

CLASSIC = Variant(
    "classic",
    CLASSIC_FAMILY,
    grey=False,
    title=gettext_noop("Azul (coloured wall)"),
)
CLASSIC_GREY = Variant(
    "classic-grey",
    CLASSIC_FAMILY,
    grey=True,
    title=gettext_noop("Azul (grey wall)"),
)
PAVILION = Variant(
    "pavilion",
    PAVILION_FAMILY,
    grey=False,
    title=gettext_noop("Azul: Summer Pavilion (coloured side)"),
)
PAVILION_GREY = Variant(
    "pavilion-grey",
    PAVILION_FAMILY,
    grey=True,
    title=gettext_noop("Azul: Summer Pavilion (grey side)"),
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
