"""Writes of the leagues (docs/leagues.md): join, confirm, leave and withdraw;
a season opened, started (divisions, groups, every game at once) and ended
(the games still unfinished decided, the places, up and down, the next
season's registration carrying its players over); a league game's result; a
player who ran out of time leaving the season.

Every write is one transaction that locks the season's row first, so a join
and the start, or two jobs, are serialised. ``process_seasons`` is the job
(the deadline job's pass runs it: ``leagues.receivers``): it opens, starts and
ends seasons without staff, and catches up what a lost receiver left.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import clock, selectors, services
from games.engine import playouts
from games.models import Game, Move, PlayerStats, Seat, variant_family
from leagues import notifications, schedule, signals
from leagues.models import Entry, Group, League, LeagueGame, Season, Waiver

logger = logging.getLogger(__name__)

ENTRY_GAMES = 5
"""Finished games on the site a player needs to enter a season."""
ENTRY_TIMEOUTS = 0.10
"""The share of them a player may have lost on time, at most."""
BREAK_DAYS = 7
"""Days between a season's last day and the next one's first: the players
carried over confirm their entry meanwhile."""
DECIDE_PLAYOUTS = 16
"""Playouts that decide an unfinished game on the last day."""
BAN_YEAR = timedelta(days=365)
DECIDING_AGAIN = timedelta(hours=1)
"""An ended season's verdicts not all made this long after they were asked
are asked again (the job)."""
VACATION_DAYS = 3
"""How long a player's vacations may stop the clocks of their league games in
a season (each game's seat keeps the rest: its games run side by side, so a
vacation spends the same in each)."""


class LeagueError(Exception):
    """A refused league action, with the message to show; nothing changed."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


# ------------------------------------------------------------ seasons made


def season_create(*, league: League, starts_at: datetime) -> Season:
    """The league's next season, first day ``starts_at``: registration opens
    ``registration_days`` before, the season lasts ``season_weeks``."""
    last = league.seasons.order_by("-number").first()
    return Season.objects.create(
        league=league,
        number=(last.number + 1) if last else 1,
        opens_at=min(starts_at - timedelta(days=league.registration_days), clock.now()),
        starts_at=starts_at,
        ends_at=starts_at + timedelta(weeks=league.season_weeks),
    )


def _locked_season(season_id: int) -> Season:
    season = (
        Season.objects.select_for_update()
        .select_related("league")
        .filter(pk=season_id)
        .first()
    )
    if season is None:
        raise LeagueError(_("No such season."), "season")
    return season


# ------------------------------------------------------------ entering


def bans(*, user: User, league: League, before: Season) -> int:
    """How many seasons of ``league`` from ``before`` on ``user`` may not
    enter: after leaving a season (out of time, or withdrawn) the next one;
    after a second time within a year, the next two."""
    departures: list[tuple[datetime, int, int]] = [
        (left_at, league_id, number)
        for left_at, league_id, number in Entry.objects.filter(
            user=user, left_at__isnull=False
        )
        .exclude(left="")
        .order_by("-left_at")
        .values_list("left_at", "season__league_id", "season__number")
        if left_at is not None
    ]
    if not departures:
        return 0
    last_at, last_league, last_number = departures[0]
    ban = 2 if len(departures) > 1 and departures[1][0] > last_at - BAN_YEAR else 1
    if last_league != league.pk:
        # a season left elsewhere bars the next season of every league
        started_since = league.seasons.filter(
            starts_at__gt=last_at, number__lt=before.number
        ).count()
    else:
        started_since = before.number - last_number - 1
    return max(0, ban - started_since)


def entry_problem(*, user: User, season: Season) -> str | None:
    """Why ``user`` may not enter ``season`` (in words), or None."""
    if user.is_computer or user.is_bot:
        return _("Computer players and bots do not enter leagues.")
    if not season.registering:
        return _("Registration for this season is closed: it has started.")
    if bans(user=user, league=season.league, before=season):
        return _(
            "You left a season before its end, so you sit out this one "
            "(docs: a player who runs out of time or withdraws misses the next "
            "season; twice in a year, the next two)."
        )
    if Waiver.objects.filter(user=user).exists():
        return None
    finished = Seat.objects.filter(
        user=user, game__status=Game.Status.FINISHED, game__imported=False
    ).aggregate(
        games=Count("pk"),
        timeouts=Count("pk", filter=Q(forfeited_at__isnull=False)),
    )
    if finished["games"] < ENTRY_GAMES:
        return ngettext(
            "A season needs players who have finished %(count)s game on the "
            "site; you have finished %(done)s.",
            "A season needs players who have finished %(count)s games on the "
            "site; you have finished %(done)s.",
            ENTRY_GAMES,
        ) % {"count": ENTRY_GAMES, "done": finished["games"]}
    if finished["timeouts"] > ENTRY_TIMEOUTS * finished["games"]:
        return _(
            "A season needs players who lost at most one game in ten on time; "
            "%(lost)s of your %(games)s were."
        ) % {"lost": finished["timeouts"], "games": finished["games"]}
    return None


