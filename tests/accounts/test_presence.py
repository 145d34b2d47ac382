"""Who is around (issue #26 item 5, docs/together.md "Who is around"): "online
now" or "last seen …" on profiles and beside the players on a game page, written
at most once a minute, hidden at the player's choice."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts import presence as account_presence
from accounts import selectors, services
from accounts.models import GamePage, User
from games.routing import websocket_urlpatterns
from tests.accounts.settings_form import settings_post

PRESENCE = re.compile(
    r'<span class="presence [a-z]+" data-presence="([a-z]+)"[^>]*>([^<]*)</span>'
)


def _presence_marks(html: str) -> list[tuple[str, str]]:
    """``(data-presence, words)`` of each presence mark on a page, in order
    (``timesince`` joins number and unit with a no-break space)."""
    return [
        (mark, words.replace("\xa0", " ")) for mark, words in PRESENCE.findall(html)
    ]


def _seen(user: User, **ago: float) -> None:
    User.objects.filter(pk=user.pk).update(
        last_seen_at=timezone.now() - timedelta(**ago)
    )


def _open_page(user: User, game_id: int = 1) -> None:
    GamePage.objects.create(
        user=user,
        game_id=game_id,
        channel_name=f"page-{user.pk}-{game_id}",
        seen_at=timezone.now(),
    )


def _profile(client, user: User) -> str:
    response = client.get(reverse("profile", args=[user.username]))
    assert response.status_code == 200
    return response.content.decode()


def _last_seen_writes(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith("UPDATE") and "last_seen_at" in q["sql"]
    ]


# ------------------------------------------------------------------ writing


def test_requests_write_last_seen_at_most_once_a_minute(make_user, client_for):
    ana = make_user("ana")
    client = client_for(ana)  # logging in writes it and starts the minute
    ana.refresh_from_db()
    assert ana.last_seen_at is not None
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert client.get(reverse("games:home")).status_code == 200
    assert _last_seen_writes(queries) == []

    cache.delete(account_presence._key(ana.pk))  # a minute later
    _seen(ana, hours=2)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            client.get(reverse("games:home"))
    assert len(_last_seen_writes(queries)) == 1
    ana.refresh_from_db()
    assert timezone.now() - ana.last_seen_at < timedelta(minutes=1)


def test_a_visitor_writes_nothing(make_user, client):
    make_user("ana")
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("games:home"))
    assert _last_seen_writes(queries) == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_closing_a_game_page_writes_last_seen_and_ends_online(
    settings, make_user, start_game
):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }
    settings.PRESENCE_ONLINE_SECONDS = 0  # online from open pages only
    ana, binh = (
        await sync_to_async(make_user)("ana"),
        await sync_to_async(make_user)("binh"),
    )
    game = await sync_to_async(start_game)([ana, binh])
    await sync_to_async(_seen)(ana, hours=3)

    def ana_seen_by_binh():
        ana.refresh_from_db()
        return selectors.presence(users=[ana], viewer=binh)[ana.pk]

    socket = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns),
        f"/ws/games/{game.pk}/",
        headers=[(b"origin", b"http://127.0.0.1")],
    )
    socket.scope["user"] = ana
    connected, _ = await socket.connect()
    assert connected
    await socket.receive_json_from()
    assert (await sync_to_async(ana_seen_by_binh)()).online is True
    await socket.disconnect()
    after = await sync_to_async(ana_seen_by_binh)()
    assert after.online is False
    assert timezone.now() - after.last_seen_at < timedelta(minutes=1)


# ------------------------------------------------------------------ reading


def test_a_profile_says_last_seen_then_online_now(make_user, client_for):
    ana, binh = make_user("ana"), make_user("binh")
    binh_client = client_for(binh)
    _seen(ana, hours=3, minutes=10)
    assert _presence_marks(_profile(binh_client, ana)) == [
        ("away", "last seen 3 hours ago")
    ]
    _seen(ana, minutes=2)  # a request within PRESENCE_ONLINE_SECONDS
    assert _presence_marks(_profile(binh_client, ana)) == [("online", "online now")]


def test_an_open_game_page_is_online_whenever_the_last_request(
    make_user, client_for, settings
):
    settings.PRESENCE_ONLINE_SECONDS = 0
    ana, binh = make_user("ana"), make_user("binh")
    _seen(ana, days=2)
    binh_client = client_for(binh)
    assert _presence_marks(_profile(binh_client, ana)) == [
        ("away", "last seen 2 days ago")
    ]
    _open_page(ana)
    assert _presence_marks(_profile(binh_client, ana)) == [("online", "online now")]
    GamePage.objects.update(seen_at=timezone.now() - timedelta(minutes=11))  # stale
    assert _presence_marks(_profile(binh_client, ana)) == [
        ("away", "last seen 2 days ago")
    ]


def test_a_player_who_hides_presence_shows_nothing_to_others(make_user, client_for):
    ana, binh = make_user("ana"), make_user("binh")
    ana_client = client_for(ana)
    response = ana_client.post(
        reverse("settings"), settings_post(ana, show_presence=False)
    )
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.show_presence is False
    _open_page(ana)

    assert _presence_marks(_profile(client_for(binh), ana)) == []
    assert 'data-presence="online"' not in _profile(client_for(binh), ana)
    assert _presence_marks(_profile(ana_client, ana)) == [
        ("online", "online now (only you see this)")
    ]
    _seen(ana, hours=5)
    GamePage.objects.all().delete()
    assert _presence_marks(_profile(client_for(binh), ana)) == []


def test_a_player_who_blocks_you_shows_you_nothing(make_user, client_for):
    ana, binh, chloe = make_user("ana"), make_user("binh"), make_user("chloe")
    services.block_create(blocker=ana, blocked=binh)
    _seen(ana, minutes=1)
    assert _presence_marks(_profile(client_for(binh), ana)) == []
    assert _presence_marks(_profile(client_for(chloe), ana)) == [
        ("online", "online now")
    ]


def _marks_beside_players(client, game) -> dict[str, tuple[str, str] | None]:
    """Each seated player's name on the game page → their presence mark, or None."""
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    players = re.search(r'<p class="meta players"[^>]*>(.*?)</p>', html, re.S)
    assert players is not None
    found: dict[str, tuple[str, str] | None] = {}
    for seat in re.split(r"(?=<a href=)", players.group(1))[1:]:  # one a seat
        name = re.search(r"<bdi>([^<]+)</bdi>", seat)
        assert name is not None
        marks = _presence_marks(seat)
        found[name.group(1)] = marks[0] if marks else None
    return found


