"""Every main page, rendered in vi, pt-br and ko, shows no English UI text.

The English words of the UI are taken from the catalog's msgids (minus words
that the translations keep, such as "Azul" or "UTC"); any of them left in a
page's visible text or its labels (title, aria-label, placeholder, alt) fails.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.test import Client

LANGUAGES = {"vi": "vi", "pt-br": "pt_BR", "ko": "ko"}
WORD = re.compile(r"[A-Za-z]{3,}")
LABEL_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
NAMES = ("nguyen", "joao", "minji", "thao")


def _catalog(language: str) -> polib.POFile:
    path = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po"
    return polib.pofile(str(path))


def _english_words() -> set[str]:
    """Words of the English msgids that no translation keeps."""
    english: set[str] = set()
    kept: set[str] = set()
    for language in LANGUAGES.values():
        for entry in _catalog(language):
            for text in (entry.msgid, entry.msgid_plural or ""):
                english.update(w.lower() for w in WORD.findall(_no_fields(text)))
            for text in [entry.msgstr, *entry.msgstr_plural.values()]:
                kept.update(w.lower() for w in WORD.findall(_no_fields(text)))
    return english - kept


def _no_fields(text: str) -> str:
    return re.sub(r"%\(\w+\)[.0-9]*[sdf]", " ", text)


class _Text(HTMLParser):
    """Visible text and label attributes, without scripts, styles and the
    language switcher (each language is named in its own language there)."""

    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "select"):
            self._skip += 1
        for name, value in attrs:
            if name in LABEL_ATTRIBUTES and value:
                self.chunks.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "select") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.chunks.append(data.strip())


def english_left(html: str, words: set[str]) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return [
        chunk
        for chunk in parser.chunks
        if any(w.lower() in words for w in WORD.findall(chunk))
    ]


@pytest.fixture
def pages(make_user: Any, start_game: Any) -> tuple[Any, list[str]]:
    from games import services

    users = [make_user(name) for name in NAMES]
    classic = start_game(users[:2], "classic", rated=True)
    grey = start_game(users[2:4], "classic-grey")
    pavilion = start_game(users[:2], "pavilion")
    finished = start_game(users[1:3], "classic")
    services.game_resign(game_id=finished.pk, user=users[1])
    services.game_create(
        creator=users[3],
        variant="pavilion-grey",
        players=3,
        days_per_move=2,
        rated=False,
    )
    urls = [
        "/",
        "/games/new/",
        f"/games/{classic.pk}/",
        f"/games/{grey.pk}/",
        f"/games/{pavilion.pk}/",
        f"/games/{finished.pk}/",
        f"/games/{finished.pk}/replay/",
        f"/games/{pavilion.pk}/replay/",
        f"/accounts/players/{users[0].username}/",
        f"/accounts/players/{users[1].username}/",
        "/accounts/settings/",
        "/games/archive/",
        "/games/archive/?status=ongoing",
        "/games/import/",
        "/leaderboard/classic/",
        "/leaderboard/pavilion/",
        "/leaderboard/classic/high-scores/",
        "/rules/classic/",
        "/rules/pavilion/",
    ]
    return users[0], urls


@pytest.mark.parametrize("language", LANGUAGES)
def test_main_pages_show_no_english_ui_text(
    language: str, pages: tuple[Any, list[str]], client_for: Any
) -> None:
    user, urls = pages
    user.language = language
    user.save(update_fields=["language"])
    client = client_for(user)
    words = _english_words()
    assert {"factory", "pattern", "floor", "archive", "resign"} <= words
    leftovers = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'<html lang="{language}">' in response.content.decode()
        found = english_left(response.content.decode(), words)
        if found:
            leftovers[url] = found[:5]
    assert not leftovers, leftovers


@pytest.mark.parametrize("language", LANGUAGES)
def test_signed_out_pages_show_no_english_ui_text(language: str, db: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    words = _english_words()
    leftovers = {}
    for url in (
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password_reset/",
        "/games/archive/",
        "/rules/classic/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        found = english_left(response.content.decode(), words)
        if found:
            leftovers[url] = found[:5]
    assert not leftovers, leftovers


def test_the_check_finds_english_in_an_english_page(db: Any) -> None:
    html = Client().get("/rules/classic/").content.decode()
    assert "Pattern lines (1 to 5 spaces)" in english_left(html, _english_words())