def season_join(*, season_id: int, user: User) -> Entry:
    """Enter a season while its registration is open (or confirm the entry
    carried over from the last one)."""
    with transaction.atomic():
        season = _locked_season(season_id)
        entry = Entry.objects.filter(season=season, user=user).first()
        if entry is not None and entry.confirmed:
            raise LeagueError(_("You have already entered this season."), "entered")
        problem = entry_problem(user=user, season=season)
        if problem is not None:
            raise LeagueError(problem, "entry")
        if entry is not None:
            entry.confirmed = True
            entry.save(update_fields=["confirmed"])
            return entry
        return Entry.objects.create(season=season, user=user, created_at=clock.now())


def season_leave(*, season_id: int, user: User) -> None:
    """Take one's entry back before the season starts."""
    with transaction.atomic():
        season = _locked_season(season_id)
        if not season.registering:
            raise LeagueError(
                _(
                    "The season has started: you can no longer take your entry "
                    "back, only withdraw (and sit out the next season)."
                ),
                "started",
            )
        deleted, _rows = Entry.objects.filter(season=season, user=user).delete()
        if not deleted:
            raise LeagueError(_("You have not entered this season."), "not_entered")


def season_withdraw(*, season_id: int, user: User) -> None:
    """Leave a season being played: as running out of time does (docs/leagues.md,
    "Leaving and timing out")."""
    with transaction.atomic():
        season = _locked_season(season_id)
        entry = Entry.objects.filter(season=season, user=user).first()
        if not season.running or entry is None or entry.group_id is None:
            raise LeagueError(_("You are not playing in this season."), "not_playing")
        if entry.left:
            raise LeagueError(_("You have already left this season."), "left")
        _entry_leaves(entry, Entry.Left.WITHDREW)


def _entry_leaves(entry: Entry, reason: str) -> None:
    """``entry`` leaves its season now: it is marked, and its player resigns
    their league games still being played (at 2 players lost, at 3–4 the
    computer plays their seat: ``services.game_resign``). Inside the season's
    transaction."""
    entry.left = reason
    entry.left_at = clock.now()
    entry.save(update_fields=["left", "left_at"])
    playing = LeagueGame.objects.filter(
        group__season_id=entry.season_id,
        game__status=Game.Status.ACTIVE,
        game__seats__user_id=entry.user_id,
        game__seats__forfeited_at__isnull=True,
        game__seats__resigned=False,
    ).values_list("game_id", flat=True)
    for game_id in list(playing):
        with contextlib.suppress(services.GameActionError):  # ended meanwhile
            services.game_resign(game_id=game_id, user=entry.user)


def seat_left(*, game_id: int, user_id: int | None, reason: str) -> bool:
    """A player left a league game: out of time, they leave the season
    (``_entry_leaves``); a resignation is only that game's. Whether an entry
    left. Idempotent (the job catches up a lost call)."""
    if reason != Game.EndReason.TIMEOUT or user_id is None:
        return False
    season_id = (
        LeagueGame.objects.filter(game_id=game_id)
        .values_list("group__season_id", flat=True)
        .first()
    )
    if season_id is None:
        return False
    with transaction.atomic():
        season = _locked_season(season_id)
        entry = Entry.objects.filter(season=season, user_id=user_id, left="").first()
        if not season.running or entry is None:
            return False
        _entry_leaves(entry, Entry.Left.TIMEOUT)
    return True


# ------------------------------------------------------------ results


def game_points(game: Game, seats: Sequence[Seat]) -> dict[str, float]:
    """A finished game's points by player id (as the JSON keys them)."""
    places = [seat.rank or len(seats) for seat in seats]
    return {
        str(seat.user_id): points
        for seat, points in zip(seats, schedule.points_for_places(places), strict=True)
    }


