"""Which language a request gets, the switcher, and e-mails in the recipient's."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.core import mail
from django.test import Client
from django.utils import translation


def html_lang(response: Any) -> str:
    text = response.content.decode()
    return text.split('<html lang="', 1)[1].split('"', 1)[0]


def test_browser_language_is_used_when_nothing_is_saved(db: Any) -> None:
    assert html_lang(Client(HTTP_ACCEPT_LANGUAGE="ko-KR,ko;q=0.9").get("/")) == "ko"
    assert html_lang(Client(HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9").get("/")) == "pt-br"
    assert html_lang(Client(HTTP_ACCEPT_LANGUAGE="de-DE").get("/")) == "en"
    assert html_lang(Client().get("/")) == "en"


def test_saved_language_beats_the_browser(make_user: Any, client_for: Any) -> None:
    user = make_user("thao", language="vi")
    client = client_for(user)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ko")
    assert html_lang(response) == "vi"
    assert "Ván mới" in response.content.decode()
    assert response["Content-Language"] == "vi"


def test_switcher_saves_the_choice_on_the_account(
    make_user: Any, client_for: Any
) -> None:
    user = make_user("minji")
    client = client_for(user)
    response = client.post(
        "/accounts/language/", {"language": "ko", "next": "/games/archive/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/games/archive/"
    user.refresh_from_db()
    assert user.language == "ko"
    # a new session (another device) gets the saved language too
    assert html_lang(client_for(user).get("/", HTTP_ACCEPT_LANGUAGE="en")) == "ko"


def test_switcher_without_account_uses_a_cookie(db: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post("/accounts/language/", {"language": "pt-br", "next": "/"})
    assert html_lang(client.get("/")) == "pt-br"


def test_the_switchers_cookie_stays_on_this_site(db: Any) -> None:
    """Never sent along with another site's requests, never read by a script
    (and over HTTPS only in production: tests/accounts/test_settings.py)."""
    answer = Client().post("/accounts/language/", {"language": "ko", "next": "/"})
    cookie = answer.cookies["django_language"]
    assert cookie.value == "ko"
    assert cookie["samesite"] == "Lax"
    assert cookie["httponly"] is True


def test_switcher_refuses_unknown_language_and_foreign_next(
    make_user: Any, client_for: Any
) -> None:
    user = make_user("joao", language="pt-br")
    client = client_for(user)
    response = client.post(
        "/accounts/language/", {"language": "xx", "next": "https://evil.example/"}
    )
    assert response.status_code == 302
    assert "evil" not in response["Location"]
    user.refresh_from_db()
    assert user.language == "pt-br"
    assert client.get("/accounts/language/").status_code == 405


def test_switcher_is_on_every_page_and_works_without_javascript(db: Any) -> None:
    # NFC: Django spells some names decomposed (e + combining marks)
    html = unicodedata.normalize(
        "NFC", Client().get("/rules/pavilion/").content.decode()
    )
    assert 'action="/accounts/language/"' in html
    for code, name in [("vi", "Tiếng Việt"), ("ko", "한국어"), ("en", "English")]:
        assert f'<option value="{code}" lang="{code}"' in html
        assert name in html


def test_sign_up_keeps_the_language_it_was_done_in(db: Any) -> None:
    from accounts.models import User

    client = Client(HTTP_ACCEPT_LANGUAGE="vi")
    client.post(
        "/accounts/signup/",
        {
            "username": "nguyen",
            "password1": "azul-tiles-in-a-row-7",
            "password2": "azul-tiles-in-a-row-7",
        },
    )
    assert User.objects.get(username="nguyen").language == "vi"


def test_turn_email_is_in_the_recipients_language(
    make_user: Any, start_game: Any
) -> None:
    from games import emails

    sender = make_user("ana", language="en")
    recipient = make_user("minji", language="ko")
    game = start_game([sender, recipient])
    mail.outbox.clear()
    with translation.override("pt-br"):  # whoever triggers it reads Portuguese
        emails.send_turn(user=recipient, game=game)
        emails.send_turn(user=sender, game=game)
    korean, english = mail.outbox
    assert korean.subject == f"아줄 {game.pk}번 게임에서 내 차례"
    assert "차례" in korean.body
    assert english.subject == f"Your move in Azul game {game.pk}"
    assert translation.get_language() != "ko"


def test_password_reset_email_is_in_the_accounts_language(make_user: Any) -> None:
    make_user("thao", language="vi", email="thao@example.com")
    mail.outbox.clear()
    Client(HTTP_ACCEPT_LANGUAGE="en").post(
        "/accounts/password_reset/", {"email": "thao@example.com"}
    )
    (message,) = mail.outbox
    assert message.subject == "Đặt lại mật khẩu Azul của bạn"
    assert "mật khẩu mới" in message.body


def test_numbers_and_dates_follow_the_language(make_user: Any, client_for: Any) -> None:
    from django.template import Context, Template

    template = Template("{{ score|floatformat:1 }} {{ when|date:'DATE_FORMAT' }}")
    from datetime import date

    context = Context({"score": 12.5, "when": date(2026, 3, 7)})
    with translation.override("pt-br"):
        assert template.render(context) == "12,5 7 de março de 2026"
    with translation.override("en"):
        assert template.render(context) == "12.5 March 7, 2026"
