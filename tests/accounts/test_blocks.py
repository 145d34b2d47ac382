"""A player can block another (issue #23): no invitations from them. Blocking
and unblocking go through the profile page's button (POST) and the settings
page's list; the refusal does not say why."""

from __future__ import annotations

import html

import pytest

from accounts.models import Block
from accounts.selectors import blocked_ids
from accounts.services import computer_player
from games import selectors, services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _invite(client, *names: str):
    return client.post(
        "/games/new/",
        {
            "variant": "classic",
            "players": 2,
            "time_control": "daily",
            "invite": " ".join(names),
        },
    )


def _text(response) -> str:
    return html.unescape(response.content.decode())


def test_a_blocked_player_cannot_invite_and_can_again_once_unblocked(
    players, client_for
):
    ana, binh = players[:2]
    ana_client, binh_client = client_for(ana), client_for(binh)

    response = ana_client.post("/accounts/players/binh/block/")
    assert (
        response.status_code == 302
        and response["Location"] == "/accounts/players/binh/"
    )
    page = _text(ana_client.get("/accounts/players/binh/"))
    assert (
        "You blocked binh: no more invitations, joined games or chat between you."
        in page
    )
    assert ">Unblock</button>" in page

    # The invitation stands for binh as any (issue #35 item 2), unseen by ana.
    assert _invite(binh_client, "ana").status_code == 302
    assert Seat.objects.filter(user=ana, invite_status="invited").exists()
    assert list(selectors.game_list_invitations(user=ana)) == []

    ana_client.post("/accounts/players/binh/unblock/")
    [game] = selectors.game_list_invitations(user=ana)
    assert game.creator == binh


def test_one_blocker_among_the_invitees_refuses_the_whole_game(players, client_for):
    ana, binh, chloe = players[:3]
    client_for(chloe).post("/accounts/players/ana/block/")
    response = client_for(ana).post(
        "/games/new/",
        {
            "variant": "classic",
            "players": 3,
            "time_control": "daily",
            "invite": "binh chloe",
        },
    )
    # Issue #35 item 2: the game is made; chloe is never shown it.
    assert response.status_code == 302
    game = Game.objects.get(creator=ana)
    assert game.seats.filter(user=chloe, invite_status="invited").exists()
    assert list(selectors.game_list_invitations(user=chloe)) == []


def test_blocking_declines_their_waiting_invitations(players, client_for):
    ana, binh = players[:2]
    assert _invite(client_for(binh), "ana").status_code == 302
    game = Game.objects.get(creator=binh)

    client_for(ana).post("/accounts/players/binh/block/")

    assert list(selectors.game_list_invitations(user=ana)) == []
    seat = game.seats.get(number=1)
    assert (seat.user, seat.invite_status) == (None, "open")  # as if declined
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_blocking_twice_keeps_one_block(players, client_for):
    ana, binh = players[:2]
    client = client_for(ana)
    client.post("/accounts/players/binh/block/")
    client.post("/accounts/players/binh/block/")
    assert Block.objects.filter(blocker=ana, blocked=binh).count() == 1
    client.post("/accounts/players/binh/unblock/")
    client.post("/accounts/players/binh/unblock/")
    assert not Block.objects.exists()


def test_nobody_blocks_themself_or_a_computer(players, client_for):
    ana = players[0]
    client = client_for(ana)
    computer = computer_player(level="easy")
    page = _text(client.get("/accounts/players/ana/"))
    assert ">Block</button>" not in page
    page = _text(client.get(f"/accounts/players/{computer.username}/"))
    assert ">Block</button>" not in page

    response = client.post("/accounts/players/ana/block/", follow=True)
    assert "You cannot block yourself." in _text(response)
    response = client.post(f"/accounts/players/{computer.username}/block/", follow=True)
    assert "A computer player cannot be blocked." in _text(response)
    assert not Block.objects.exists()


