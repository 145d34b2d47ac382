"""What makes two player names the same, and names that only pretend to be one.

A name is compared by its key: Unicode NFKC normalisation with case folded, so
"Alice", "alice" and a decomposed "ａlice" are one name. A name whose letters come
from more than one of the alphabets that share look-alike letters (Latin, Greek,
Cyrillic, Armenian, Cherokee: Cyrillic "а" in a Latin "аlice") is refused; other
scripts (Hangul, Vietnamese, which is Latin with its marks) are welcome, alone or
with digits and Latin letters.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

LOOK_ALIKE_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE"})


def username_key(name: str) -> str:
    """The form two names share when players would read them as the same."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _script(character: str) -> str:
    return unicodedata.name(character, "").split(" ", 1)[0]


def look_alike_scripts(name: str) -> set[str]:
    """The look-alike alphabets whose letters ``name`` uses."""
    return {
        script
        for script in map(_script, unicodedata.normalize("NFKC", name))
        if script in LOOK_ALIKE_SCRIPTS
    }


def validate_one_alphabet(name: str) -> None:
    """Refuse a name that mixes alphabets with look-alike letters."""
    if len(look_alike_scripts(name)) > 1:
        raise ValidationError(
            _(
                "This name mixes letters of different alphabets that look alike "
                "(such as Latin and Cyrillic); please write it in one."
            ),
            code="mixed_scripts",
        )
