"""The lists of games a player sees: their move, waiting, invitations, open games,
friends' games, and whom to invite.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import Coalesce, RowNumber

from accounts.models import Follow, User
from accounts.selectors import block_list, blocked_ids, following, friend_ids
from games import clock
from games.models import Game, Move, Seat
from games.selectors.games import _with_seats
from games.selectors.seats import seat_view


def game_get_awaiting_move(*, user: User, game_id: int) -> Game | None:
    """Game ``game_id`` if ``user`` is to move in it (``SeatView.my_turn``),
    else None."""
    games = Game.objects.defer("state").prefetch_related("seats")
    game = games.filter(pk=game_id).first()
    if game is None or not seat_view(game=game, user=user).my_turn:
        return None
    return game


# The lists of a player's own games start from the player's seats (the seat's
# user index: their games, a few hundred rows) and reach each game by its key.
# A condition on the game with an ``Exists`` over seats made the database walk
# every game in progress (or every game) checking each one for the player's seat.


def _awaiting_move(user: User) -> QuerySet[Game]:
    """The games where ``SeatView.my_turn`` holds for ``user``, as one query
    for the lists of many games: the same rule in SQL (the game in progress,
    its seat to move ``user``'s; every seat of a game in progress has joined).
    A join: one seat per user and game, so no game twice.
    ``tests/games/test_selectors.py`` checks that the two agree."""
    return Game.objects.filter(
        status=Game.Status.ACTIVE, seats__user=user, seats__number=F("seat_to_move")
    )


def game_list_awaiting_move(*, user: User) -> QuerySet[Game]:
    """Games where ``user`` is to move, least time left first (their deadline:
    ``games.play.banks``)."""
    return _with_seats(_awaiting_move(user).order_by("turn_deadline", "pk"))


def game_list_waiting(*, user: User) -> QuerySet[Game]:
    """``user``'s games waiting for others: their moves (in progress, and not
    ``SeatView.my_turn``, as in ``_awaiting_move``), or players to join (the
    open games ``user`` has joined: one they are invited to and have not
    answered is an invitation, ``game_list_invitations``, listed once)."""
    mine = Seat.objects.filter(user=user).filter(
        Q(game__status=Game.Status.OPEN, invite_status=Seat.Invite.JOINED)
        | (Q(game__status=Game.Status.ACTIVE) & ~Q(number=F("game__seat_to_move")))
    )
    return _with_seats(
        Game.objects.filter(pk__in=mine.values("game_id")).order_by(
            F("turn_deadline").asc(nulls_last=True), "-created_at"
        )
    )


def game_list_recently_finished(*, user: User, limit: int = 10) -> QuerySet[Game]:
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return _with_seats(
        Game.objects.filter(Exists(mine), status=Game.Status.FINISHED).order_by(
            "-finished_at"
        )[:limit]
    )


def has_played(*, user: User) -> bool:
    """Whether ``user`` has sat in a game that started (in progress or over):
    until then their home page welcomes them (issue #35 item 8)."""
    return Seat.objects.filter(
        user=user,
        invite_status=Seat.Invite.JOINED,
        game__status__in=[Game.Status.ACTIVE, Game.Status.FINISHED],
    ).exists()


def game_list_invitations(*, user: User) -> QuerySet[Game]:
    """The open games ``user`` is invited to and has not answered, newest
    first; not those whose creator ``user`` blocks, which stand unseen
    (issue #35 item 2)."""
    invited = Seat.objects.filter(
        game=OuterRef("pk"), user=user, invite_status=Seat.Invite.INVITED
    )
    return _with_seats(
        Game.objects.filter(Exists(invited), status=Game.Status.OPEN)
        .exclude(creator__in=block_list(user=user))
        .order_by("-created_at")
    )


def game_list_open(*, user: User | None = None) -> QuerySet[Game]:
    """Open games with a free seat (not those ``user`` already sits in), but
    not games whose seats go to those with their invitation link: only the
    link leads to them."""
    free = Seat.objects.filter(game=OuterRef("pk"), invite_status=Seat.Invite.OPEN)
    games = Game.objects.filter(
        Exists(free), status=Game.Status.OPEN, invite_token__isnull=True
    )
    if user is not None and user.is_authenticated:
        games = games.exclude(
            Exists(Seat.objects.filter(game=OuterRef("pk"), user=user))
        )
    return _with_seats(games.order_by("-created_at"))


def game_list_for_player(*, user: User, finished: bool) -> QuerySet[Game]:
    """A player's games for their profile page.

    From the player's seats (the user index: a hundred rows), not a walk of every
    game checking for a seat, which grows with the whole archive.
    """
    statuses = (
        [Game.Status.FINISHED] if finished else [Game.Status.OPEN, Game.Status.ACTIVE]
    )
    # A join (one seat per user per game: no duplicates) driven from the
    # seat's (user, game) index in the game's order, newest first: a game's id
    # grows with its creation, so twenty of a player's ten thousand games are
    # twenty index entries (``-created_at`` sorted all ten thousand, 120 ms
    # among a million games; ``pk__in``/``Exists`` walked every finished game).
    return _with_seats(
        Game.objects.filter(
            seats__user=user, seats__invite_status="joined", status__in=statuses
        ).order_by("-seats__game_id")
    )


FRIENDS_GAMES_DAYS = 14
"""How long a finished game stays in "Friends' games" (docs/together.md)."""

FRIENDS_GAMES_PER_PLAYER = 50
"""The latest games of each followed player that "Friends' games" looks at
(docs/together.md): every game in progress or just finished of anyone who
plays fewer than fifty at once."""


def last_move_at() -> Coalesce:
    """A game's time of its latest event (its start before any), for
    ``annotate``: the order of "newest move first" lists."""
    latest = Move.objects.filter(game=OuterRef("pk")).order_by("-ply")
    return Coalesce(Subquery(latest.values("created_at")[:1]), F("started_at"))


def friends_games(*, user: User, limit: int = 10) -> QuerySet[Game]:
    """The home page's "Friends' games" (issue #26): games in progress, and
    those finished in the last ``FRIENDS_GAMES_DAYS`` days, where a player
    ``user`` follows sits (``user``'s own games with them too), newest move
    first, at most ``limit``; seats prefetched (two queries in all). Each game
    carries ``last_move_at`` (its start before any move)."""
    followed = Follow.objects.filter(follower=user).values("followed_id")
    # From each followed player's latest seats (the seat's (user, game)
    # index, newest game first), as for profiles: a player of ten thousand
    # games is read fifty rows deep, not ten thousand games.
    seated = (
        Seat.objects.filter(user_id__in=followed)
        .annotate(
            newest=Window(
                RowNumber(), partition_by=[F("user_id")], order_by=F("game_id").desc()
            )
        )
        .filter(newest__lte=FRIENDS_GAMES_PER_PLAYER)
        .values("game_id")
    )
    cutoff = clock.now() - timedelta(days=FRIENDS_GAMES_DAYS)
    games = (
        Game.objects.filter(pk__in=seated)
        .filter(
            Q(status=Game.Status.ACTIVE)
            | Q(status=Game.Status.FINISHED, finished_at__gte=cutoff)
        )
        .annotate(last_move_at=last_move_at())
        .order_by(F("last_move_at").desc(nulls_last=True), "-pk")
    )
    return _with_seats(games[:limit])


@dataclass(frozen=True)
class InviteSuggestion:
    """A name the new-game form's invite field suggests, and why: ``friend``
    (you follow each other), ``following`` (you follow them) or ``opponent``
    (you played them lately)."""

    user: User
    kind: str


RECENT_OPPONENT_GAMES = 20
"""How many of a player's latest games the invite suggestions take opponents
from."""


def invite_suggestions(*, user: User) -> list[InviteSuggestion]:
    """Whom the invite field suggests (issue #26): friends by name, then the
    rest of the players ``user`` follows by name, then the people of their
    latest games, the most recent first; never a computer, ``user``, or a
    player blocked either way (a block ends follows both ways)."""
    friends = friend_ids(user=user)
    followed = list(following(user=user))
    suggestions = [InviteSuggestion(u, "friend") for u in followed if u.pk in friends]
    suggestions += [
        InviteSuggestion(u, "following") for u in followed if u.pk not in friends
    ]
    latest = (
        Seat.objects.filter(user=user, invite_status=Seat.Invite.JOINED)
        .exclude(game__status=Game.Status.CANCELLED)
        .order_by("-game__created_at")
        .values("game_id")[:RECENT_OPPONENT_GAMES]
    )
    seats = (
        Seat.objects.filter(
            game_id__in=latest,
            invite_status=Seat.Invite.JOINED,
            user__is_active=True,
            user__computer_level="",
        )
        .exclude(user=user)
        .select_related("user")
        .order_by("-game__created_at", "number")
    )
    seen = {u.pk for u in followed}
    opponents: list[User] = []
    for seat in seats:
        if seat.user is not None and seat.user.pk not in seen:
            seen.add(seat.user.pk)
            opponents.append(seat.user)
    blocked = blocked_ids(user=user, among=[u.pk for u in opponents], either_way=True)
    suggestions += [
        InviteSuggestion(u, "opponent") for u in opponents if u.pk not in blocked
    ]
    return suggestions


def game_count_awaiting_move(*, user: User) -> int:
    return _awaiting_move(user).count()
