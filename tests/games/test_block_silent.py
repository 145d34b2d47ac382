"""A block that does not tell (issue #35 item 2): after ana blocks binh, binh
sees what he would see had ana never noticed him. His follow of ana is made
and answered as any; his invitation to ana stands for him as an unanswered
one, while ana is never shown or told it. Only the one who blocks is told why
a follow or an invitation is refused."""

from __future__ import annotations

import html

import pytest
from django.core import mail

from accounts.models import Follow
from accounts.services import block_create
from games import selectors
from games.models import Game
from games.tasks import run_ready_tasks
from notify.models import Notice


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _invite(client, *names: str, players: int = 2):
    return client.post(
        "/games/new/",
        {
            "variant": "classic",
            "players": players,
            "time_control": "daily",
            "invite": " ".join(names),
        },
    )


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.mark.django_db
def test_a_blocked_player_follows_word_for_word_as_anyone(players, client_for):
    ana, binh, chloe = players[:3]
    block_create(blocker=ana, blocked=binh)
    binh_client = client_for(binh)

    normal = binh_client.post("/accounts/players/chloe/follow/", follow=True)
    blocked = binh_client.post("/accounts/players/ana/follow/", follow=True)

    assert _messages(normal) == [
        "You follow chloe: their games show on your home page."
    ]
    assert _messages(blocked) == ["You follow ana: their games show on your home page."]
    assert Follow.objects.filter(follower=binh, followed=ana).exists()
    assert ">Unfollow</button>" in _text(binh_client.get("/accounts/players/ana/"))


@pytest.mark.django_db(transaction=True)
def test_an_invitation_to_a_blocker_stands_unseen_and_untold(players, client_for):
    ana, binh, chloe = players[:3]
    block_create(blocker=ana, blocked=binh)
    binh_client = client_for(binh)
    mail.outbox.clear()

    response = _invite(binh_client, "ana", "chloe", players=3)
    run_ready_tasks()

    # binh: the game waits, as any with an invitation not answered yet
    assert response.status_code == 302
    game = Game.objects.get(creator=binh)
    assert game.status == Game.Status.OPEN
    assert [g.pk for g in selectors.game_list_waiting(user=binh)] == [game.pk]
    page = _text(binh_client.get(f"/games/{game.pk}/"))
    assert "Cancel the game" in page and "block" not in page.lower()

    # ana: no invitation on her home page, no notice, no e-mail, no button
    assert list(selectors.game_list_invitations(user=ana)) == []
    ana_client = client_for(ana)
    assert f"/games/{game.pk}/" not in _text(ana_client.get("/"))
    assert not Notice.objects.filter(user=ana).exists()
    assert [m for m in mail.outbox if m.to == [ana.email]] == []
    assert "Accept the invitation" not in _text(ana_client.get(f"/games/{game.pk}/"))
    assert ana_client.post(f"/games/{game.pk}/accept/").status_code in (200, 302)
    assert game.seats.get(user=ana).invite_status == "invited"

    # chloe, invited beside her, is told as anyone
    assert [g.pk for g in selectors.game_list_invitations(user=chloe)] == [game.pk]
    assert Notice.objects.filter(user=chloe, game=game).exists()
    assert [m for m in mail.outbox if m.to == [chloe.email]]

    # binh may cancel it as any open game
    binh_client.post(f"/games/{game.pk}/cancel/")
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


@pytest.mark.django_db
def test_the_one_who_blocks_is_told_why(players, client_for):
    ana, binh = players[:2]
    block_create(blocker=ana, blocked=binh)
    ana_client = client_for(ana)

    refused = _invite(ana_client, "binh")
    assert refused.status_code == 200
    assert "You block binh: unblock them first to invite them." in _text(refused)
    assert not Game.objects.filter(creator=ana).exists()

    answer = ana_client.post("/accounts/players/binh/follow/", follow=True)
    assert _messages(answer) == ["You block binh: unblock them first to follow them."]
    assert not Follow.objects.exists()