def game_over(*, game_id: int) -> bool:
    """A league game finished: its points are kept and its group's pages
    ring. Idempotent; whether it was a league game newly counted."""
    with transaction.atomic():
        league_game = (
            LeagueGame.objects.select_for_update()
            .select_related("game")
            .filter(game_id=game_id, points__isnull=True)
            .first()
        )
        if league_game is None or not league_game.game.over:
            return False
        seats = list(league_game.game.seats.order_by("number"))
        league_game.points = game_points(league_game.game, seats)
        league_game.save(update_fields=["points"])
        group_id = league_game.group_id
        transaction.on_commit(functools.partial(_ring, group_id))
    return True


# ------------------------------------------------------------ the first day


def _rating(stats: dict[int, float], user_id: int) -> float:
    return stats.get(user_id, 0.0)


def season_start(*, season_id: int) -> Season:
    """Day 1: the confirmed entries are put in divisions and groups
    (``schedule.place_in_groups``: returning players by the division their
    last season gives, in it those who came up first and those who came down
    last, then rating; newcomers after them, by rating) and every
    game of the season is created, started, rated, without vacation days
    spent for a bank run out; its players are told once (``signals``). Fewer
    than 3 entries: the season is not played."""
    with transaction.atomic():
        season = _locked_season(season_id)
        if not season.registering:
            return season
        league = season.league
        Entry.objects.filter(season=season, confirmed=False).delete()
        entries = list(Entry.objects.filter(season=season).select_related("user"))
        season.started_at = clock.now()
        if len(entries) < max(3, min(league.players, 3)):
            season.status = Season.Status.CANCELLED
            season.ended_at = season.started_at
            season.save(update_fields=["status", "started_at", "ended_at"])
            return season
        stats = dict(
            PlayerStats.objects.filter(
                user__in=[e.user_id for e in entries],
                family=variant_family(league.variant),
            ).values_list("user_id", "mu")
        )
        for entry in entries:
            entry.rating = stats.get(entry.user_id)
        # within a division, who came up first and who came down last: a
        # group's winner plays in the division they won, its last in theirs
        moved = dict(
            Entry.objects.filter(
                season__league=league,
                season__number=season.number - 1,
                user__in=[e.user_id for e in entries],
            ).values_list("user_id", "movement")
        )
        returning = sorted(
            (e for e in entries if e.target_division is not None),
            key=lambda e: (
                e.target_division,
                moved.get(e.user_id, 0),
                -_rating(stats, e.user_id),
                e.pk,
            ),
        )
        newcomers = sorted(
            (e for e in entries if e.target_division is None),
            key=lambda e: (-_rating(stats, e.user_id), e.pk),
        )
        numbers: dict[int, int] = {}
        for division, members in schedule.place_in_groups(returning + newcomers):
            numbers[division] = numbers.get(division, 0) + 1
            group = Group.objects.create(
                season=season, division=division, number=numbers[division]
            )
            for entry in members:
                entry.group = group
            _group_games(group, [e.user for e in members], league)
        Entry.objects.bulk_update(entries, ["group", "rating"])
        season.status = Season.Status.RUNNING
        season.save(update_fields=["status", "started_at"])
        _announce(signals.season_started, season_id=season.pk)
    return season


def _group_games(group: Group, users: Sequence[User], league: League) -> None:
    rows = []
    for number, table in enumerate(
        schedule.group_games(range(len(users)), league.players), start=1
    ):
        seated = [users[i] for i in table.players]
        game = services.game_start_seated(
            variant=league.variant,
            users=seated,
            first_seat=table.first_seat,
            time_control=league.clock,
            rated=True,
            vacation_spends=False,
            vacation_cap=timedelta(days=VACATION_DAYS),
        )
        rows.append(
            LeagueGame(
                group=group,
                game=game,
                number=number,
                first=seated[table.first_seat],
            )
        )
    LeagueGame.objects.bulk_create(rows)


def _announce(signal: object, **ids: int) -> None:
    transaction.on_commit(lambda: signal.send(sender=Season, **ids))  # type: ignore[attr-defined]


# ------------------------------------------------------------ the last day


