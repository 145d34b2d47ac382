"""Talk in a game (issue #26 item 3): who reads and writes a game's chat, quick
phrases in the reader's language, mutes, blocks, reports, and the notices."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import GamePage, User
from accounts.services import block_create, follow_create
from chat import services
from chat.models import Message, Report
from games import clock
from games.models import Game
from notify.tasks import message_posted

pytestmark = pytest.mark.django_db


def _messages(html: str) -> list[tuple[str, str]]:
    """(author, text) of each message the chat panel shows, in order."""
    return [
        (author, " ".join(re.sub(r"<[^>]+>", "", text).split()))
        for author, text in re.findall(
            r'<li data-message="\d+" data-author="([^"]+)".*?'
            r'<span class="text">(.*?)</span>',
            html,
            flags=re.S,
        )
    ]


def _chat(client: Client, game: Game) -> str:
    return client.get(reverse("chat:panel", args=[game.pk])).content.decode()


def _befriend(a: User, b: User) -> None:
    follow_create(follower=a, followed=b)
    follow_create(follower=b, followed=a)


@pytest.fixture
def friends_game(players, start_game):
    ana, binh = players[:2]
    _befriend(ana, binh)
    return start_game([ana, binh])


def _post(client: Client, game: Game, **data: str):
    return client.post(
        reverse("chat:post", args=[game.pk]), data, HTTP_HX_REQUEST="true"
    )


def test_friends_talk_and_the_reader_sees_the_message_in_order(
    players, client_for, friends_game
):
    ana, binh = players[:2]
    _post(client_for(ana), friends_game, text="  Hi   there ")
    _post(client_for(binh), friends_game, text="Hello Ana")
    assert _messages(_chat(client_for(ana), friends_game)) == [
        ("ana", "Hi there"),
        ("binh", "Hello Ana"),
    ]
    # Kept with the position it was written at (where the replay shows it).
    assert list(Message.objects.values_list("ply", flat=True)) == [friends_game.ply] * 2


def test_chat_is_on_by_default_between_strangers(players, client_for, start_game):
    """Issue #35: between players who are not friends every game opened with
    "Your chat is off in this game"; now each has the box to write in."""
    ana, binh = players[:2]
    assert {ana.chat, binh.chat} == {User.Chat.EVERYONE}
    game = start_game([ana, binh])
    page = client_for(ana).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="chat" class="chat"' in page and 'data-chat="on"' in page
    assert 'class="chat-write"' in page
    assert "Your chat is off" not in page
    _post(client_for(ana), game, text="hi")
    assert _messages(_chat(client_for(binh), game)) == [("ana", "hi")]


def test_a_player_who_turned_the_chat_off_for_good_and_one_with_friends(
    players, client_for, start_game
):
    ana, binh = players[:2]
    game = start_game([ana, binh])
    _post(client_for(ana), game, text="hello")
    assert _messages(_chat(client_for(binh), game)) == [("ana", "hello")]
    User.objects.filter(pk=binh.pk).update(chat=User.Chat.NOBODY)
    assert _messages(_chat(client_for(binh), game)) == []
    assert (
        "Nobody else at this table has turned the chat on yet."
        in _post(client_for(ana), game, text="still there?").content.decode()
    )
    answer = _post(client_for(binh), game, text="hi")
    assert (
        "Your chat is off in this game: turn it on to write." in answer.content.decode()
    )
    # "With friends" still means on only when everyone else is a friend.
    User.objects.filter(pk=binh.pk).update(chat=User.Chat.FRIENDS)
    assert 'data-chat="off"' in _chat(client_for(binh), game)
    _befriend(ana, binh)
    assert 'data-chat="on"' in _chat(client_for(binh), game)


def test_a_quick_phrase_reads_in_each_readers_language(
    players, client_for, friends_game
):
    ana, binh = players[:2]
    User.objects.filter(pk=ana.pk).update(language="ko")
    User.objects.filter(pk=binh.pk).update(language="pt-br")
    korean = client_for(User.objects.get(pk=ana.pk))
    page = korean.get(reverse("games:detail", args=[friends_game.pk])).content.decode()
    assert 'data-phrase="good-luck">행운을 빌어요!</button>' in page
    korean.post(reverse("chat:post", args=[friends_game.pk]), {"phrase": "good-luck"})
    portuguese = client_for(User.objects.get(pk=binh.pk))
    assert _messages(_chat(portuguese, friends_game)) == [("ana", "Boa sorte!")]
    assert _messages(_chat(korean, friends_game)) == [("ana", "행운을 빌어요!")]


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        ({"text": ""}, "Write something first."),
        ({"text": "   "}, "Write something first."),
        ({"text": "x" * 301}, "That message could not be sent"),
        ({"phrase": "bribe"}, "That message could not be sent"),
        ({"text": "hi", "phrase": "thanks"}, "not both"),
    ],
)
def test_bad_messages_are_refused_with_a_reason_and_nothing_is_kept(
    players, client_for, friends_game, data, refusal
):
    answer = _post(client_for(players[0]), friends_game, **data)
    assert answer.status_code == 200
    assert refusal in answer.content.decode()
    assert not Message.objects.exists()


def test_nobody_else_reads_or_writes_a_games_chat(players, client_for, friends_game):
    ana, binh, chloe = players[:3]
    _post(client_for(ana), friends_game, text="our secret")
    outsider = client_for(chloe)
    assert (
        outsider.get(reverse("chat:panel", args=[friends_game.pk])).status_code == 404
    )
    assert _post(outsider, friends_game, text="let me in").status_code == 404
    page = outsider.get(
        reverse("games:detail", args=[friends_game.pk])
    ).content.decode()
    assert "our secret" not in page and 'id="chat"' not in page
    visitor = Client().get(reverse("games:detail", args=[friends_game.pk]))
    assert "our secret" not in visitor.content.decode()
    replay = outsider.get(reverse("games:replay", args=[friends_game.pk]))
    assert "our secret" not in replay.content.decode()
    assert Message.objects.count() == 1


def test_no_chat_with_computers(make_user, client_for):
    from games import services as game_services

    ana = make_user("ana")
    game = game_services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        invitees=[],
        computers={1: "easy"},
    )
    assert client_for(ana).get(reverse("chat:panel", args=[game.pk])).status_code == 404


def test_a_block_closes_the_chat_both_ways(players, client_for, friends_game):
    ana, binh = players[:2]
    _post(client_for(binh), friends_game, text="before")
    block_create(blocker=ana, blocked=binh)
    assert _messages(_chat(client_for(ana), friends_game)) == []
    # The blocker is told; the blocked player reads what a closed chat says.
    refused = _post(client_for(ana), friends_game, text="after").content.decode()
    assert "You blocked the other players of this game." in refused
    refused = _post(client_for(binh), friends_game, text="after").content.decode()
    assert "Nobody else at this table has turned the chat on yet." in refused
    assert Message.objects.count() == 1


def test_a_mute_hides_the_muted_players_messages_from_the_muter_only(
    players, client_for, start_game
):
    ana, binh, chloe = players[:3]
    game = start_game([ana, binh, chloe])
    client_for(ana).post(
        reverse("chat:mute", args=[game.pk]), {"player": "binh", "on": "1"}
    )
    _post(client_for(binh), game, text="spam")
    _post(client_for(chloe), game, text="hi all")
    assert _messages(_chat(client_for(ana), game)) == [("chloe", "hi all")]
    assert _messages(_chat(client_for(chloe), game)) == [
        ("binh", "spam"),
        ("chloe", "hi all"),
    ]
    client_for(ana).post(
        reverse("chat:mute", args=[game.pk]), {"player": "binh", "on": "0"}
    )
    assert [a for a, _ in _messages(_chat(client_for(ana), game))] == ["binh", "chloe"]


def test_a_report_reaches_the_admins_list_with_its_context(
    players, client_for, friends_game, make_user
):
    ana, binh = players[:2]
    _post(client_for(ana), friends_game, text="good game so far")
    _post(client_for(binh), friends_game, text="you are terrible")
    bad = Message.objects.get(text="you are terrible")
    client_for(ana).post(
        reverse("chat:report", args=[friends_game.pk]), {"message": bad.pk}
    )
    assert list(Report.objects.values_list("message__text", "reporter__username")) == [
        ("you are terrible", "ana")
    ]
    # Not one's own message, not a message of another game.
    answer = client_for(binh).post(
        reverse("chat:report", args=[friends_game.pk]),
        {"message": bad.pk},
        HTTP_HX_REQUEST="true",
    )
    assert "You cannot report your own message." in answer.content.decode()
    admin = make_user("root", is_staff=True, is_superuser=True)
    listing = client_for(admin).get(reverse("admin:chat_report_changelist"))
    assert "you are terrible" in listing.content.decode()
    detail = (
        client_for(admin)
        .get(reverse("admin:chat_report_change", args=[Report.objects.get().pk]))
        .content.decode()
    )
    around = detail.split("was said around it", 1)[1]
    assert around.index("good game so far") < around.index("you are terrible")


def test_a_second_report_of_the_same_message_says_so_and_changes_nothing(
    players, client_for, friends_game
):
    """Issue #33: a second report by the same reader was accepted silently.
    From a page drawn before the first (its Report button still there), with
    htmx or without, it says so and adds no report (no second row, no mail)."""
    ana, binh = players[:2]
    _post(client_for(binh), friends_game, text="you are terrible")
    bad = Message.objects.get(text="you are terrible")
    url = reverse("chat:report", args=[friends_game.pk])
    first = client_for(ana).post(url, {"message": bad.pk}, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    assert "already reported" not in first.content.decode()
    assert '<small class="reported">reported</small>' in first.content.decode()
    report = Report.objects.get()
    mail.outbox.clear()

    again = client_for(ana).post(url, {"message": bad.pk}, HTTP_HX_REQUEST="true")
    assert again.status_code == 200
    assert (
        '<p class="error" role="alert">You already reported this message.</p>'
        in again.content.decode()
    )
    # Without JavaScript: back to the game's chat, with the message.
    plain = client_for(ana).post(url, {"message": bad.pk}, follow=True)
    assert plain.redirect_chain[-1][0].endswith(f"/games/{friends_game.pk}/#chat")
    assert "You already reported this message." in plain.content.decode()
    assert list(Report.objects.all()) == [report]
    assert mail.outbox == []
    # Each reader reads it in their language.
    ana.language = "ko"
    ana.save(update_fields=["language"])
    korean = client_for(ana).post(url, {"message": bad.pk}, HTTP_HX_REQUEST="true")
    with translation.override("ko"):
        words = translation.gettext("You already reported this message.")
    assert words != "You already reported this message."
    assert words in korean.content.decode()
    # The service itself refuses it (a caller other than the view).
    with pytest.raises(services.AlreadyReported):
        services.report_create(message=bad, reporter=ana)
    assert Report.objects.count() == 1


def test_a_message_notifies_a_reader_who_is_away_once_by_email_in_a_while(
    players, friends_game
):
    ana, binh = players[:2]
    mail.outbox.clear()
    first = services.message_post(game=friends_game, author=ana, text="soon?")
    second = services.message_post(game=friends_game, author=ana, text="hello?")
    assert message_posted.call(first.pk) == "e-mails 1, pushes 0"
    assert message_posted.call(second.pk) == "e-mails 0, pushes 0"
    chats = [m for m in mail.outbox if "wrote to you" in m.subject]
    assert [m.to for m in chats] == [[binh.email]]
    assert chats[0].subject == f"ana wrote to you in Azul game {friends_game.pk}"
    assert "soon?" in chats[0].body


def test_no_notice_while_the_reader_has_the_game_open(players, friends_game):
    ana, binh = players[:2]
    GamePage.objects.create(
        user=binh, game_id=friends_game.pk, channel_name="x", seen_at=clock.now()
    )
    message = services.message_post(game=friends_game, author=ana, text="hi")
    assert message_posted.call(message.pk) == "e-mails 0, pushes 0"
