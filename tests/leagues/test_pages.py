"""The leagues' pages (issue #38 item 7): the Leagues page with the season's
registration and the viewer's group, the group page's table with the marks
programs read, a season's groups, a profile's seasons; and bad input
(joining twice, a started season, a forged season) refused in words."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games import clock
from leagues import services
from leagues.models import Entry, League, LeagueGame, Season, Waiver
from leagues.rehearsal import moved_clock


@pytest.fixture
def league(db):
    return League.objects.create(
        slug="azul-test", variant="classic", players=2, season_weeks=8
    )


def _entrants(make_user, count):
    users = [make_user(f"p{i}") for i in range(count)]
    Waiver.objects.bulk_create([Waiver(user=u) for u in users])
    return users


def test_a_player_enters_and_sees_their_group(client, league, make_user):
    ana, *others = _entrants(make_user, 4)
    season = services.season_create(
        league=league, starts_at=clock.now() + timedelta(days=3)
    )
    client.force_login(ana)
    page = client.get("/leagues/").content.decode()
    assert "Season 1 starts on" in page
    assert "registration is open, 0 players have entered." in page
    # a forged division in the form is not read: the first day places players
    answer = client.post(
        f"/leagues/seasons/{season.pk}/join/", {"division": "1"}, follow=True
    )
    page = answer.content.decode()
    assert "You have entered the season." in page
    assert "You have entered this season." in page
    assert "registration is open, 1 player has entered." in page
    assert Entry.objects.get(season=season, user=ana).target_division is None
    # twice: refused, nothing changes
    page = client.post(f"/leagues/seasons/{season.pk}/join/", follow=True)
    assert "You have already entered this season." in page.content.decode()
    assert Entry.objects.filter(season=season).count() == 1
    for user in others:
        services.season_join(season_id=season.pk, user=user)
    with moved_clock(season.starts_at):
        services.season_start(season_id=season.pk)
    page = client.get("/leagues/").content.decode()
    group = Entry.objects.get(season=season, user=ana).group
    assert f'href="/leagues/groups/{group.pk}/"' in page
    assert "Your group: division 1, group 1" in page
    # the season has started: no joining, no taking back
    bob = make_user("bob")
    Waiver.objects.create(user=bob)
    client.force_login(bob)
    page = client.post(f"/leagues/seasons/{season.pk}/join/", follow=True)
    assert "Registration for this season is closed" in page.content.decode()
    client.force_login(ana)
    page = client.post(f"/leagues/seasons/{season.pk}/leave/", follow=True)
    assert "you can no longer take your entry back" in page.content.decode()
    assert Entry.objects.filter(season=season).count() == 4
    # a forged season
    assert client.post("/leagues/seasons/999999/join/", follow=True).status_code == 200
    assert Entry.objects.filter(user=ana).count() == 1


def test_the_group_table_and_the_profile(client, league, make_user):
    users = _entrants(make_user, 3)
    season = services.season_create(
        league=league, starts_at=clock.now() + timedelta(days=1)
    )
    for user in users:
        services.season_join(season_id=season.pk, user=user)
    with moved_clock(season.starts_at):
        services.season_start(season_id=season.pk)
    group = season.groups.get()
    # 3 players: each pair twice, 6 games, each in progress
    assert LeagueGame.objects.filter(group=group).count() == 6
    page = client.get(f"/leagues/groups/{group.pk}/").content.decode()
    rows = re.findall(
        r'<tr data-seat="([^"]+)" data-rank="(\d)" data-score="([^"]+)"', page
    )
    assert sorted(name for name, _r, _s in rows) == ["p0", "p1", "p2"]
    assert {score for _n, _r, score in rows} == {"0.00"}
    assert page.count("being played") == 6
    # a game ends: its winner's point shows, first in the table
    game = LeagueGame.objects.filter(group=group).first().game
    loser = game.seats.get(number=0).user
    from games import services as game_services

    game_services.game_resign(game_id=game.pk, user=loser)
    services.game_over(game_id=game.pk)
    page = client.get(f"/leagues/groups/{group.pk}/", HTTP_HX_REQUEST="true")
    html = page.content.decode()
    assert "<html" not in html  # the table alone, for the doorbell's refetch
    rows = re.findall(
        r'<tr data-seat="([^"]+)" data-rank="(\d)" data-score="([^"]+)"', html
    )
    winner = game.seats.get(number=1).user.username
    assert rows[0] == (winner, "1", "1.00")
    assert html.count("being played") == 5
    # the profile lists the season
    profile = client.get(f"/accounts/players/{winner}/").content.decode()
    assert "Azul (coloured wall), 2 players, season 1: division 1" in profile
    assert "being played" in profile


def test_the_season_page_lists_divisions_and_groups(client, league, make_user):
    users = _entrants(make_user, 7)
    season = services.season_create(
        league=league, starts_at=clock.now() + timedelta(days=1)
    )
    for user in users:
        services.season_join(season_id=season.pk, user=user)
    with moved_clock(season.starts_at):
        services.season_start(season_id=season.pk)
    page = client.get(f"/leagues/seasons/{season.pk}/").content.decode()
    assert "Division 1" in page and "Division 2" in page
    # a group of 4 in division 1, one of 3 in division 2
    assert "Group 1</a> — 4 players</li>" in page
    assert "Group 1</a> — 3 players</li>" in page
    assert page.count('<li data-group="') == 2
    assert Season.objects.get(pk=season.pk).status == Season.Status.RUNNING
