"""games.translated.per_language: built once per language, in that language."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from games.translated import per_language


def test_built_once_per_language_in_that_language():
    calls = []

    def build():
        calls.append(translation.get_language())
        return {"resign": gettext("Resign")}

    words = per_language(build)
    with translation.override("en"):
        english = words()
        assert words() is english
    with translation.override("vi"):
        vietnamese = words()
        assert words() is vietnamese
    with translation.override("en"):
        assert words() is english
    assert calls == ["en", "vi"]
    assert english["resign"] == "Resign"
    assert vietnamese["resign"] != "Resign"  # the catalog's word, not English
