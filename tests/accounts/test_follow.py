"""Following players (issue #26 item 4): one way, like lichess; two players
who follow each other are friends. Following and unfollowing go through the
profile page's button (POST); oneself, computers and blocked players (either
way) are refused with a message and nothing changes; a block ends follows both
ways."""

from __future__ import annotations

import html

import pytest
from django.db import IntegrityError, transaction

from accounts import selectors, services
from accounts.models import Follow
from accounts.services import FollowError, computer_player

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _pairs() -> set[tuple[str, str]]:
    return {
        (f.follower.username, f.followed.username)
        for f in Follow.objects.select_related("follower", "followed")
    }


def test_follow_and_unfollow(players):
    ana, binh = players[:2]
    services.follow_create(follower=ana, followed=binh)
    services.follow_create(follower=ana, followed=binh)  # again: still one
    assert _pairs() == {("ana", "binh")}
    assert selectors.follows(follower=ana, followed=binh)
    assert not selectors.follows(follower=binh, followed=ana)

    services.follow_delete(follower=ana, followed=binh)
    services.follow_delete(follower=ana, followed=binh)  # nothing to do
    assert _pairs() == set()
    assert not selectors.follows(follower=ana, followed=binh)


def test_friends_are_players_who_follow_each_other(players):
    ana, binh, chloe, dae = players
    services.follow_create(follower=ana, followed=binh)
    services.follow_create(follower=binh, followed=ana)
    services.follow_create(follower=ana, followed=chloe)  # chloe does not follow back
    services.follow_create(follower=dae, followed=ana)  # ana does not follow dae

    assert selectors.friend_ids(user=ana) == {binh.pk}
    assert selectors.friend_ids(user=binh) == {ana.pk}
    assert selectors.friend_ids(user=chloe) == set()
    assert selectors.friend_ids(user=dae) == set()
    assert selectors.are_friends(user=ana, other=binh)
    assert selectors.are_friends(user=binh, other=ana)
    assert not selectors.are_friends(user=ana, other=chloe)
    assert not selectors.are_friends(user=ana, other=dae)
    assert [u.username for u in selectors.following(user=ana)] == ["binh", "chloe"]
    assert selectors.follow_counts(user=ana) == (2, 2)  # followers, following
    assert selectors.follow_counts(user=chloe) == (1, 0)


def test_nobody_follows_themself_or_a_computer(players):
    ana = players[0]
    with pytest.raises(FollowError) as error:
        services.follow_create(follower=ana, followed=ana)
    assert error.value.message == "You cannot follow yourself."
    computer = computer_player(level="strong")
    with pytest.raises(FollowError) as error:
        services.follow_create(follower=ana, followed=computer)
    assert error.value.message == "A computer player cannot be followed."
    assert _pairs() == set()


def test_the_database_refuses_a_self_follow_and_a_second_row(players):
    ana, binh = players[:2]
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=ana, followed=ana)
    Follow.objects.create(follower=ana, followed=binh)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=ana, followed=binh)


def test_a_block_either_way_refuses_a_follow(players):
    ana, binh, chloe = players[:3]
    services.block_create(blocker=ana, blocked=binh)
    with pytest.raises(FollowError) as error:
        services.follow_create(follower=ana, followed=binh)
    assert error.value.message == "You block binh: unblock them first to follow them."
    # binh is blocked by ana: follows as anyone, nothing tells the block
    # (issue #35 item 2)
    services.follow_create(follower=binh, followed=ana)
    assert _pairs() == {("binh", "ana")}

    services.block_delete(blocker=ana, blocked=binh)
    services.follow_create(follower=binh, followed=ana)
    services.follow_create(follower=chloe, followed=ana)
    assert _pairs() == {("binh", "ana"), ("chloe", "ana")}