def clock_used(game: Game) -> list[float]:
    """The seconds each seat's turns took so far (its decisions' times, from
    the event before each, and the turn under way)."""
    used = [0.0] * game.players
    previous: datetime | None = game.started_at
    for event, created in (
        Move.objects.filter(game=game)
        .order_by("ply")
        .values_list("event", "created_at")
    ):
        seat = event.get("seat") if isinstance(event, dict) else None
        if seat is not None and previous is not None and 0 <= seat < game.players:
            used[seat] += max(0.0, (created - previous).total_seconds())
        previous = created
    if game.seat_to_move is not None and game.turn_started_at is not None:
        used[game.seat_to_move] += max(
            0.0, (clock.now() - game.turn_started_at).total_seconds()
        )
    return used


def _decided_places(
    played: Sequence[int], *, last: int, left: Sequence[int]
) -> list[int]:
    """The places of one playout (``played``) as the last day counts them:
    the seats that left behind everyone (sharing their place), then the
    seat that used the most clock, the others as they were played."""
    keys = [
        (0 if seat in left else 1 if seat == last else 2, 0 if seat in left else -place)
        for seat, place in enumerate(played)
    ]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


@dataclass(frozen=True)
class Verdict:
    points: list[float]
    """Expected points by seat."""
    places: list[int]
    last: int


def verdict(game: Game, *, seed: int) -> Verdict:
    """How an unfinished league game is decided (docs/leagues.md, "The last
    day"): the seat that used the most clock ranks last; the others by the
    strong computer playing it out for every seat ``DECIDE_PLAYOUTS`` seeded
    times; each seat gets the expected points of those playouts, and places
    by them. Never by the score so far."""
    seats = list(game.seats.order_by("number"))
    used = clock_used(game)
    left = [s.number for s in seats if s.forfeited_at is not None or s.resigned]
    # a seat that left is behind everyone still in (it ranks so in play too)
    candidates = [n for n in range(game.players) if n not in left]
    last = max(candidates or range(game.players), key=lambda n: (used[n], -n))
    if len(candidates) <= 2:
        # the clock put one of the last two players last: nothing to play out
        places = [(1,) * game.players]
    else:
        places = playouts.playout_places(
            selectors.game_engine(game),
            times=DECIDE_PLAYOUTS,
            level=User.ComputerLevel.STRONG,
            seconds=settings.SEASON_DECIDE_SECONDS,
            seed=seed,
        )
    total = [0.0] * game.players
    for played in places:
        ranked = _decided_places(played, last=last, left=left)
        for seat, points in enumerate(schedule.points_for_places(ranked)):
            total[seat] += points
    expected = [round(p / len(places), 6) for p in total]
    final = [1 + sum(1 for other in expected if other > mine) for mine in expected]
    return Verdict(points=expected, places=final, last=last)


def decide_game(league_game: LeagueGame) -> bool:
    """Decide one unfinished game of an ended season; whether it was."""
    game = league_game.game
    found = verdict(game, seed=game.pk)
    if services.game_decide(game_id=game.pk, ranks=found.places) is None:
        return False  # it ended meanwhile: the job counts it as played
    seats = list(game.seats.order_by("number"))
    league_game.decided = True
    league_game.points = {
        str(seat.user_id): found.points[seat.number] for seat in seats
    }
    league_game.save(update_fields=["decided", "points"])
    return True


def group_results(group: Group) -> list[schedule.Result]:
    """The results of a group's games over (finished or decided)."""
    results = []
    for league_game in group.games.select_related("game").filter(points__isnull=False):
        seats = list(league_game.game.seats.all())
        results.append(
            schedule.Result(
                points={int(k): v for k, v in (league_game.points or {}).items()},
                scores={s.user_id: s.score for s in seats if s.user_id is not None},
                places={s.user_id: s.rank or 0 for s in seats if s.user_id},
            )
        )
    return results


def needs_playouts(game: Game) -> bool:
    """Whether deciding ``game`` takes the computer's playouts (seconds of
    CPU): not when at most two players are still in (the clock puts one of
    them last)."""
    still_in = game.seats.filter(forfeited_at__isnull=True, resigned=False).count()
    return still_in > 2


