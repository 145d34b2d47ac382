"""Issue #35: a chat somebody can open, and a block that does not tell.

Item 1: the chat is on with everyone by default (new and existing accounts);
while one player has it on and another off, the one with it off reads one
quiet line, "Alice would like to talk — turn the chat on", and the one with
it on is told the others have not turned it on yet (no dead end).
Item 2: a blocked player sees exactly what they would see if the blocker had
turned the chat off; only the blocker is told of the block.
"""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from accounts.services import block_create
from chat import selectors, services
from chat.models import Message
from games.models import Game

pytestmark = pytest.mark.django_db


def _chat(client: Client, game: Game) -> str:
    return client.get(reverse("chat:panel", args=[game.pk])).content.decode()


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _lines(html: str) -> list[str]:
    """The panel's quiet lines (class "meta"), as the player reads them."""
    return [
        _text(inner)
        for _tag, inner in re.findall(
            r'<(p|form)[^>]*class="meta[^"]*"[^>]*>(.*?)</\1>', html, flags=re.S
        )
    ]


def _messages(html: str) -> list[str]:
    return [
        _text(text)
        for text in re.findall(r'<span class="text">(.*?)</span>', html, flags=re.S)
    ]


def _post(client: Client, game: Game, text: str) -> str:
    return client.post(
        reverse("chat:post", args=[game.pk]), {"text": text}, HTTP_HX_REQUEST="true"
    ).content.decode()


def _switch(client: Client, game: Game, on: bool) -> None:
    client.post(
        reverse("chat:switch", args=[game.pk]),
        {"on": "1" if on else "0"},
        HTTP_HX_REQUEST="true",
    )


