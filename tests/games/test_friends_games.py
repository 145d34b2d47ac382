"""The home page's "Friends' games" (issue #26 item 4): the games of the players
you follow, in progress or finished in the last 14 days, newest move first, at
most 10, each a link to its page; and the new-game form's invite suggestions,
friends first (item 5)."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import block_create, computer_player, follow_create
from games import selectors, services
from games.models import Game, Move

pytestmark = pytest.mark.django_db


def _friends_section(response) -> str:
    page = html.unescape(response.content.decode())
    found = re.search(r'<section aria-labelledby="h-friends".*?</section>', page, re.S)
    assert found, "no Friends' games section"
    return found.group(0)


def _listed(response) -> list[tuple[int, str]]:
    """The games in "Friends' games", in order: (id, data-status)."""
    return [
        (int(pk), status)
        for pk, status in re.findall(
            r'<li data-game="(\d+)" data-status="(\w+)">', _friends_section(response)
        )
    ]


def _last_move_at(game: Game, when) -> None:
    """The game's moves were all made at ``when`` (its newest move then)."""
    Move.objects.filter(game=game).update(created_at=when)


def _make(start_game, users, *, minutes_ago: int) -> Game:
    game = start_game(users)
    _last_move_at(game, timezone.now() - timedelta(minutes=minutes_ago))
    return game


def test_the_followed_players_games_newest_move_first_with_links(
    players, make_user, start_game, client_for
):
    ana, binh, chloe, dae = players
    eve = make_user("eve")
    follow_create(follower=ana, followed=binh)
    follow_create(follower=ana, followed=dae)

    older = _make(start_game, [binh, chloe], minutes_ago=90)
    newest = _make(start_game, [chloe, dae], minutes_ago=5)
    with_ana = _make(start_game, [ana, binh], minutes_ago=30)  # ana's own: fine
    others = _make(start_game, [chloe, eve], minutes_ago=1)  # nobody ana follows
    recent_end = _make(start_game, [dae, eve], minutes_ago=60)
    services.game_resign(game_id=recent_end.pk, user=eve)
    old_end = _make(start_game, [binh, eve], minutes_ago=20)
    services.game_resign(game_id=old_end.pk, user=eve)
    Game.objects.filter(pk=old_end.pk).update(
        finished_at=timezone.now() - timedelta(days=15)
    )
    not_started = services.game_create(
        creator=binh, variant="classic", players=2, rated=False
    )
    cancelled = services.game_create(
        creator=dae, variant="classic", players=2, rated=False
    )
    services.game_cancel(game_id=cancelled.pk, user=dae)

    response = client_for(ana).get("/")
    assert response.status_code == 200
    assert _listed(response) == [
        (newest.pk, "active"),
        (with_ana.pk, "active"),
        (recent_end.pk, "finished"),
        (older.pk, "active"),
    ]
    listed = {pk for pk, _ in _listed(response)}
    assert not listed & {others.pk, old_end.pk, not_started.pk, cancelled.pk}

    section = _friends_section(response)
    assert '<h2 id="h-friends">Friends\' games</h2>' in section
    item = re.search(rf'<li data-game="{newest.pk}".*?</li>', section, re.S).group(0)
    assert f'href="/games/{newest.pk}/"' in item
    assert "Azul" in item and "in progress" in item
    names = re.findall(r"<bdi>(\w+)</bdi>", item)
    assert names == [s.user.username for s in newest.seats.order_by("number")]
    ended = re.search(rf'<li data-game="{recent_end.pk}".*?</li>', section, re.S)
    assert "finished on" in ended.group(0) and "in progress" not in ended.group(0)

    # the link works: the game's page
    assert client_for(ana).get(f"/games/{newest.pk}/").status_code == 200


def test_a_game_without_moves_yet_counts_from_its_start(players, start_game):
    ana, binh, chloe = players[:3]
    follow_create(follower=ana, followed=binh)
    game = start_game([binh, chloe])
    Move.objects.filter(game=game).delete()  # as if nothing recorded yet
    Game.objects.filter(pk=game.pk).update(started_at=timezone.now())
    assert [g.pk for g in selectors.friends_games(user=ana)] == [game.pk]


def test_at_most_ten_and_no_query_per_game(
    players, start_game, django_assert_max_num_queries, settings
):
    settings.INVITATIONS_PER_HOUR = 100
    ana, binh, chloe, dae = players
    follow_create(follower=ana, followed=binh)
    games = [
        _make(start_game, [binh, chloe, dae], minutes_ago=minutes)
        for minutes in range(12, 0, -1)
    ]
    with django_assert_max_num_queries(2):  # the games, then their seats
        listed = [
            (game.pk, [seat.name for seat in game.seats.all()])
            for game in selectors.friends_games(user=ana)
        ]
    assert [pk for pk, _ in listed] == [g.pk for g in reversed(games)][:10]
    assert all(len(names) == 3 for _, names in listed)


