"""Who may read and write a game's chat, and what each reader sees (issue #26).

The one place for the rules of docs/together.md "Talk in a game":

- Chat is among a game's people: the players who joined it, computers aside. A
  game with fewer than two of them has none.
- Each player's chat in a game is on or off: their choice for that game
  (``GameChat``) if they made one, else their setting for all games
  (``User.chat``): with everyone (the default, issue #35), off, or with
  friends, which is on when every other person at the table is their friend
  (they follow each other, ``accounts.selectors.friend_ids``).
- A reader reads a message when their chat is on there, and the author is
  neither muted by them (``Mute``) nor blocked either way
  (``accounts.selectors.blocked_ids``). A player may write while their chat is
  on, the game has started, and at least one other person could read them.
- A block is never told (issue #35): to the blocked player the blocker looks
  like a player whose chat is off — what they wrote before the block stays,
  nothing after it shows, and no word says "blocked". The blocker sees that
  they blocked.
- Nobody else — visitors, other players, the admins' pages aside — reads a word.

Also the reads of a report of a player (``shared_games``, the games it may
name, and the flood limit's count).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Q, QuerySet

from accounts import selectors as accounts_selectors
from accounts.models import Block, User
from games import clock
from games.models import Game, Seat

from .models import GameChat, Message, Mute, PlayerReport, Report


def people(*, game: Game, seats: Sequence[Seat] | None = None) -> list[User]:
    """The game's people (joined, not computers), in seat order."""
    rows = seats if seats is not None else game.seats.select_related("user")
    return [
        seat.user
        for seat in sorted(rows, key=lambda s: s.number)
        if seat.user is not None
        and not seat.user.is_computer
        and seat.invite_status == Seat.Invite.JOINED
    ]


def _chat_on(user: User, others: Sequence[User], choice: bool | None) -> bool:
    if choice is not None:
        return choice
    if user.chat == User.Chat.EVERYONE:
        return True
    if user.chat == User.Chat.NOBODY:
        return False
    friends = accounts_selectors.friend_ids(user=user)
    return all(other.pk in friends for other in others)


@dataclass(frozen=True)
class Reader:
    """One person of the game as ``ChatView.viewer`` sees them."""

    user: User
    on: bool
    """Their chat is on in this game, as far as the viewer may know: off
    when they block the viewer (a block is not told)."""
    muted: bool
    """The viewer mutes them."""
    blocked: bool
    """The viewer blocks them (a block the other way shows only as ``on``
    False)."""
    blocks_since: datetime | None = None
    """When they blocked the viewer, if they do: their messages since then are
    not shown to the viewer. Never drawn: the viewer is not told."""


@dataclass(frozen=True)
class ChatView:
    """A game's chat as one of its people sees it (:func:`chat_view`)."""

    game: Game
    viewer: User
    on: bool
    """The viewer's chat is on in this game."""
    others: tuple[Reader, ...]
    messages: tuple[Message, ...] = ()
    """What the viewer reads, oldest first (empty while their chat is off)."""
    reported: frozenset[int] = field(default_factory=frozenset)
    """The messages the viewer reported."""

    @property
    def readers(self) -> list[User]:
        """Who would read what the viewer writes now."""
        return [r.user for r in self.others if r.on and not r.blocked]

    @property
    def inviting(self) -> list[User]:
        """Who has the chat on and would talk with the viewer (neither blocked
        nor muted by them): while the viewer's chat is off, the panel says
        "Alice would like to talk — turn the chat on"."""
        return [r.user for r in self.others if r.on and not r.blocked and not r.muted]

    @property
    def unblocked(self) -> list[User]:
        """The other people the viewer does not block."""
        return [r.user for r in self.others if not r.blocked]

    @property
    def started(self) -> bool:
        return self.game.status in (Game.Status.ACTIVE, Game.Status.FINISHED)

    @property
    def may_write(self) -> bool:
        return self.on and self.started and bool(self.readers)

    @property
    def blocked_all(self) -> bool:
        """The viewer blocks every other person: the chat is closed (only the
        blocker is told so)."""
        return all(r.blocked for r in self.others)


