"""A whole season with time moved (issue #38, docs/leagues.md): groups made
by division and rating, every game created at once, a player out of time
leaving the season (their other games resigned), the games still unfinished
decided on the last day, points and places, up and down, and the next
season's registration carrying the players over into their new divisions."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Game, PlayerStats, Seat
from leagues import schedule, services
from leagues.models import Entry, League, LeagueGame, Season, Waiver
from leagues.rehearsal import moved_clock, rehearse


@pytest.fixture
def season_run(db):
    return rehearse(variant="classic", seats=2, entrants=7, seed=3)


def test_a_whole_season_runs_to_its_date(season_run):
    season = Season.objects.get(pk=season_run["season"])
    assert season.status == Season.Status.FINISHED
    groups = season_run["groups"]
    # 7 players: a group of 4 in division 1, a group of 3 in division 2
    assert [(g["division"], len(g["players"])) for g in groups] == [(1, 4), (2, 3)]
    for group in groups:
        size = len(group["players"])
        # each pair twice, each of the two starting once
        assert len(group["games"]) == size * (size - 1)
        starts = [g["first"] for g in group["games"]]
        assert sorted(starts) == sorted(
            name for name in group["players"] for _ in range(size - 1)
        )
        for game in group["games"]:
            assert sorted(game["points"].values()) == [0.0, 1.0] or set(
                game["points"].values()
            ) == {0.5}
        # standings: by points, players who left last
        points = [row["points"] for row in group["standings"]]
        stayed = [
            row["points"]
            for row in group["standings"]
            if row["player"] not in season_run["timed_out"]
        ]
        assert stayed == sorted(stayed, reverse=True)
        assert len(points) == size
    # every game is over: played to its end, or decided on the last day
    games = LeagueGame.objects.filter(group__season=season).select_related("game")
    assert all(lg.game.status == Game.Status.FINISHED for lg in games)
    decided = [lg for lg in games if lg.decided]
    assert decided, "some games were left for the last day"
    for lg in decided:
        assert lg.game.end_reason == Game.EndReason.DECIDED
        assert lg.game.rated is False
    assert len(season_run["timed_out"]) == 1


def test_the_player_out_of_time_leaves_and_sits_out(season_run):
    season = Season.objects.get(pk=season_run["season"])
    late = Entry.objects.get(season=season, user__username=season_run["timed_out"][0])
    assert late.left == Entry.Left.TIMEOUT
    group = next(g for g in season_run["groups"] if late.user.username in g["players"])
    # they rank last in their group, and every game of theirs is over, lost
    assert group["standings"][-1]["player"] == late.user.username
    seats = Seat.objects.filter(
        user=late.user, game__league_game__group__season=season
    ).select_related("game")
    assert seats and all(s.game.status == Game.Status.FINISHED for s in seats)
    assert any(s.forfeited_at is not None for s in seats)
    # the next season does not carry them over, and refuses them
    following = Season.objects.filter(league=season.league, number=2).first()
    assert following is None or not following.entries.filter(user=late.user).exists()
    nxt = services.season_create(league=season.league, starts_at=season.ends_at)
    assert services.entry_problem(user=late.user, season=nxt).startswith(
        "You left a season before its end"
    )


def test_up_and_down_and_the_next_season(season_run):
    season = Season.objects.get(pk=season_run["season"])
    league = season.league
    top, bottom = season_run["groups"]
    assert season_run["promoted"] == [bottom["standings"][0]["player"]]
    assert set(season_run["relegated"]) == {
        top["standings"][-1]["player"],
        bottom["standings"][-1]["player"],
    }
    # the league goes on: the next season carries the players over
    league.active = True
    league.save()
    following = services.season_create(
        league=league, starts_at=season.ends_at + timedelta(days=7)
    )
    entries = list(Entry.objects.filter(season=season).select_related("group"))
    services._carry_over(season, following, entries)
    carried = {e.user.username: e for e in following.entries.select_related("user")}
    assert season_run["timed_out"][0] not in carried
    assert all(not e.confirmed for e in carried.values())
    promoted = carried[season_run["promoted"][0]]
    assert promoted.target_division == 1
    # confirmed with one click; on day 1 the promoted player is in division 1
    with moved_clock(following.opens_at + timedelta(days=1)) as moment:
        for username in carried:
            services.season_join(season_id=following.pk, user=carried[username].user)
        moment[0] = following.starts_at
        services.season_start(season_id=following.pk)
    following.refresh_from_db()
    assert following.status == Season.Status.RUNNING
    promoted.refresh_from_db()
    assert promoted.group.division == 1
    relegated = top["standings"][-1]["player"]
    if relegated in season_run["timed_out"]:
        assert relegated not in carried  # they sit the season out
    else:
        entry = Entry.objects.get(season=following, user__username=relegated)
        assert entry.group.division == 2
    # everyone carried over plays, in groups of the new season
    assert Entry.objects.filter(season=following, group__isnull=True).count() == 0


def test_bad_input_changes_nothing(db, make_user):
    league = League.objects.create(
        slug="t", variant="classic", players=2, season_weeks=8
    )
    ana = make_user("ana")
    with moved_clock(Season.objects.none().first() or _now()) as moment:
        season = services.season_create(league=league, starts_at=moment[0])
        # five finished games are needed
        with pytest.raises(services.LeagueError) as refused:
            services.season_join(season_id=season.pk, user=ana)
        assert "finished 5 games" in refused.value.message
        assert not Entry.objects.exists()
        Waiver.objects.create(user=ana)
        services.season_join(season_id=season.pk, user=ana)
        with pytest.raises(services.LeagueError, match="already entered"):
            services.season_join(season_id=season.pk, user=ana)
        with pytest.raises(services.LeagueError, match="not playing"):
            services.season_withdraw(season_id=season.pk, user=ana)
        season.status = Season.Status.RUNNING
        season.save()
        with pytest.raises(services.LeagueError, match="has started"):
            services.season_leave(season_id=season.pk, user=ana)
        bob = make_user("bob")
        Waiver.objects.create(user=bob)
        with pytest.raises(services.LeagueError, match="closed"):
            services.season_join(season_id=season.pk, user=bob)
    assert list(Entry.objects.values_list("user__username", flat=True)) == ["ana"]


def _now():
    from games import clock

    return clock.now()


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (10, [4, 3, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
    ],
)
def test_groups_of_four_and_three(count, sizes):
    assert schedule.group_sizes(count) == sizes


def test_divisions_form_a_pyramid():
    assert [schedule.division_of(i) for i in range(8)] == [1, 2, 2, 3, 3, 3, 3, 4]


def test_points_at_two_and_four_players():
    assert schedule.points_for_places([1, 2]) == [1.0, 0.0]
    assert schedule.points_for_places([1, 1]) == [0.5, 0.5]
    assert schedule.points_for_places([1, 2, 3, 4]) == pytest.approx(
        [1, 2 / 3, 1 / 3, 0]
    )


def test_four_player_group_plays_one_table_each_starting_once():
    tables = schedule.group_games([0, 1, 2, 3], 4)
    assert len(tables) == 4
    assert sorted(t.players[t.first_seat] for t in tables) == [0, 1, 2, 3]
    assert [len(t.players) for t in schedule.group_games([0, 1, 2], 4)] == [3, 3, 3]


def test_ties_broken_by_head_to_head():
    # a beat b, b beat c, c beat a, a and b also beat d... a and b tie on points
    r = schedule.Result
    results = [
        r({1: 1.0, 2: 0.0}, {1: 40, 2: 30}, {1: 1, 2: 2}),
        r({2: 1.0, 1: 0.0}, {2: 50, 1: 20}, {2: 1, 1: 2}),
        r({2: 1.0, 3: 0.0}, {2: 41, 3: 40}, {2: 1, 3: 2}),
        r({1: 1.0, 3: 0.0}, {1: 60, 3: 10}, {1: 1, 3: 2}),
    ]
    rows = schedule.standings([1, 2, 3], results)
    # 1 and 2: 2 points each, same opponents' points, 1-1 head to head;
    # the margin decides: player 1 +25, player 2 +10.5
    assert [r.player for r in rows] == [1, 2, 3]


def test_a_decided_game_says_so_on_its_page_replay_and_record(season_run, client):
    league_game = (
        LeagueGame.objects.filter(group__season_id=season_run["season"], decided=True)
        .select_related("game")
        .first()
    )
    game = league_game.game
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert (
        "Decided at the season's end: the places were given by the computer "
        "playing the game out." in page
    )
    replay = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "decided at the season's end</strong>" in replay
    record = client.get(f"/games/{game.pk}/record.json").json()
    ranks = [s.rank for s in game.seats.order_by("number")]
    assert record["decided"] == {"ranks": ranks}
    assert "result" not in record  # not played to its end
    # the seat that used the most clock ranks last; the points follow the places
    points = league_game.points
    by_rank = sorted(game.seats.all(), key=lambda s: s.rank)
    assert points[str(by_rank[0].user_id)] >= points[str(by_rank[-1].user_id)]


def _returning(make_user, previous: list[tuple[str, int, int, float]]):
    """A finished season 1 of a 2-player league whose players, ``(name, their
    division in it, movement, rating)``, are carried over into season 2 and
    confirmed; season 2 is then started. Its players by division."""
    league = League.objects.create(
        slug="up-down", variant="classic", players=2, season_weeks=8
    )
    with moved_clock(_now()) as moment:
        first = services.season_create(league=league, starts_at=moment[0])
        first.status = Season.Status.FINISHED
        first.save()
        groups = {
            division: first.groups.create(division=division, number=1)
            for division in {row[1] for row in previous}
        }
        following = services.season_create(
            league=league, starts_at=moment[0] + timedelta(days=60)
        )
        for name, division, movement, rating in previous:
            user = make_user(name)
            Waiver.objects.create(user=user)
            PlayerStats.objects.create(
                user=user, family="classic", mu=rating, sigma=2.0, ordinal=rating - 6
            )
            Entry.objects.create(
                season=first,
                user=user,
                group=groups[division],
                movement=movement,
                created_at=moment[0],
            )
            Entry.objects.create(
                season=following,
                user=user,
                confirmed=True,
                target_division=max(1, division + movement),
                created_at=moment[0],
            )
        moment[0] = following.starts_at
        services.season_start(season_id=following.pk)
    placed: dict[int, list[str]] = {}
    for entry in following.entries.select_related("group", "user"):
        placed.setdefault(entry.group.division, []).append(entry.user.username)
    return {division: sorted(names) for division, names in placed.items()}


def test_a_groups_winner_plays_in_the_division_they_won(db, make_user):
    # one of division 1 left: 6 players make groups of 3 and 3, and four are
    # bound for division 1; the winner from below has the lowest rating of all
    placed = _returning(
        make_user,
        [
            ("ana", 1, 0, 30.0),
            ("bao", 1, 0, 29.0),
            ("chi", 1, 0, 28.0),
            ("dan", 1, 1, 40.0),
            ("eun", 2, -1, 10.0),
            ("fay", 2, 0, 20.0),
        ],
    )
    # the winner goes up; the stayer with the lowest rating makes room
    assert placed == {1: ["ana", "bao", "eun"], 2: ["chi", "dan", "fay"]}


def test_a_groups_last_does_not_climb_back_into_the_gap(db, make_user):
    # two of division 1 left: 7 players make 4 and 3, three are bound for
    # division 1; the one who came down has the best rating of the rest
    placed = _returning(
        make_user,
        [
            ("ana", 1, 0, 30.0),
            ("bao", 1, 0, 29.0),
            ("dan", 1, 1, 40.0),
            ("eun", 2, -1, 10.0),
            ("fay", 2, 0, 20.0),
            ("gil", 2, 0, 15.0),
            ("hoa", 2, 1, 12.0),
        ],
    )
    # the gap goes to the best of those who stayed in division 2
    assert placed == {1: ["ana", "bao", "eun", "fay"], 2: ["dan", "gil", "hoa"]}