def test_each_viewer_sees_what_is_theirs_to_see(make_user, client_for, start_game):
    """Issue #33: a player blocked by another logged out and saw the blocker
    "online". Presence is for signed-in players only, and a block either way
    hides it both ways, leaving nothing that tells the block from a player who
    hides their presence; a stranger and a friend see it."""
    from django.test import Client

    from accounts.services import follow_create

    ana, binh, chloe, dae, eve = (
        make_user(name) for name in ("ana", "binh", "chloe", "dae", "eve")
    )
    services.block_create(blocker=ana, blocked=binh)  # ana blocks binh
    follow_create(follower=ana, followed=dae)  # ana and dae are friends
    follow_create(follower=dae, followed=ana)
    hider = make_user("hider", show_presence=False)
    game = start_game([ana, chloe])
    _seen(ana, minutes=1)
    _seen(chloe, hours=2)
    _seen(hider, minutes=1)
    _open_page(ana, game.pk)

    online = ("online", "online now")
    chloe_away = ("away", "last seen 2 hours ago")
    visitor = Client()
    # A visitor: no mark on a profile or beside the players, online or not.
    assert _presence_marks(_profile(visitor, ana)) == []
    assert _presence_marks(_profile(visitor, chloe)) == []
    assert _marks_beside_players(visitor, game) == {"ana": None, "chloe": None}
    assert "presence-meaning" not in _profile(visitor, ana)
    # binh, whom ana blocks: nothing of ana, as of a player who hides it.
    binh_client = client_for(binh)
    assert _presence_marks(_profile(binh_client, ana)) == []
    assert _presence_marks(_profile(binh_client, hider)) == []
    assert _marks_beside_players(binh_client, game) == {
        "ana": None,
        "chloe": chloe_away,
    }
    # ana, who blocks binh: nothing of binh either.
    _seen(binh, minutes=1)
    assert _presence_marks(_profile(client_for(ana), binh)) == []
    # A stranger and a friend see ana online.
    assert _presence_marks(_profile(client_for(eve), ana)) == [online]
    assert _marks_beside_players(client_for(eve), game) == {
        "ana": online,
        "chloe": chloe_away,
    }
    assert _presence_marks(_profile(client_for(dae), ana)) == [online]
    assert _presence_marks(_profile(client_for(eve), binh)) == [online]


def test_the_profile_says_what_online_now_means(make_user, client_for, settings):
    ana, binh = make_user("ana"), make_user("binh", language="vi")
    _seen(ana, minutes=1)
    meaning = re.compile(r'<span class="help presence-meaning">([^<]*)</span>')
    html = _profile(client_for(ana), ana)
    assert meaning.findall(html) == [
        "Online now means a game page of theirs is open, or they opened a page "
        "of the site in the last 5 minutes."
    ]
    assert settings.PRESENCE_ONLINE_SECONDS == 300  # the number said is the real one
    settings.PRESENCE_ONLINE_SECONDS = 90
    assert meaning.findall(_profile(client_for(ana), ana)) == [
        "Online now means a game page of theirs is open, or they opened a page "
        "of the site in the last 90 seconds."
    ]
    settings.PRESENCE_ONLINE_SECONDS = 0
    _open_page(ana)
    assert meaning.findall(_profile(client_for(ana), ana)) == [
        "Online now means a game page of theirs is open."
    ]
    settings.PRESENCE_ONLINE_SECONDS = 300
    (vietnamese,) = meaning.findall(_profile(client_for(binh), ana))
    assert "5" in vietnamese and "Online now" not in vietnamese


