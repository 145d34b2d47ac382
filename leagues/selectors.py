"""Reads of the leagues: the Leagues page, a group's table and games, a
player's seasons (their profile)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Prefetch, QuerySet
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games.models import Seat
from leagues import schedule
from leagues.models import Entry, Group, League, LeagueGame, Season
from leagues.services import entry_problem, group_results


@dataclass
class LeagueView:
    league: League
    season: Season | None
    """The season being played, or else the one registering, or the last."""
    registering: Season | None
    """The season whose registration is open (the next one while one runs)."""
    entry: Entry | None
    """The viewer's entry to ``registering``."""
    problem: str | None
    """Why the viewer may not enter ``registering``."""
    my_group: Group | None
    """The viewer's group in ``season``."""
    groups: int
    divisions: int
    entrants: int


def _seasons_of(league: League) -> list[Season]:
    return list(league.seasons.order_by("-number")[:3])


def leagues_page(*, user: User | Any) -> list[LeagueView]:
    """Each active league with its current season and the viewer's place in it."""
    signed_in = isinstance(user, User)
    views = []
    for league in League.objects.filter(active=True):
        seasons = _seasons_of(league)
        running = next((s for s in seasons if s.in_play), None)
        registering = next((s for s in seasons if s.registering), None)
        season = running or registering or (seasons[0] if seasons else None)
        entry = my_group = None
        problem = None
        if signed_in and registering is not None:
            entry = Entry.objects.filter(season=registering, user=user).first()
            if entry is None or not entry.confirmed:
                problem = entry_problem(user=user, season=registering)
        shape = {"groups": 0, "divisions": 0}
        if season is not None and not season.registering:
            shape = season.groups.aggregate(
                groups=Count("pk"), divisions=Max("division", default=0)
            )
            if signed_in:
                my_group = my_group_in(season=season, user=user)
        views.append(
            LeagueView(
                league=league,
                season=season,
                registering=registering,
                entry=entry,
                problem=problem,
                my_group=my_group,
                groups=shape["groups"],
                divisions=shape["divisions"],
                entrants=(
                    registering.entries.filter(confirmed=True).count()
                    if registering is not None
                    else 0
                ),
            )
        )
    return views


@dataclass
class Row:
    rank: int
    entry: Entry
    points: float
    played: int
    margin: float
    firsts: int


@dataclass
class GroupPage:
    group: Group
    rows: list[Row]
    games: list[LeagueGame]


def group_page(*, group_id: int) -> GroupPage | None:
    """A group's table, live while its season runs and as kept once it ended,
    and its games with their players; None for no such group."""
    group = Group.objects.select_related("season__league").filter(pk=group_id).first()
    if group is None:
        return None
    entries = {e.user_id: e for e in group.entries.select_related("user")}
    rows: list[Row] = []
    standing = {
        row.player: row
        for row in schedule.standings(
            sorted(entries, key=lambda uid: entries[uid].pk), group_results(group)
        )
    }
    if group.season.finished:
        ordered = sorted(entries.values(), key=lambda e: (e.place or 99, e.pk))
    else:
        order = list(standing)
        ordered = sorted(
            entries.values(), key=lambda e: (bool(e.left), order.index(e.user_id))
        )
    for rank, entry in enumerate(ordered, start=1):
        row = standing[entry.user_id]
        rows.append(
            Row(
                rank=rank,
                entry=entry,
                points=row.points,
                played=row.played,
                margin=row.margin,
                firsts=row.firsts,
            )
        )
    games = list(
        group.games.select_related("game", "first").prefetch_related(
            Prefetch(
                "game__seats",
                queryset=Seat.objects.select_related("user").order_by("number"),
            )
        )
    )
    return GroupPage(group=group, rows=rows, games=games)


def seasons_of(*, user: User) -> QuerySet[Entry]:
    """A player's seasons, newest first, with division and place (profile)."""
    return (
        Entry.objects.filter(user=user, group__isnull=False)
        .select_related("season__league", "group")
        .order_by("-season__starts_at", "-pk")
    )


@dataclass
class GroupLine:
    group_id: int
    division: int
    url: str
    label: str
    """"Group 3", in the active language."""
    detail: str
    """"won by <name>" once the season ended, else "4 players" (HTML)."""


def season_groups(*, season: Season) -> list[GroupLine]:
    """A season's groups in order, each with its number of players and, once
    the season ended, its winner (its table is on the group's page): two
    queries whatever the season's size, and each line's words made here,
    once (a season of 1,000 players has 250: bench/seasons.py)."""
    groups = season.groups.annotate(players=Count("entries")).order_by(
        "division", "number"
    )
    winners = dict(
        Entry.objects.filter(season=season, place=1).values_list(
            "group_id", "user__username"
        )
    )
    # one reverse for all the lines: the group's address with its id put in
    address = reverse("leagues:group", kwargs={"pk": 1234567890})
    lines = []
    for group in groups:
        winner = winners.get(group.pk)
        detail = (
            format_html(_("won by <bdi>{name}</bdi>"), name=winner)
            if winner is not None
            else ngettext("%(count)s player", "%(count)s players", group.players)
            % {"count": group.players}
        )
        lines.append(
            GroupLine(
                group_id=group.pk,
                division=group.division,
                url=address.replace("1234567890", str(group.pk)),
                label=_("Group %(number)s") % {"number": group.number},
                detail=detail,
            )
        )
    return lines


def my_group_in(*, season: Season, user: User | Any) -> Group | None:
    """The viewer's group in ``season``, if they play in it."""
    if not isinstance(user, User):
        return None
    entry = (
        Entry.objects.filter(season=season, user=user, group__isnull=False)
        .select_related("group")
        .first()
    )
    return entry.group if entry is not None else None