def test_following_nobody_says_how_to_and_a_visitor_sees_no_section(
    players, client, client_for
):
    response = client_for(players[0]).get("/")
    assert _listed(response) == []
    assert (
        "No game of the players you follow right now. Follow players from their "
        "profile pages to see their games here." in _friends_section(response)
    )
    assert 'aria-labelledby="h-friends"' not in client.get("/").content.decode()


def test_the_lists_partial_leaves_friends_games_out(players, start_game, client_for):
    ana, binh, chloe = players[:3]
    follow_create(follower=ana, followed=binh)
    start_game([binh, chloe])
    response = client_for(ana).get("/", headers={"HX-Request": "true"})
    assert "h-friends" not in response.content.decode()


def _suggested(response) -> list[tuple[str, str]]:
    page = html.unescape(response.content.decode())
    datalist = re.search(
        r'<datalist id="invite-suggestions">.*?</datalist>', page, re.S
    )
    assert datalist, "no datalist"
    return re.findall(
        r'<option value="([^"]+)" data-suggest="(\w+)"', datalist.group(0)
    )


def test_the_invite_field_suggests_friends_first(
    players, make_user, start_game, client_for
):
    ana, binh, chloe, dae = players
    eve, fay, gus = make_user("eve"), make_user("fay"), make_user("gus")
    # friends: dae, binh (both ways); followed only: chloe; opponents: eve, fay
    for friend in (dae, binh):
        follow_create(follower=ana, followed=friend)
        follow_create(follower=friend, followed=ana)
    follow_create(follower=ana, followed=chloe)
    follow_create(follower=gus, followed=ana)  # follows ana; ana does not follow
    _make(start_game, [ana, fay], minutes_ago=50)
    _make(start_game, [eve, ana, binh], minutes_ago=10)  # binh: a friend already
    blocked_one = make_user("hal")
    _make(start_game, [ana, blocked_one], minutes_ago=5)
    block_create(blocker=blocked_one, blocked=ana)
    services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
    computer_player(level="easy")

    page = client_for(ana).get("/games/new/")
    assert 'list="invite-suggestions"' in page.content.decode()
    assert _suggested(page) == [
        ("binh", "friend"),
        ("dae", "friend"),
        ("chloe", "following"),
        ("eve", "opponent"),
        ("fay", "opponent"),
    ]
    text = html.unescape(page.content.decode())
    assert 'value="binh" data-suggest="friend" label="friend"' in text
    assert 'value="chloe" data-suggest="following" label="you follow them"' in text
    assert 'value="eve" data-suggest="opponent" label="recent opponent"' in text


def test_the_suggestions_change_nothing_in_the_invite_field(players, client_for):
    ana, binh = players[:2]
    follow_create(follower=ana, followed=binh)
    client = client_for(ana)
    response = client.post(
        "/games/new/",
        {
            "variant": "classic",
            "players": 2,
            "time_control": "daily",
            "invite": "nobody",
        },
    )
    assert "No player is called nobody." in html.unescape(response.content.decode())
    assert _suggested(response) == [("binh", "following")]
    response = client.post(
        "/games/new/",
        {"variant": "classic", "players": 2, "time_control": "daily", "invite": "binh"},
    )
    assert response.status_code == 302
    [game] = selectors.game_list_invitations(user=binh)
    assert game.creator == ana


def test_a_followed_player_is_read_to_their_latest_games(
    players, start_game, client_for, monkeypatch
):
    """Each followed player's latest games are looked at
    (``FRIENDS_GAMES_PER_PLAYER``, newest created first), so one who has
    played ten thousand costs what one who has played fifty does."""
    ana, binh, chloe, _dae = players
    follow_create(follower=ana, followed=binh)
    monkeypatch.setattr(selectors.lists, "FRIENDS_GAMES_PER_PLAYER", 2)
    oldest = _make(start_game, [binh, chloe], minutes_ago=1)
    middle = _make(start_game, [binh, chloe], minutes_ago=30)
    latest = _make(start_game, [chloe, binh], minutes_ago=20)
    # the oldest game has the newest move, but binh has two games since
    assert _listed(client_for(ana).get("/")) == [
        (latest.pk, "active"),
        (middle.pk, "active"),
    ]
    monkeypatch.setattr(selectors.lists, "FRIENDS_GAMES_PER_PLAYER", 3)
    assert [pk for pk, _ in _listed(client_for(ana).get("/"))] == [
        oldest.pk,
        latest.pk,
        middle.pk,
    ]