def test_the_settings_page_offers_the_checkbox_on_by_default(make_user, client_for):
    ana = make_user("ana")
    html = client_for(ana).get(reverse("settings")).content.decode()
    box = re.search(r'<input type="checkbox" name="show_presence"[^>]*>', html)
    assert box is not None and "checked" in box.group(0)
    assert "Show others when I am online" in html


def test_the_game_page_marks_each_seated_person_not_the_computer(
    make_user, client_for, start_game
):
    from games import services as game_services

    ana, binh, chloe = make_user("ana"), make_user("binh"), make_user("chloe")
    game = start_game([ana, binh])
    _seen(ana, minutes=1)
    _seen(binh, hours=1, minutes=5)
    html = client_for(chloe).get(reverse("games:detail", args=[game.pk])).content
    players = re.search(r'<p class="meta players"[^>]*>.*?</p>', html.decode(), re.S)
    assert players is not None
    marks = _presence_marks(players.group(0))
    names = re.findall(r"<bdi>([^<]+)</bdi>", players.group(0))
    expected = {
        "ana": ("online", "online now"),
        "binh": ("away", "last seen 1 hour ago"),
    }
    assert marks == [expected[name] for name in names]

    computer_game = game_services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
    html = client_for(chloe).get(reverse("games:detail", args=[computer_game.pk]))
    players = re.search(
        r'<p class="meta players"[^>]*>.*?</p>', html.content.decode(), re.S
    )
    assert players is not None
    assert _presence_marks(players.group(0)) == [("online", "online now")]  # ana only


def test_the_selector_reads_a_whole_table_in_two_queries(make_user, settings):
    people = [make_user(name) for name in ("ana", "binh", "chloe", "dae")]
    viewer = make_user("eve")
    _open_page(people[0])
    _seen(people[1], minutes=1)
    _seen(people[2], hours=2)
    for person in people:  # read off the rows given, as a page's seats bring them
        person.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        seen = selectors.presence(users=[*people, None], viewer=viewer)
    assert len(queries.captured_queries) == 2  # blocks, open pages
    assert [seen[p.pk].online for p in people] == [True, True, False, False]
    assert seen[people[3].pk].last_seen_at is None  # never seen: nothing shown
    with CaptureQueriesContext(connection) as queries:
        assert selectors.presence(users=people, viewer=None) == {}
    assert queries.captured_queries == []  # a visitor sees nobody's, asks nothing


def _players_line(html: str) -> str:
    """The players line of a game page (or of a board redrawn alone), as its
    words read: tags dropped, spaces as they are."""
    line = re.search(r'<p class="meta players"[^>]*>(.*?)</p>', html, re.S)
    assert line is not None
    return re.sub(r"<[^>]+>", "", line.group(1)).replace("\xa0", " ")


def test_the_players_line_has_no_space_before_its_commas(
    make_user, client_for, start_game
):
    """Issue #35 item 7: "online now ,  김민지" read a space before each comma."""
    ana, binh, chloe = make_user("ana"), make_user("binh"), make_user("chloe")
    game = start_game([ana, binh])
    _seen(ana, minutes=1)
    _seen(binh, hours=1, minutes=5)
    html = client_for(chloe).get(reverse("games:detail", args=[game.pk])).text
    names = re.findall(r"<bdi>([^<]+)</bdi>", html.split('class="meta players"')[1])
    first = "online now" if names[0] == "ana" else "last seen 1 hour ago"
    second = "last seen 1 hour ago" if names[0] == "ana" else "online now"
    assert _players_line(html) == (f"Players: {names[0]} {first}, {names[1]} {second}")


def test_a_watchers_board_redrawn_in_place_brings_the_players_marks_anew(
    make_user, client_for, start_game
):
    """Issue #35 item 3: when a watcher's board refreshes in place (live.js
    fetches the board's partial after its socket rang), the players line comes
    with it, out of band, with who is around now."""
    ana, binh, chloe = make_user("ana"), make_user("binh"), make_user("chloe")
    game = start_game([ana, binh])
    _seen(ana, hours=2)
    _seen(binh, hours=2)
    watcher = client_for(chloe)
    url = reverse("games:detail", args=[game.pk])
    page = watcher.get(url).text
    assert [mark for mark, _words in _presence_marks(page)] == ["away", "away"]
    assert 'id="players-line">' in page  # the whole page: in place, not out of band

    _open_page(ana, game.pk)  # ana opens her game
    board = watcher.get(url, headers={"HX-Request": "true"}).text
    assert 'id="players-line" hx-swap-oob="true">' in board
    line = _players_line(board)
    assert "ana online now" in line and "binh last seen 2 hours ago" in line
    # a visitor's redrawn board carries the line with no mark at all
    from django.test import Client

    anonymous = Client().get(url, headers={"HX-Request": "true"}).text
    assert _presence_marks(anonymous) == []
    assert _players_line(anonymous) in ("Players: ana, binh", "Players: binh, ana")
