"""The rules of a season as plain functions (docs/leagues.md): how players
are put in divisions and groups, which games a group plays, the points a game
gives and the order of a group's standings. No database here: the services
call these with what they read.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

GROUP_SIZE = 4
SMALL_GROUP = 3
T = TypeVar("T")


def group_sizes(count: int) -> list[int]:
    """Groups of 4, and of 3 where the count needs it (the groups of 3 last):
    12 → 4 4 4, 10 → 4 3 3, 9 → 3 3 3; 5 is one group of 5 (no split of five
    into 4s and 3s exists), under 3 no group at all."""
    if count < SMALL_GROUP:
        return []
    if count == 5:
        return [5]
    threes = (-count) % GROUP_SIZE  # 0, 3, 2, 1 groups of 3 make it even
    fours = (count - SMALL_GROUP * threes) // GROUP_SIZE
    return [GROUP_SIZE] * fours + [SMALL_GROUP] * threes


def division_of(group_index: int) -> int:
    """The division of the season's ``group_index``-th group (0 the best):
    division 1 holds one group, each division below twice as many as the one
    above (1, 2, 4, 8 … groups), a pyramid that each group's winner climbs."""
    return (group_index + 1).bit_length()


def place_in_groups(order: Sequence[T]) -> list[tuple[int, list[T]]]:
    """``order``: the season's players, best placed first (returning players
    by the division their last season gives, then by rating; newcomers after
    them, by rating). Cut into groups (``group_sizes``), each with its
    division: ``[(division, players)]``."""
    groups: list[tuple[int, list[T]]] = []
    start = 0
    for index, size in enumerate(group_sizes(len(order))):
        groups.append((division_of(index), list(order[start : start + size])))
        start += size
    return groups


@dataclass(frozen=True)
class Table:
    """One game of a group: who sits where (seat order) and who plays first
    (a seat number)."""

    players: tuple[int, ...]
    first_seat: int


def group_games(members: Sequence[int], seats: int) -> list[Table]:
    """The games of a group of ``members`` (positions 0…n−1) in a league of
    ``seats`` players a game. Two a game: each pair plays twice, each of the
    two starting once. More: the group plays at one table, as many games as
    it has players, each starting once (a group of 3 in a league of 4 plays
    3-player games); a group bigger than a table plays each window of
    ``seats`` players around the group (a group of 5 in a league of 4: each
    game leaves one out, each player starts one of the four they play)."""
    count = len(members)
    if seats == 2:
        tables: list[Table] = []
        for a, b in itertools.combinations(members, 2):
            tables.append(Table((a, b), 0))
        for a, b in itertools.combinations(members, 2):
            tables.append(Table((b, a), 0))
        return tables
    size = min(seats, count)
    return [
        Table(tuple(members[(start + k) % count] for k in range(size)), 0)
        for start in range(count)
    ]


def points_for_places(places: Sequence[int]) -> list[float]:
    """Each seat's points for its place at a table (1 the best, equal places
    shared): (opponents finished behind + ½ for each tied) ÷ (players − 1):
    1, ½, 0 at 2 players; 1, ⅔, ⅓, 0 at 4."""
    count = len(places)
    return [
        (
            sum(1 for other in places if other > mine)
            + 0.5 * (sum(1 for other in places if other == mine) - 1)
        )
        / (count - 1)
        for mine in places
    ]


@dataclass
class Result:
    """One game's result as the standings read it: by player, their points,
    their score (None where the game has no score to compare, a decided
    game's still counts as it stood) and their place."""

    points: Mapping[int, float]
    scores: Mapping[int, int | None]
    places: Mapping[int, int]


@dataclass
class Standing:
    player: int
    points: float = 0.0
    opponents_points: float = 0.0
    margin: float = 0.0
    firsts: int = 0
    played: int = 0
    head_to_head: dict[int, float] = field(default_factory=dict)


def standings(players: Sequence[int], results: Sequence[Result]) -> list[Standing]:
    """A group's table, best first: by points, then the points of the
    opponents each met (counted once per game), then head to head (points
    in the games among those still tied), then the score margin over the
    table's average, then first places; then as ``players`` lists them."""
    table = {player: Standing(player) for player in players}
    for result in results:
        scored = [s for s in result.scores.values() if s is not None]
        average = sum(scored) / len(scored) if scored else 0.0
        for player, points in result.points.items():
            row = table[player]
            row.points += points
            row.played += 1
            score = result.scores.get(player)
            if score is not None:
                row.margin += score - average
            if result.places.get(player) == 1:
                row.firsts += 1
            for other in result.points:
                if other != player:
                    row.head_to_head[other] = row.head_to_head.get(other, 0.0) + points
    for result in results:
        for player in result.points:
            table[player].opponents_points += sum(
                table[other].points for other in result.points if other != player
            )
    order = {player: index for index, player in enumerate(players)}
    rows = sorted(
        table.values(),
        key=lambda r: (-round(r.points, 6), -round(r.opponents_points, 6)),
    )
    ranked: list[Standing] = []
    for _key, tied_rows in itertools.groupby(
        rows, key=lambda r: (round(r.points, 6), round(r.opponents_points, 6))
    ):
        tied = list(tied_rows)
        among = {r.player for r in tied}

        def mutual(row: Standing, among: set[int] = among) -> float:
            return sum(v for k, v in row.head_to_head.items() if k in among)

        tied.sort(
            key=lambda r: (
                -round(mutual(r), 6),
                -round(r.margin, 6),
                -r.firsts,
                order[r.player],
            )
        )
        ranked.extend(tied)
    return ranked