def _view(game: Game, viewer: User, table: list[User]) -> ChatView | None:
    if viewer not in table or len(table) < 2:
        return None
    ids = [u.pk for u in table]
    choices = dict(
        GameChat.objects.filter(game=game, user_id__in=ids).values_list("user_id", "on")
    )
    others = [u for u in table if u.pk != viewer.pk]
    muted = set(
        Mute.objects.filter(muter=viewer, muted_id__in=ids).values_list(
            "muted_id", flat=True
        )
    )
    blocked, since = _blocks(viewer, [u.pk for u in others])
    readers = tuple(
        Reader(
            user=other,
            on=other.pk not in since
            and _chat_on(
                other, [u for u in table if u.pk != other.pk], choices.get(other.pk)
            ),
            muted=other.pk in muted,
            blocked=other.pk in blocked,
            blocks_since=since.get(other.pk),
        )
        for other in others
    )
    return ChatView(
        game=game,
        viewer=viewer,
        on=_chat_on(viewer, others, choices.get(viewer.pk)),
        others=readers,
    )


def _blocks(viewer: User, ids: list[int]) -> tuple[set[int], dict[int, datetime]]:
    """Those of ``ids`` whom ``viewer`` blocks, and since when each of those
    who block ``viewer`` does (one query; the date is why this reads ``Block``
    itself rather than ``accounts.selectors.blocked_ids``)."""
    rows = Block.objects.filter(
        Q(blocker=viewer, blocked_id__in=ids) | Q(blocked=viewer, blocker_id__in=ids)
    ).values_list("blocker_id", "blocked_id", "created_at")
    blocked = {b for a, b, _ in rows if a == viewer.pk}
    since = {a: when for a, b, when in rows if b == viewer.pk}
    return blocked, since


def chat_view(
    *, game: Game, user: object, seats: Sequence[Seat] | None = None
) -> ChatView | None:
    """The chat of ``game`` as ``user`` sees it, with the messages they read;
    None when they are not one of its people (or it has no chat)."""
    if not isinstance(user, User):
        return None
    view = _view(game, user, people(game=game, seats=seats))
    if view is None or not view.on:
        return view
    hidden = {r.user.pk for r in view.others if r.muted or r.blocked}
    rows = Message.objects.filter(game=game).exclude(author_id__in=hidden)
    since_block = _written_since_block(view.others)
    if since_block is not None:
        rows = rows.exclude(since_block)
    shown = tuple(rows.select_related("author"))
    reported = frozenset(
        Report.objects.filter(reporter=user, message__game=game).values_list(
            "message_id", flat=True
        )
    )
    return ChatView(
        game=view.game,
        viewer=view.viewer,
        on=True,
        others=view.others,
        messages=shown,
        reported=reported,
    )


def _written_since_block(others: Sequence[Reader]) -> Q | None:
    """The messages of those who block the viewer written since their block
    (a player whose chat is off would not have written them); None if no
    one blocks the viewer."""
    hidden = None
    for r in others:
        if r.blocks_since is not None:
            since = Q(author_id=r.user.pk, created_at__gte=r.blocks_since)
            hidden = since if hidden is None else hidden | since
    return hidden


def message_readers(*, message: Message) -> list[User]:
    """The people who read ``message`` (its author aside): whose chat is on
    in its game, who neither mute its author nor block them, nor are blocked
    by them."""
    game = message.game
    table = people(game=game)
    readers = []
    for user in table:
        if user.pk == message.author_id:
            continue
        view = _view(game, user, table)
        if view is None or not view.on:
            continue
        author = next(r for r in view.others if r.user.pk == message.author_id)
        if not author.muted and not author.blocked and author.blocks_since is None:
            readers.append(user)
    return readers


# ------------------------------------------------------------ player reports


def shared_games(*, user: User, other: User) -> QuerySet[Game]:
    """The games ``user`` and ``other`` both joined, in progress or finished,
    not imported, newest first: those a report of ``other`` by ``user`` may
    name (docs/together.md, "Report a player")."""
    joined = Seat.Invite.JOINED
    return (
        Game.objects.filter(seats__user=user, seats__invite_status=joined)
        .filter(seats__user=other, seats__invite_status=joined)
        .filter(status__in=[Game.Status.ACTIVE, Game.Status.FINISHED], imported=False)
        .order_by("-created_at", "-pk")
    )


def player_reports_since(*, reporter: User, days: int = 1) -> int:
    """How many players ``reporter`` reported in the last ``days`` days."""
    since = clock.now() - timedelta(days=days)
    return PlayerReport.objects.filter(reporter=reporter, created_at__gt=since).count()
