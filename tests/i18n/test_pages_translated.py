"""Every main page, rendered in vi, pt-br and ko, shows no English UI text and
no word the glossary rejects.

The English words of the UI are taken from the catalog's msgids (minus words
that the translations keep, such as "Azul" or "UTC"); any of them left in a
page's visible text or its labels (title, aria-label, placeholder, alt) fails,
and so does any word of GLOSSARY.md's "Words we do not use". Both games' boards
are drawn in mid-play: a classic game with tiles on the lines and the floor, a
Summer Pavilion game where the viewer is placing tiles.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.test import Client

from tests.games.helpers import pavilion_choose, play_random_moves
from tests.i18n.test_catalogs import _rejected_words, rejected_in

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


def _visible(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.chunks


def rejected_left(html: str, language: str) -> list[str]:
    """Chunks of a page that use a word GLOSSARY.md rejects for ``language``."""
    rows = [(w, a) for lang, w, a in _rejected_words() if lang == language]
    return [
        chunk
        for chunk in _visible(html)
        if any(rejected_in(chunk, word, allowed) for word, allowed in rows)
    ]


def _pavilion_placing(game: Any, viewer: Any) -> Any:
    """Play ``game`` on until ``viewer`` is to place a tile, with a tile placed."""
    from games import selectors, services

    rng = random.Random(3)
    for _step in range(500):
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        mover = game.seats.all()[game.seat_to_move].user
        placed = any(colour >= 0 for board in engine.boards for colour in board)
        if engine.phase == "place" and mover == viewer and placed:
            return game
        event = pavilion_choose(engine, rng).to_event()
        event.pop("seat")
        services.game_play_move(
            game_id=game.pk, user=mover, move=event, expected_ply=game.ply
        )
    raise AssertionError("no placing position reached")


def english_left(html: str, words: set[str]) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return [
        chunk
        for chunk in parser.chunks
        if any(w.lower() in words for w in WORD.findall(chunk))
    ]


def _seasons(users: list[Any]) -> tuple[Any, Any]:
    """A group of a season being played and one of a season ended (its games
    decided on the last day), ``users`` in both; the site's own leagues open
    their registration."""
    from datetime import timedelta

    from games import clock
    from leagues import services as leagues
    from leagues.models import League, Waiver
    from leagues.rehearsal import moved_clock

    Waiver.objects.bulk_create([Waiver(user=user) for user in users])
    groups = []
    for slug in ("i18n-running", "i18n-ended"):
        league = League.objects.create(
            slug=slug, variant="classic", players=2, season_weeks=8, active=False
        )
        season = leagues.season_create(
            league=league, starts_at=clock.now() + timedelta(days=1)
        )
        for user in users:
            leagues.season_join(season_id=season.pk, user=user)
        with moved_clock(season.starts_at) as moment:
            leagues.season_start(season_id=season.pk)
            if slug == "i18n-ended":
                moment[0] = season.ends_at
                leagues.season_end(season_id=season.pk)
        groups.append(season.groups.get())
    leagues.process_seasons()
    return groups[0], groups[1]


@pytest.fixture
def pages(make_user: Any, start_game: Any) -> tuple[Any, list[str]]:
    from datetime import timedelta

    from api import services as tokens
    from api.models import SCOPES, ApiToken
    from games import clock, services

    users = [make_user(name) for name in NAMES]
    classic = start_game(users[:2], "classic", rated=True)
    grey = start_game(users[2:4], "classic-grey")
    pavilion = start_game(users[:2], "pavilion")
    classic_mid = play_random_moves(
        start_game(users[:2], "classic"), random.Random(7), 6
    )
    pavilion_mid = _pavilion_placing(start_game(users[:2], "pavilion"), users[0])
    finished = start_game(users[1:3], "classic")
    services.game_resign(game_id=finished.pk, user=users[1])
    services.game_create(
        creator=users[3],
        variant="pavilion-grey",
        players=3,
        rated=False,
    )
    running, ended = _seasons(users[:3])
    # Settings → API tokens: one used, expiring; one never used (their prefixes
    # pinned: random letters could spell an English word)
    _token, secret = tokens.token_create(
        user=users[0],
        name="nguyen",
        scopes=SCOPES,
        expires_at=clock.now() + timedelta(days=1),
    )
    tokens.token_for(secret)
    tokens.token_create(user=users[0], name="thao", scopes=SCOPES[:1])
    ApiToken.objects.filter(user=users[0]).update(prefix="azul_2026123")
    urls = [
        "/",
        "/leagues/",
        "/bots/ladder/classic/",
        f"/leagues/seasons/{running.season_id}/",
        f"/leagues/groups/{running.pk}/",
        f"/leagues/seasons/{ended.season_id}/",
        f"/leagues/groups/{ended.pk}/",
        f"/games/{ended.games.first().game_id}/",
        "/games/new/",
        f"/games/{classic.pk}/",
        f"/games/{grey.pk}/",
        f"/games/{pavilion.pk}/",
        f"/games/{classic_mid.pk}/",
        f"/games/{pavilion_mid.pk}/",
        f"/games/{classic_mid.pk}/replay/",
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
    leftovers, rejected = {}, {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'<html lang="{language}">' in response.content.decode()
        found = english_left(response.content.decode(), words)
        if found:
            leftovers[url] = found[:5]
        found = rejected_left(response.content.decode(), LANGUAGES[language])
        if found:
            rejected[url] = found[:5]
    assert not leftovers, leftovers
    assert not rejected, rejected


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


def test_the_check_finds_a_rejected_word_in_a_page() -> None:
    html = "<p>Chọn gạch từ trung tâm.</p><p>Đặt lên ngôi sao trung tâm, ô 2</p>"
    assert rejected_left(html, "vi") == ["Chọn gạch từ trung tâm."]
    assert rejected_left("<h2>공장 3</h2><h2>진열대 3</h2>", "ko") == ["공장 3"]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "finished on {date}"),
        ("vi", "kết thúc ngày {date}"),
        ("pt-br", "encerrada em {date}"),
        ("ko", "{date} 종료"),
    ],
)
def test_recently_finished_games_say_when_they_finished(
    language: str, said: str, make_user: Any, start_game: Any, client_for: Any
) -> None:
    from django.utils import formats, translation

    from games import services

    user, other = make_user("thao", language=language), make_user("minji")
    game = start_game([user, other], "classic")
    services.game_resign(game_id=game.pk, user=other)
    game.refresh_from_db()
    html = client_for(user).get("/").content.decode()
    finished = html.split('id="h-finished"', 1)[1].split("</section>", 1)[0]
    with translation.override(language):
        date = formats.date_format(game.finished_at, "SHORT_DATE_FORMAT")
    meta = " ".join(_visible(finished.split('class="meta"', 1)[1].split("</span>")[0]))
    assert meta.endswith("— " + said.format(date=date)), meta


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "You keep no tile on your corners."),
        ("vi", "Bạn không giữ viên nào ở các góc."),
        ("pt-br", "Você não guarda nenhum azulejo nos cantos."),
        ("ko", "모서리에 보관하는 타일이 없습니다."),
    ],
)
def test_a_pass_that_keeps_nothing_says_so(
    language: str, said: str, make_user: Any, start_game: Any, client_for: Any
) -> None:
    users = [make_user("thao", language=language), make_user("minji")]
    game = _pavilion_placing(start_game(users, "pavilion"), users[0])
    html = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert said in _visible(html)
