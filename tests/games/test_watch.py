"""The watch page and the watcher count (issue #26 item 6, docs/together.md
"Watch"): games in progress, busiest first, filtered by game and player count;
a game page says how many are watching, its players not counted."""

from __future__ import annotations

import re
from datetime import timedelta
from itertools import count

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import GamePage
from games import services
from games.models import Game, Move

_channels = count()


def _watch(game: Game, *users) -> None:
    """Each of ``users`` has ``game``'s page open (a fresh socket row)."""
    for user in users:
        GamePage.objects.create(
            user=user,
            game_id=game.pk,
            channel_name=f"test-{next(_channels)}",
            seen_at=timezone.now(),
        )


def _moved(game: Game, *, minutes_ago: int) -> None:
    """``game``'s latest event was ``minutes_ago`` minutes ago."""
    Move.objects.filter(game=game).update(
        created_at=timezone.now() - timedelta(minutes=minutes_ago)
    )


def _rows(client, query: str = "") -> list[tuple[int, int]]:
    """``(game id, watchers)`` of each row of the watch page, top to bottom."""
    response = client.get(reverse("games:watch") + query)
    assert response.status_code == 200
    return [
        (int(game), int(watchers))
        for game, watchers in re.findall(
            r'<tr data-game="(\d+)" data-watchers="(\d+)"', response.content.decode()
        )
    ]


@pytest.fixture
def crowd(make_user):
    """Six people who play in none of the games below."""
    return [make_user(f"watcher{n}") for n in range(6)]


def test_the_watch_page_lists_games_in_progress_only(
    client, players, start_game, make_user
):
    ana, binh, chloe, _dae = players
    active = start_game([ana, binh])
    finished = start_game([ana, chloe])
    services.game_resign(game_id=finished.pk, user=chloe)
    services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        invitees=[binh],
    )  # open: waiting for binh
    assert _rows(client) == [(active.pk, 0)]
    html = client.get(reverse("games:home")).content.decode()
    assert f'href="{reverse("games:watch")}"' in html  # in the site's menu


def test_busiest_first_then_the_latest_move(client, players, start_game, crowd):
    ana, binh, chloe, dae = players
    quiet_old = start_game([ana, binh])
    quiet_new = start_game([chloe, dae])
    one = start_game([ana, chloe])
    three = start_game([binh, dae])
    one_newer = start_game([ana, dae])
    for game, minutes in (
        (quiet_old, 50),
        (quiet_new, 5),
        (one, 40),
        (three, 60),
        (one_newer, 30),
    ):
        _moved(game, minutes_ago=minutes)
    _watch(three, *crowd[:3])
    _watch(one, crowd[3])
    _watch(one_newer, crowd[4])
    assert _rows(client) == [
        (three.pk, 3),
        (one_newer.pk, 1),
        (one.pk, 1),
        (quiet_new.pk, 0),
        (quiet_old.pk, 0),
    ]


def test_pages_follow_the_same_order(client, players, start_game, crowd, monkeypatch):
    from games.people import watch_views

    monkeypatch.setattr(watch_views, "ARCHIVE_PAGE_SIZE", 2)
    ana, binh, chloe, dae = players
    games = [start_game([ana, binh]) for _ in range(5)]
    for minutes, game in enumerate(games):
        _moved(game, minutes_ago=minutes)
    _watch(games[4], crowd[0], crowd[1])
    _watch(games[2], crowd[2])
    expected = [games[4].pk, games[2].pk, games[0].pk, games[1].pk, games[3].pk]
    shown = [game for page in (1, 2, 3) for game, _n in _rows(client, f"?page={page}")]
    assert shown == expected
    assert _rows(client, "?page=4") == []


def test_filter_by_game_and_player_count(client, players, start_game):
    ana, binh, chloe, dae = players
    classic_two = start_game([ana, binh])
    grey_three = start_game([ana, binh, chloe], variant="classic-grey")
    pavilion_two = start_game([chloe, dae], variant="pavilion")
    for minutes, game in enumerate((classic_two, grey_three, pavilion_two)):
        _moved(game, minutes_ago=minutes)

    def ids(query: str) -> list[int]:
        return [game for game, _n in _rows(client, query)]

    assert ids("?variant=classic-all") == [classic_two.pk, grey_three.pk]
    assert ids("?variant=classic-grey") == [grey_three.pk]
    assert ids("?variant=pavilion-all") == [pavilion_two.pk]
    assert ids("?players=2") == [classic_two.pk, pavilion_two.pk]
    assert ids("?variant=classic-all&players=3") == [grey_three.pk]
    assert ids("?players=4") == []
    page = client.get(reverse("games:watch") + "?players=4").content.decode()
    assert "No game in progress matches." in page


@pytest.mark.parametrize(
    "query",
    [
        "?players=7",
        "?players=two&variant=chess",
        "?variant=%00&page=-3",
        "?page=abc&players=2.5",
        "?players=" + "9" * 500,
        "?variant[]=classic&player=nobody&show=imported",
    ],
)
def test_an_odd_query_string_gets_the_unfiltered_page(
    client, players, start_game, query
):
    ana, binh, chloe, dae = players
    first = start_game([ana, binh])
    second = start_game([ana, binh, chloe], variant="pavilion")
    _moved(first, minutes_ago=1)
    _moved(second, minutes_ago=2)
    assert [game for game, _n in _rows(client, query)] == [first.pk, second.pk]


def test_the_refused_filter_is_named(client, players, start_game):
    start_game(players[:2])
    page = client.get(reverse("games:watch") + "?players=7").content.decode()
    assert 'class="errorlist' in page
    assert "Select a valid choice. 7 is not one of the available choices." in page


def test_watchers_exclude_the_players_and_count_each_person_once(
    client, client_for, players, start_game, crowd
):
    ana, binh, chloe, _dae = players
    game = start_game([ana, binh])
    _watch(game, ana, binh)  # its players looking: not watchers
    assert _rows(client) == [(game.pk, 0)]
    _watch(game, chloe, chloe, crowd[0])  # chloe in two tabs: one person
    assert _rows(client) == [(game.pk, 2)]

    page = client_for(ana).get(reverse("games:detail", args=[game.pk]))
    html = page.content.decode()
    assert re.search(r'data-watchers="2"[^>]*>2 watching</p>', html)
    GamePage.objects.filter(user=chloe).update(
        seen_at=timezone.now() - timedelta(minutes=11)
    )  # chloe's server died: her rows went stale
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert re.search(r'data-watchers="1"[^>]*>1 watching</p>', html)


def test_nobody_watching_says_nothing(client, players, start_game):
    game = start_game(players[:2])
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert re.search(r'<p class="watchers" data-watchers="0" hidden></p>', html)
    assert "watching" not in html.replace('class="watchers"', "").replace(
        "data-watchers", ""
    )


def test_the_watch_page_rows_say_players_round_and_watchers(
    client, players, start_game, crowd
):
    ana, binh, _chloe, _dae = players
    game = start_game([ana, binh])
    _watch(game, *crowd[:2])
    html = client.get(reverse("games:watch")).content.decode()
    row = re.search(rf'<tr data-game="{game.pk}".*?</tr>', html, re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(0), re.S)
    text = [re.sub(r"<[^>]+>", "", cell).strip() for cell in cells]
    assert text == [
        f"#{game.pk} Azul (coloured wall)",
        ", ".join(seat.name for seat in game.seats.order_by("number")),
        "1",
        "2 watching",
    ]
    assert f'href="{reverse("games:detail", args=[game.pk])}"' in row.group(0)
