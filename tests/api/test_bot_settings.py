"""Settings → Bot accounts (issue #39 item 4): a person makes a bot account
from the settings page, which lists it (its name to its profile, the BOT
mark); its tokens are made in the API tokens form by choosing it as the
account, shown once, listed with its name, work on the API as the bot, and
are revoked from the owner's page. Only the owner's own bots can be chosen;
a refused bot (its name, a sixth) says why and makes nothing; the sections
read in the player's language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.models import User
from accounts.services import BOTS_PER_OWNER, bot_create
from api import services
from api.models import ApiToken
from tests.i18n.test_pages_translated import _english_words, english_left

pytestmark = pytest.mark.django_db

URL = "/accounts/settings/"
SECRET = re.compile(r'id="new-token-secret" type="text" readonly value="([^"]+)"')


def _section(page: str, name: str) -> str:
    return page.split(f'<section aria-labelledby="h-{name}">', 1)[1].split(
        "</section>", 1
    )[0]


def _make_bot(client: Any, name: str) -> Any:
    return client.post(URL, {"action": "bot_create", "bot-username": name})


def _make_token(client: Any, account: Any, **fields: Any) -> Any:
    data = {
        "action": "token_create",
        "token-account": account,
        "token-name": "runner",
        "token-scopes": ["game:read", "game:play"],
        "token-expiry": "",
    } | {f"token-{name}": value for name, value in fields.items()}
    return client.post(URL, data)


def _account(client: Any, secret: str) -> Any:
    return client.get("/api/account", HTTP_AUTHORIZATION=f"Bearer {secret}")


def test_a_bot_is_made_from_settings_its_token_plays_as_it_and_is_revoked_there(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    client = client_for(ana)
    page = client.get(URL).content.decode()
    assert "You run no bot account." in _section(page, "bots")
    # the account choice: herself by default, no bot yet
    assert f'<option value="{ana.pk}" selected>Me (ana)</option>' in page

    answer = _make_bot(client, "tile-bot")
    assert answer.status_code == 302 and answer["Location"] == URL
    bot = User.objects.get(username="tile-bot")
    assert bot.bot_owner == ana and not bot.has_usable_password()
    page = client.get(URL).content.decode()
    assert "The bot account “tile-bot” was made." in page
    listed = _section(page, "bots")
    assert 'href="/accounts/players/tile-bot/"' in listed
    assert ">BOT</abbr>" in listed and 'data-bot-owner="ana"' in listed
    assert f'<option value="{bot.pk}">The bot tile-bot</option>' in page

    # a token for the bot: the bot's, shown once, listed with its name
    answer = _make_token(client, bot.pk, name="ladder")
    assert answer.status_code == 302
    shown_page = client.get(URL)
    assert "no-store" in shown_page["Cache-Control"]
    page = shown_page.content.decode()
    shown = SECRET.search(page)
    assert shown is not None
    secret = shown.group(1)
    assert "Your new token “ladder” for the bot tile-bot" in page
    token = ApiToken.objects.get(name="ladder")
    assert token.user == bot and not ApiToken.objects.filter(user=ana).exists()
    tokens = _section(page, "tokens")
    assert f"{token.prefix}…" in tokens and 'data-token-account="tile-bot"' in tokens
    assert "for the bot" in tokens
    assert secret not in client.get(URL).content.decode()  # once

    # it acts as the bot
    answer = _account(client, secret)
    assert answer.status_code == 200
    assert answer.json()["name"] == "tile-bot"
    assert answer.json()["bot"] is True

    # her own token is made as before, with no account named
    _make_token(client, "", name="mine")
    assert ApiToken.objects.get(name="mine").user == ana
    page = client.get(URL).content.decode()
    assert "Your new token “mine”: copy it now" in page
    assert "You have 2 tokens in use." in page

    # revoked from the owner's page: refused after
    answer = client.post(URL, {"action": "token_revoke", "token": token.pk})
    assert answer.status_code == 302
    page = client.get(URL).content.decode()
    assert "The token “ladder” was revoked" in page
    assert token.prefix not in _section(page, "tokens")
    assert _account(client, secret).status_code == 401


def test_only_the_owners_own_bots_may_be_chosen(
    make_user: Any, client_for: Any
) -> None:
    ana, binh = make_user("ana"), make_user("binh")
    bot_create(owner=ana, username="ana-bot")
    theirs = bot_create(owner=binh, username="binh-bot")
    client = client_for(ana)
    for forged in (theirs.pk, binh.pk, theirs.pk + 1000, "x", "-1", "9" * 30):
        answer = _make_token(client, forged)
        assert answer.status_code == 200, forged
        section = _section(answer.content.decode(), "tokens")
        assert "That is neither your account nor one of your bots." in section
        assert not ApiToken.objects.exists(), forged
        assert "new-token-secret" not in client.get(URL).content.decode()
    # nor can binh's bot's token be revoked from ana's page
    token, secret = services.token_create(user=theirs, name="b", scopes=["game:read"])
    client.post(URL, {"action": "token_revoke", "token": token.pk})
    assert "That token could not be revoked" in client.get(URL).content.decode()
    token.refresh_from_db()
    assert token.revoked_at is None and _account(client, secret).status_code == 200
    # binh revokes it from his
    client_for(binh).post(URL, {"action": "token_revoke", "token": token.pk})
    assert _account(client, secret).status_code == 401


def test_a_refused_bot_says_why_and_makes_nothing(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    make_user("taken")
    client = client_for(ana)
    for name, said in (
        ("a b", "1 to 30 letters, digits, dots, hyphens or underscores."),
        ("Taken", "This name is taken."),
        ("", "Give the bot a name."),
    ):
        answer = _make_bot(client, name)
        assert answer.status_code == 200, name
        assert said in _section(answer.content.decode(), "bots"), name
    assert not ana.bots.exists()
    for n in range(BOTS_PER_OWNER):
        assert _make_bot(client, f"bot-{n}").status_code == 302
    answer = _make_bot(client, "one-too-many")
    assert answer.status_code == 200
    section = _section(answer.content.decode(), "bots")
    assert f"You can run {BOTS_PER_OWNER} bot accounts." in section
    assert not User.objects.filter(username="one-too-many").exists()
    assert ana.bots.count() == BOTS_PER_OWNER
    assert section.count("data-bot=") == BOTS_PER_OWNER


def test_the_bot_sections_read_in_korean_and_portuguese(
    make_user: Any, client_for: Any
) -> None:
    for username, language, words in (
        ("minji", "ko", ("봇 계정", "새 봇 계정", "봇 계정 만들기")),
        ("joao", "pt-br", ("Contas de bot", "Nova conta de bot")),
    ):
        person = make_user(username, language=language)
        client = client_for(person)
        _make_bot(client, f"{username}-bot")
        bot = User.objects.get(username=f"{username}-bot")
        _make_token(client, bot.pk, name="zx-1")  # a name no language has
        page = client.get(URL).content.decode()
        bots = _section(page, "bots")
        for said in words:
            assert said in bots, said
        tokens = _section(page, "tokens")
        prefix = ApiToken.objects.get(user=bot).prefix
        secret = SECRET.search(page)
        assert secret is not None
        text = bots + tokens.replace(prefix, "").replace(secret.group(1), "")
        # the names are the players' own, not English words
        text = text.replace(username, "")
        assert english_left(text, _english_words()) == [], language