def test_block_needs_a_signed_in_post(players, client):
    assert client.post("/accounts/players/binh/block/").status_code == 302  # log in
    assert not Block.objects.exists()
    assert "Block</button>" not in _text(client.get("/accounts/players/binh/"))
    ana = players[0]
    client.force_login(ana)
    assert client.get("/accounts/players/binh/block/").status_code == 405
    assert not Block.objects.exists()


def test_the_profile_button_is_a_csrf_protected_form(players, client_for):
    page = _text(client_for(players[0]).get("/accounts/players/binh/"))
    form = page.split('class="block-player"', 1)[0].rsplit("<form", 1)[1]
    assert 'method="post"' in form and 'action="/accounts/players/binh/block/"' in form
    after = page.split('class="block-player"', 1)[1].split("</form>", 1)[0]
    assert 'name="csrfmiddlewaretoken"' in after


def test_settings_lists_blocked_players_and_unblocks_them(players, client_for):
    ana, binh, chloe = players[:3]
    client = client_for(ana)
    page = _text(client.get("/accounts/settings/"))
    assert "You block nobody." in page
    client.post("/accounts/players/chloe/block/")
    client.post("/accounts/players/binh/block/")
    page = _text(client.get("/accounts/settings/"))
    assert page.index('data-blocked-player="binh"') < page.index(
        'data-blocked-player="chloe"'
    )

    response = client.post(
        "/accounts/players/binh/unblock/", {"next": "/accounts/settings/"}
    )
    assert response["Location"] == "/accounts/settings/"
    page = _text(client.get("/accounts/settings/"))
    assert 'data-blocked-player="binh"' not in page
    assert 'data-blocked-player="chloe"' in page
    assert "You unblocked binh: they can invite you again." in page


def test_unblock_goes_back_to_this_site_only(players, client_for):
    client = client_for(players[0])
    client.post("/accounts/players/binh/block/")
    response = client.post(
        "/accounts/players/binh/unblock/", {"next": "https://evil.example/"}
    )
    assert response["Location"] == "/accounts/players/binh/"


def test_blocked_ids_answers_one_way_or_either_way(players):
    ana, binh, chloe = players[:3]
    Block.objects.create(blocker=ana, blocked=binh)
    assert blocked_ids(user=binh, among=[ana.pk, chloe.pk]) == {ana.pk}
    assert blocked_ids(user=ana, among=[binh.pk]) == set()
    assert blocked_ids(user=ana, among=[binh.pk], either_way=True) == {binh.pk}


def test_the_service_lets_an_invitation_to_a_blocker_stand_unseen(players):
    ana, binh = players[:2]
    Block.objects.create(blocker=ana, blocked=binh)
    game = services.game_create(
        creator=binh,
        variant="classic",
        players=2,
        rated=False,
        invitees=[ana],
    )
    assert game.seats.get(user=ana).invite_status == "invited"
    assert not selectors.seat_view(game=game, user=ana).may_answer_invitation


def test_nor_does_a_blocker_invite_the_player_they_block(players):
    ana, binh = players[:2]
    Block.objects.create(blocker=ana, blocked=binh)
    with pytest.raises(services.GameActionError) as refused:
        services.game_create(
            creator=ana,
            variant="classic",
            players=2,
            rated=False,
            invitees=[binh],
        )
    assert refused.value.code == "invite_blocked"
    assert refused.value.message == (
        "You block binh: unblock them first to invite them."
    )
    assert not Game.objects.filter(creator=ana).exists()


def test_an_invitation_notice_still_queued_when_blocked_is_not_sent(
    players, client_for, mailoutbox
):
    from notify.tasks import invited

    ana, binh = players[:2]
    game = services.game_create(creator=binh, variant="classic", players=2, rated=False)
    Seat.objects.filter(game=game, number=1).update(
        user=ana, invite_status=Seat.Invite.INVITED
    )
    client_for(ana).post("/accounts/players/binh/block/")
    mailoutbox.clear()

    assert invited.call(game.pk, ana.pk) == "stale"
    assert mailoutbox == []
