"""Settings → API tokens (issue #39 item 1): a token made through the settings
page's form is shown once on the page after (a reload does not show it again,
nor does any URL), works on the API, is listed with its prefix, scopes and last
use, and its Revoke button ends it; a bad input (no scope, no name, an expiry
not offered, a forged or someone else's token) changes nothing and says why;
the section reads in the player's language."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest

from api import services
from api.models import ApiToken
from games import clock
from tests.i18n.test_pages_translated import _english_words, english_left

pytestmark = pytest.mark.django_db

URL = "/accounts/settings/"
SECRET = re.compile(r'id="new-token-secret" type="text" readonly value="([^"]+)"')


def _make(client: Any, **fields: Any) -> Any:
    data = {
        "action": "token_create",
        "token-name": "scorer",
        "token-scopes": ["game:read", "game:play"],
        "token-expiry": "",
    } | {f"token-{name}": value for name, value in fields.items()}
    return client.post(URL, data)


def _section(page: str) -> str:
    return page.split('<section aria-labelledby="h-tokens">', 1)[1].split(
        "</section>", 1
    )[0]


def _api_account(client: Any, secret: str) -> int:
    answer = client.get("/api/account", HTTP_AUTHORIZATION=f"Bearer {secret}")
    return int(answer.status_code)


def test_a_token_is_shown_once_works_and_is_listed_with_its_last_use(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    client = client_for(ana)
    answer = _make(client)
    assert answer.status_code == 302 and answer["Location"] == URL
    page = client.get(URL)
    shown = SECRET.search(page.content.decode())
    assert shown is not None
    secret = shown.group(1)
    assert secret.startswith("azul_") and len(secret) > 40
    assert "no-store" in page["Cache-Control"]
    assert 'data-copy="new-token-secret"' in page.content.decode()
    # kept as its digest and a prefix, never as itself
    token = ApiToken.objects.get(user=ana)
    assert token.digest == services.digest(secret) and token.prefix == secret[:12]
    assert not ApiToken.objects.filter(digest=secret).exists()
    assert (token.name, token.scopes, token.expires_at) == (
        "scorer",
        ["game:play", "game:read"],
        None,
    )
    listed = _section(page.content.decode())
    assert "scorer" in listed and f"{token.prefix}…" in listed
    assert "never used" in listed and "does not expire" in listed
    assert "Read my games and what happens in them" in listed
    assert "Send and answer challenges" not in listed.split("<h3>")[0]
    # a reload does not show it again
    again = client.get(URL).content.decode()
    assert secret not in again and "new-token-secret" not in again
    assert "scorer" in _section(again)
    # it works, and its use is listed
    assert _api_account(client, secret) == 200
    used = _section(client.get(URL).content.decode())
    assert "never used" not in used and "last used" in used


def test_a_revoked_token_is_refused_and_no_longer_listed(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    client = client_for(ana)
    token, secret = services.token_create(user=ana, name="old", scopes=["game:read"])
    assert _api_account(client, secret) == 200
    answer = client.post(URL, {"action": "token_revoke", "token": token.pk})
    assert answer.status_code == 302
    page = client.get(URL).content.decode()
    assert "The token “old” was revoked" in page
    assert token.prefix not in _section(page)
    assert "You have no token in use." in _section(page)
    assert _api_account(client, secret) == 401
    # a second revoke changes nothing, and says so
    token.refresh_from_db()
    revoked_at = token.revoked_at
    client.post(URL, {"action": "token_revoke", "token": token.pk})
    assert "could not be revoked" in client.get(URL).content.decode()
    token.refresh_from_db()
    assert token.revoked_at == revoked_at


def test_someone_elses_or_a_forged_token_cannot_be_revoked(
    make_user: Any, client_for: Any
) -> None:
    ana, binh = make_user("ana"), make_user("binh")
    theirs, secret = services.token_create(user=binh, name="b", scopes=["game:read"])
    client = client_for(ana)
    for forged in (theirs.pk, theirs.pk + 1000, "x", "", "-1", "9" * 30):
        answer = client.post(URL, {"action": "token_revoke", "token": forged})
        assert answer.status_code == 302
        page = client.get(URL).content.decode()
        assert "That token could not be revoked" in page, forged
    theirs.refresh_from_db()
    assert theirs.revoked_at is None
    assert _api_account(client, secret) == 200


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"scopes": []}, "Choose at least one scope."),
        ({"name": "   "}, "Give the token a name."),
        ({"name": ""}, "Give the token a name."),
        ({"expiry": "7"}, "Choose one of the expiries offered."),
        ({"expiry": "forever"}, "Choose one of the expiries offered."),
        ({"scopes": ["game:read", "admin"]}, "That is not one of the scopes offered."),
    ],
)
def test_a_bad_input_makes_no_token_and_says_why(
    fields: dict[str, Any], said: str, make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    client = client_for(ana)
    answer = _make(client, **fields)
    assert answer.status_code == 200
    assert said in _section(answer.content.decode())
    assert not ApiToken.objects.exists()
    assert "new-token-secret" not in client.get(URL).content.decode()


def test_an_expiry_is_set_and_an_expired_token_is_not_listed(
    make_user: Any, client_for: Any
) -> None:
    ana = make_user("ana")
    client = client_for(ana)
    before = clock.now()
    _make(client, name="monthly", expiry="30")
    token = ApiToken.objects.get(user=ana)
    assert token.expires_at is not None
    assert (
        before + timedelta(days=30)
        <= token.expires_at
        <= clock.now() + timedelta(days=30)
    )
    page = client.get(URL).content.decode()
    assert "monthly" in _section(page) and "expires" in _section(page)
    assert "You have 1 token in use." in page
    ApiToken.objects.filter(pk=token.pk).update(
        expires_at=clock.now() - timedelta(seconds=1)
    )
    assert "monthly" not in _section(client.get(URL).content.decode())


def test_the_token_section_reads_in_portuguese(make_user: Any, client_for: Any) -> None:
    joao = make_user("joao", language="pt-br")
    client = client_for(joao)
    _make(client, name="robô", expiry="90")
    page = client.get(URL).content.decode()
    section = _section(page)
    for said in (
        "Tokens de API",
        "copie-o agora",
        "Copiar",
        "nunca usado",
        "Revogar",
        "Novo token",
        "Daqui a 90 dias",
        "Ler minhas partidas",
    ):
        assert said in section, said
    prefix = ApiToken.objects.get(user=joao).prefix
    # the prefix is random letters: left out of the check for English words
    assert english_left(section.replace(prefix, ""), _english_words()) == []