def test_blocking_ends_follows_both_ways(players):
    ana, binh, chloe = players[:3]
    services.follow_create(follower=ana, followed=binh)
    services.follow_create(follower=binh, followed=ana)
    services.follow_create(follower=chloe, followed=binh)
    assert selectors.friend_ids(user=ana) == {binh.pk}

    services.block_create(blocker=binh, blocked=ana)

    assert _pairs() == {("chloe", "binh")}  # others' follows stay
    assert selectors.friend_ids(user=ana) == set()
    assert not selectors.are_friends(user=binh, other=ana)


def test_the_profile_button_follows_and_unfollows(players, client_for):
    ana, binh = players[:2]
    ana_client = client_for(ana)
    page = _text(ana_client.get("/accounts/players/binh/"))
    assert 'data-follows="false"' in page and ">Follow</button>" in page
    assert "0 followers · follows 0 players" in page

    response = ana_client.post("/accounts/players/binh/follow/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/players/binh/"
    page = _text(ana_client.get("/accounts/players/binh/"))
    assert "You follow binh: their games show on your home page." in page
    assert 'data-follows="true"' in page and ">Unfollow</button>" in page
    assert 'data-friends="false"' in page
    assert "1 follower · follows 0 players" in page
    assert "Friends</strong>" not in page

    client_for(binh).post("/accounts/players/ana/follow/")
    page = _text(ana_client.get("/accounts/players/binh/"))
    assert 'data-friends="true"' in page and "Friends</strong>" in page
    assert "1 follower · follows 1 player" in page

    ana_client.post("/accounts/players/binh/unfollow/")
    page = _text(ana_client.get("/accounts/players/binh/"))
    assert "You no longer follow binh." in page
    assert 'data-follows="false"' in page
    assert _pairs() == {("binh", "ana")}


def test_no_follow_button_on_ones_own_profile_a_computer_or_for_a_visitor(
    players, client, client_for
):
    ana = players[0]
    computer = computer_player(level="easy")
    ana_client = client_for(ana)
    own = _text(ana_client.get("/accounts/players/ana/"))
    assert ">Follow</button>" not in own
    assert "0 followers · follows 0 players" in own  # the counts, still
    page = _text(ana_client.get(f"/accounts/players/{computer.username}/"))
    assert ">Follow</button>" not in page and "data-followers" not in page
    visitor = _text(client.get("/accounts/players/ana/"))
    assert ">Follow</button>" not in visitor and "data-followers" in visitor


def test_refused_follows_get_a_message_and_change_nothing(players, client, client_for):
    ana, binh = players[:2]
    computer = computer_player(level="easy")
    ana_client = client_for(ana)
    response = ana_client.post("/accounts/players/ana/follow/", follow=True)
    assert "You cannot follow yourself." in _text(response)
    response = ana_client.post(
        f"/accounts/players/{computer.username}/follow/", follow=True
    )
    assert "A computer player cannot be followed." in _text(response)
    ana_client.post("/accounts/players/binh/block/")
    response = ana_client.post("/accounts/players/binh/follow/", follow=True)
    assert "You block binh: unblock them first to follow them." in _text(response)
    assert ana_client.post("/accounts/players/nobody-here/follow/").status_code == 404
    assert ana_client.get("/accounts/players/binh/follow/").status_code == 405
    # a visitor is sent to log in
    response = client.post("/accounts/players/binh/follow/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert _pairs() == set()


def test_the_button_goes_back_to_the_page_it_was_on_never_elsewhere(
    players, client_for
):
    ana_client = client_for(players[0])
    response = ana_client.post("/accounts/players/binh/follow/", {"next": "/"})
    assert (response.status_code, response["Location"]) == (302, "/")
    for forged in ("https://evil.example/", "²", "9223372036854775808"):
        response = ana_client.post("/accounts/players/binh/unfollow/", {"next": forged})
        assert response.status_code == 302
        assert "evil" not in response["Location"]
    assert _pairs() == set()


def test_the_follow_button_is_hidden_while_you_block_them(players, client_for):
    ana = players[0]
    ana_client = client_for(ana)
    ana_client.post("/accounts/players/binh/block/")
    page = _text(ana_client.get("/accounts/players/binh/"))
    assert ">Follow</button>" not in page and ">Unblock</button>" in page