def _same(html: str) -> str:
    """The panel without what differs between two drawings of the same page."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


# --------------------------------------------------------------- item 1


def test_existing_accounts_on_the_old_default_chat_with_everyone(make_user):
    ana = make_user("ana", chat=User.Chat.FRIENDS)
    binh = make_user("binh", chat=User.Chat.NOBODY)
    chloe = make_user("chloe", chat=User.Chat.EVERYONE)
    migration = importlib.import_module("accounts.migrations.0014_chat_with_everyone")
    migration.everyone(apps, None)
    chats = dict(User.objects.values_list("username", "chat"))
    assert chats == {
        ana.username: User.Chat.EVERYONE,
        binh.username: User.Chat.NOBODY,  # who turned it off keeps it off
        chloe.username: User.Chat.EVERYONE,
    }
    assert make_user("dae").chat == User.Chat.EVERYONE


def test_one_player_off_is_asked_and_the_other_is_told_they_have_not_yet(
    players, client_for, start_game
):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    _switch(client_for(binh), game, on=False)

    panel = _chat(client_for(ana), game)
    assert 'class="chat-write"' not in panel
    assert _lines(panel) == [
        "binh has not turned the chat on yet: you can write as soon as they do."
    ]
    panel = _chat(client_for(binh), game)
    assert _lines(panel) == ["ana would like to talk — turn the chat on"]
    # The line is the switch: no second "Turn the chat on" button below it.
    assert "Turn the chat on in this game" not in panel
    assert 'class="chat-write"' not in panel

    # Without JavaScript: a plain form POST, back to the game's chat.
    answer = client_for(binh).post(
        reverse("chat:switch", args=[game.pk]), {"on": "1"}, follow=True
    )
    assert answer.redirect_chain[-1][0].endswith(f"/games/{game.pk}/#chat")
    assert 'class="chat-write"' in answer.content.decode()
    assert 'class="chat-write"' in _chat(client_for(ana), game)
    assert _lines(_chat(client_for(ana), game)) == []


def test_nobody_asks_a_player_whose_chat_is_off_when_nobody_has_it_on(
    players, client_for, start_game
):
    ana, binh = players[:2]
    User.objects.filter(pk__in=[ana.pk, binh.pk]).update(chat=User.Chat.NOBODY)
    game = start_game([ana, binh])
    panel = _chat(client_for(ana), game)
    assert _lines(panel) == [
        "Your chat is off in this game: you neither read nor write here."
    ]
    assert "Turn the chat on in this game" in panel
    _switch(client_for(ana), game, on=True)
    assert _lines(_chat(client_for(binh), game)) == [
        "ana would like to talk — turn the chat on"
    ]


def test_at_a_table_of_three_one_other_on_is_enough_to_write(
    players, client_for, start_game
):
    ana, binh, chloe = players[:3]
    game = start_game([ana, binh, chloe])
    _switch(client_for(binh), game, on=False)
    # ana and chloe talk; binh is asked by both, in one line.
    assert 'class="chat-write"' in _chat(client_for(ana), game)
    assert _lines(_chat(client_for(binh), game)) == [
        "ana and 1 other player would like to talk — turn the chat on"
    ]
    _switch(client_for(chloe), game, on=False)
    assert _lines(_chat(client_for(ana), game)) == [
        "The other players have not turned the chat on yet: you can write as "
        "soon as one of them does."
    ]
    assert _lines(_chat(client_for(binh), game)) == [
        "ana would like to talk — turn the chat on"
    ]


def test_a_muted_player_does_not_ask_the_muter(players, client_for, start_game):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    client_for(binh).post(
        reverse("chat:mute", args=[game.pk]), {"player": "ana", "on": "1"}
    )
    _switch(client_for(binh), game, on=False)
    assert _lines(_chat(client_for(binh), game)) == [
        "Your chat is off in this game: you neither read nor write here."
    ]


def test_the_asking_line_in_each_language(players, client_for, start_game):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    _switch(client_for(binh), game, on=False)
    for language in ("vi", "pt-br", "ko"):
        User.objects.filter(pk=binh.pk).update(language=language)
        with translation.override(language):
            words = translation.gettext("turn the chat on")
            talk = translation.gettext("%(name)s would like to talk") % {"name": "ana"}
        assert words != "turn the chat on"
        assert talk != "ana would like to talk"
        panel = _chat(client_for(User.objects.get(pk=binh.pk)), game)
        assert _lines(panel) == [f"{talk} — {words}"]


# --------------------------------------------------------------- item 2


def test_a_blocked_player_sees_what_a_chat_turned_off_shows(
    players, client_for, start_game
):
    """Issue #35: A's panel said "binh: blocked" and "there is a block
    between you and the other players"; now it is the very panel A reads
    when binh has merely turned the chat off."""
    ana, binh = players[:2]
    game = start_game([ana, binh])
    _post(client_for(binh), game, "hello ana")
    _switch(client_for(binh), game, on=False)
    off = _chat(client_for(ana), game)
    refused_off = _post(client_for(ana), game, "are you there?")

    _switch(client_for(binh), game, on=True)
    block_create(blocker=binh, blocked=ana)
    blocked = _chat(client_for(ana), game)
    assert _same(blocked) == _same(off)
    assert "block" not in blocked.lower()
    assert _messages(blocked) == ["hello ana"]  # what was said before stays
    assert _lines(blocked) == [
        "binh has not turned the chat on yet: you can write as soon as they do."
    ]
    assert 'data-player="binh" data-chat="off"' in blocked
    refused = _post(client_for(ana), game, "are you there?")
    assert _same(refused) == _same(refused_off)
    assert "Nobody else at this table has turned the chat on yet." in refused
    # Without JavaScript, the refusal comes back as a message on the game page.
    page = client_for(ana).post(
        reverse("chat:post", args=[game.pk]), {"text": "hi?"}, follow=True
    )
    assert "Nobody else at this table has turned the chat on yet." in (
        page.content.decode()
    )
    assert "block" not in _text(page.content.decode()).lower()
    # The same when ana's own chat is off: no "binh would like to talk".
    _switch(client_for(ana), game, on=False)
    assert _lines(_chat(client_for(ana), game)) == [
        "Your chat is off in this game: you neither read nor write here."
    ]
    assert Message.objects.count() == 1


def test_the_blocker_sees_that_they_blocked(players, client_for, start_game):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    block_create(blocker=binh, blocked=ana)
    panel = _chat(client_for(binh), game)
    assert 'data-player="ana" data-chat="on" data-blocked="1"' in panel
    assert "ana</bdi>:\n      blocked" in panel
    assert _lines(panel) == [
        "The chat is closed: you blocked the other players of this game."
    ]
    assert "You blocked the other players of this game." in _post(
        client_for(binh), game, "bye"
    )
    assert not Message.objects.exists()


def test_at_a_table_of_three_the_blocker_is_silent_to_the_blocked_only(
    players, client_for, start_game
):
    ana, binh, chloe = players[:3]
    game = start_game([ana, binh, chloe])
    _post(client_for(binh), game, "before")
    block_create(blocker=binh, blocked=ana)
    _post(client_for(binh), game, "after, to chloe")
    _post(client_for(ana), game, "hi chloe")
    # ana reads binh's words from before the block, not since, and writes
    # to chloe; binh looks to her like a player whose chat is off.
    panel = _chat(client_for(ana), game)
    assert _messages(panel) == ["before", "hi chloe"]
    assert 'data-player="binh" data-chat="off"' in panel
    assert "block" not in panel.lower()
    assert _messages(_chat(client_for(chloe), game)) == [
        "before",
        "after, to chloe",
        "hi chloe",
    ]
    assert _messages(_chat(client_for(binh), game)) == ["before", "after, to chloe"]
    after = Message.objects.get(text="after, to chloe")
    assert selectors.message_readers(message=after) == [chloe]
    # ana's chat off: only chloe asks her.
    _switch(client_for(ana), game, on=False)
    assert _lines(_chat(client_for(ana), game)) == [
        "chloe would like to talk — turn the chat on"
    ]


def test_the_services_refusal_to_a_blocked_player_names_no_block(players, start_game):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    block_create(blocker=binh, blocked=ana)
    with pytest.raises(services.ChatError) as refused:
        services.message_post(game=game, author=ana, text="hi")
    assert refused.value.message == (
        "Nobody else at this table has turned the chat on yet."
    )