def season_end(*, season_id: int, inline: bool = False) -> Season:
    """The last day: every unfinished game decided (``decide_game``, each in
    its own transaction), then ``season_finish``. A verdict without playouts
    is made here; those that take the computer's playouts go to the review
    queue's workers (``signals.verdicts_wanted``: ``leagues.tasks``), the
    season waits for them (``Season.Status.DECIDING``) and the last one
    finishes it. ``inline``: every verdict made here (the rehearsal)."""
    season = Season.objects.select_related("league").get(pk=season_id)
    if not season.running:
        return season
    catch_up(SeasonReport())
    waiting = False
    for league_game in LeagueGame.objects.filter(
        group__season=season, game__status=Game.Status.ACTIVE
    ).select_related("game"):
        if inline or not needs_playouts(league_game.game):
            decide_game(league_game)
        else:
            # no move from now on: the verdict is the position's on the last day
            services.game_stop_play(game_id=league_game.game_id)
            waiting = True
    for game_id in LeagueGame.objects.filter(
        group__season=season, points__isnull=True, game__status=Game.Status.FINISHED
    ).values_list("game_id", flat=True):
        game_over(game_id=game_id)  # those that ended as the season did
    if waiting:
        Season.objects.filter(pk=season_id, status=Season.Status.RUNNING).update(
            status=Season.Status.DECIDING, deciding_since=clock.now()
        )
        _announce(signals.verdicts_wanted, season_id=season_id)
        return Season.objects.get(pk=season_id)
    return season_finish(season_id=season_id)


def decide_one(*, game_id: int) -> None:
    """A verdict the review queue's worker makes (``leagues.tasks``): the game
    decided, then its season finished if it was the last."""
    league_game = (
        LeagueGame.objects.select_related("game", "group")
        .filter(game_id=game_id)
        .first()
    )
    if league_game is None:
        return
    if league_game.game.active:
        decide_game(league_game)
    else:
        game_over(game_id=game_id)
    season_finish(season_id=league_game.group.season_id)


def season_finish(*, season_id: int) -> Season:
    """Once every game of an ended season is over: the places, up and down,
    the season finished, its players told, and the next season's
    registration carrying them over. Nothing while a game is still being
    decided, or twice."""
    if LeagueGame.objects.filter(
        group__season_id=season_id, game__status=Game.Status.ACTIVE
    ).exists():
        return Season.objects.get(pk=season_id)
    with transaction.atomic():
        season = _locked_season(season_id)
        if season.status not in (Season.Status.RUNNING, Season.Status.DECIDING):
            return season
        entries = {
            e.user_id: e
            for e in Entry.objects.filter(season=season, group__isnull=False)
        }
        for group in season.groups.all():
            members = [e for e in entries.values() if e.group_id == group.pk]
            players = [e.user_id for e in sorted(members, key=lambda e: e.pk)]
            rows = schedule.standings(players, group_results(group))
            # players who left the season are behind those who stayed
            rows.sort(key=lambda r: bool(entries[r.player].left))
            for place, row in enumerate(rows, start=1):
                entry = entries[row.player]
                entry.points = round(row.points, 6)
                entry.place = place
                entry.movement = 0
                if place == 1 and group.division > 1 and not entry.left:
                    entry.movement = -1
                elif place == len(rows) and len(rows) > 1:
                    entry.movement = 1
        Entry.objects.bulk_update(entries.values(), ["points", "place", "movement"])
        season.status = Season.Status.FINISHED
        season.ended_at = clock.now()
        season.save(update_fields=["status", "ended_at"])
        if season.league.active:
            following = season.league.seasons.filter(number=season.number + 1).first()
            if following is None:
                following = season_create(
                    league=season.league,
                    starts_at=season.ends_at + timedelta(days=BREAK_DAYS),
                )
            _carry_over(season, following, list(entries.values()))
        _announce(signals.season_ended, season_id=season.pk)
    for group_id in season.groups.values_list("pk", flat=True):
        transaction.on_commit(functools.partial(_ring, group_id))
    return season


def _ring(group_id: int) -> None:
    notifications.group_changed(group_id=group_id)


def _carry_over(season: Season, following: Season, entries: list[Entry]) -> None:
    """The next season's registration holds this one's players, to confirm
    with one click, each with the division their result gives; not those who
    left (they sit it out)."""
    now = clock.now()
    divisions = dict(season.groups.values_list("pk", "division"))
    taken = set(following.entries.values_list("user_id", flat=True))
    rows = []
    for entry in entries:
        if entry.left or entry.user_id in taken or entry.group_id is None:
            continue
        division = divisions[entry.group_id] + entry.movement
        rows.append(
            Entry(
                season=following,
                user_id=entry.user_id,
                confirmed=False,
                created_at=now,
                target_division=max(1, division),
            )
        )
    Entry.objects.bulk_create(rows)
    # a player who entered by hand already keeps their result's division
    for entry in entries:
        if entry.user_id in taken and not entry.left and entry.group_id is not None:
            following.entries.filter(user_id=entry.user_id).update(
                target_division=max(1, divisions[entry.group_id] + entry.movement)
            )


# ------------------------------------------------------------ the job


def _forfeits_not_applied() -> list[tuple[int, int]]:
    """(game, player) of forfeits on time in running seasons' games whose
    player is still in the season: what ``seat_left`` has yet to apply."""
    return [
        (game_id, user_id)
        for game_id, user_id, season_id in Seat.objects.filter(
            game__league_game__group__season__status=Season.Status.RUNNING,
            forfeited_at__isnull=False,
            user__isnull=False,
        ).values_list("game_id", "user_id", "game__league_game__group__season_id")
        if Entry.objects.filter(season_id=season_id, user_id=user_id, left="").exists()
    ]


@dataclass
class SeasonReport:
    opened: int = 0
    started: int = 0
    ended: int = 0
    results: int = 0
    departures: int = 0

    def __str__(self) -> str:
        return (
            f"seasons opened {self.opened}, started {self.started}, ended "
            f"{self.ended}; league results {self.results}, departures "
            f"{self.departures}"
        )


def first_day_after(moment: datetime, days: int) -> datetime:
    """Midnight (UTC) at least ``days`` days after ``moment``."""
    day = (moment + timedelta(days=days)).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    return day if day >= moment + timedelta(days=days) else day + timedelta(days=1)


def catch_up(report: SeasonReport) -> None:
    """What the receivers of ``games.signals`` do, for what they missed (a
    process gone between a commit and its receiver): forfeits on time not
    applied to their season, league games over without their points."""
    for game_id, user_id in _forfeits_not_applied():
        report.departures += seat_left(
            game_id=game_id, user_id=user_id, reason=Game.EndReason.TIMEOUT
        )
    for game_id in LeagueGame.objects.filter(
        points__isnull=True, game__status=Game.Status.FINISHED
    ).values_list("game_id", flat=True):
        report.results += game_over(game_id=game_id)


def process_seasons(*, now: datetime | None = None) -> SeasonReport:
    """Open, start and end the seasons that are due, and catch up league
    results and departures a lost receiver left (idempotent)."""
    now = now or clock.now()
    report = SeasonReport()
    for league in League.objects.filter(active=True).exclude(
        seasons__status__in=[Season.Status.REGISTRATION, Season.Status.RUNNING]
    ):
        season_create(
            league=league, starts_at=first_day_after(now, league.registration_days)
        )
        report.opened += 1
    for running in Season.objects.filter(
        status=Season.Status.RUNNING, league__active=True
    ).select_related("league"):
        # the next season's registration opens its registration days before
        # its first day, BREAK_DAYS after this one's last
        starts_at = running.ends_at + timedelta(days=BREAK_DAYS)
        due = starts_at - timedelta(days=running.league.registration_days)
        if (
            due <= now
            and not running.league.seasons.filter(number__gt=running.number).exists()
        ):
            season_create(league=running.league, starts_at=starts_at)
            report.opened += 1
    for season_id in Season.objects.filter(
        status=Season.Status.REGISTRATION, starts_at__lte=now
    ).values_list("pk", flat=True):
        season_start(season_id=season_id)
        report.started += 1
    catch_up(report)
    for season_id in Season.objects.filter(
        status=Season.Status.RUNNING, ends_at__lte=now
    ).values_list("pk", flat=True):
        season_end(season_id=season_id)
        report.ended += 1
    for season in Season.objects.filter(status=Season.Status.DECIDING):
        if season_finish(season_id=season.pk).finished:
            report.ended += 1
        elif season.deciding_since is None or (
            season.deciding_since < now - DECIDING_AGAIN
        ):
            # verdicts queued long ago and not made (a worker killed, a lost
            # queue): asked again; a verdict already made is not made twice
            Season.objects.filter(pk=season.pk).update(deciding_since=now)
            _announce(signals.verdicts_wanted, season_id=season.pk)
    return report
