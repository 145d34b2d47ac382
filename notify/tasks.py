"""Background tasks that send notifications (django-tasks, as ``games.tasks``).

``notify.receivers`` queues them when ``games.signals`` announce the change they
tell of, after its commit (``transaction.on_commit``), so no request waits for a
push service or an SMTP server. Each claims its occasion before sending (the turn
by the guarded UPDATE of ``Game.turn_email_sent`` that the deadline job also
makes, the others by a ``Notice`` row), so a task run twice, or beside the
deadline job, sends once. A turn whose task was lost is still told by the
deadline job's next pass (``notify.jobs.process_turn_emails``). A league
season's start and end (``leagues.signals``) are told to each of its players
once (``notify.seasons``), never once per game.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count
from django_tasks import task

from accounts.models import VACATION_DAYS_PER_YEAR, User, Vacation
from accounts.services import vacation_days_used
from chat import phrases
from chat import selectors as chat_selectors
from chat.models import Message
from games import selectors
from games.models import Game, Seat
from leagues.models import Entry, Season

from . import seasons, services
from .models import Notice

NOTIFY_QUEUE = "notify"
"""The notifications' own queue (settings.TASK_QUEUES; issue #23): a push or an
SMTP server that is slow to answer holds up the next notification, never a
computer's move (``games.tasks``: the "default" queue, with workers of its own)."""


def claim_turn(*, game_id: int, ply: int) -> bool:
    """Claim the "your move" notice of the turn at ``ply`` (once, whoever asks)."""
    return bool(
        Game.objects.filter(
            pk=game_id, ply=ply, status=Game.Status.ACTIVE, turn_email_sent=False
        ).update(turn_email_sent=True)
    )


@task(queue_name=NOTIFY_QUEUE)
def turn_started(game_id: int, ply: int) -> str:
    """Tell the player to move in ``game_id`` at ``ply`` that it is their move.

    When the e-mail waits (``services.turn_email_waits``: their page is open, or
    they moved a moment ago), the push goes alone, as always (none to an open
    page), and the turn stays untold: the deadline job e-mails it, with a push,
    once they have been away long enough and still have not moved.
    """
    game = Game.objects.filter(
        pk=game_id, ply=ply, status=Game.Status.ACTIVE, turn_email_sent=False
    ).first()
    if game is None:
        return "told already"
    user = selectors.game_user_to_move(game=game)
    if user is not None and services.turn_email_waits(user=user, game=game):
        sent = services.notify_turn(user=user, game=game, email=False)
        return f"e-mail waits, pushes {sent.pushes}"
    if not claim_turn(game_id=game_id, ply=ply):
        return "told already"
    if user is None:
        return "nobody to tell"
    sent = services.notify_turn(user=user, game=game)
    return f"e-mails {sent.emails}, pushes {sent.pushes}"


def _seats(game: Game) -> list[Seat]:
    """The seats of ``game`` in order, with their accounts."""
    return list(game.seats.select_related("user").order_by("number"))


def _people(seats: Sequence[Seat]) -> list[User]:
    return [
        seat.user
        for seat in seats
        if seat.user is not None and not seat.user.is_computer
    ]


@task(queue_name=NOTIFY_QUEUE)
def invited(game_id: int, user_id: int) -> str:
    """Tell ``user_id`` they were invited to ``game_id`` (while it waits)."""
    game = Game.objects.select_related("creator").filter(pk=game_id).first()
    user = User.objects.filter(pk=user_id).first()
    if game is None or user is None or game.status != Game.Status.OPEN:
        return "stale"
    # Declined, or withdrawn by a block, while this task waited.
    if not game.seats.filter(user=user, invite_status=Seat.Invite.INVITED).exists():
        return "stale"
    if not services.claim(user=user, game=game, kind=Notice.Kind.INVITED):
        return "told already"
    sent = services.notify_invited(user=user, game=game)
    return f"e-mails {sent.emails}, pushes {sent.pushes}"


@task(queue_name=NOTIFY_QUEUE)
def game_started(game_id: int, started_by: int | None = None) -> str:
    """Tell the players of ``game_id`` it started: not the one whose action
    started it, nor the one to move (their "your move" says it)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status == Game.Status.OPEN:
        return "stale"
    seats = _seats(game)
    sent = services.Sent()
    for user in _people(seats):
        if user.pk == started_by:
            continue
        if selectors.seat_view(game=game, user=user, seats=seats).my_turn:
            continue
        if services.claim(user=user, game=game, kind=Notice.Kind.STARTED):
            sent += services.notify_game_started(user=user, game=game)
    return f"e-mails {sent.emails}, pushes {sent.pushes}"


@task(queue_name=NOTIFY_QUEUE)
def game_finished(game_id: int) -> str:
    """Tell every player of ``game_id`` it is over, with the final standings."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return "stale"
    sent = services.Sent()
    for user in _people(_seats(game)):
        if services.claim(user=user, game=game, kind=Notice.Kind.FINISHED):
            sent += services.notify_finished(user=user, game=game)
    return f"e-mails {sent.emails}, pushes {sent.pushes}"


@task(queue_name=NOTIFY_QUEUE)
def vacation_day_spent(user_id: int, game_id: int) -> str:
    """Tell ``user_id`` their bank ran out in ``game_id`` and one of their
    vacation days was spent (docs/clock.md, "A bank runs out"): once per
    vacation (its row is the claim's key)."""
    user = User.objects.filter(pk=user_id).first()
    game = Game.objects.filter(pk=game_id).first()
    vacation = (
        Vacation.objects.filter(user_id=user_id).order_by("-starts_at", "-pk").first()
    )
    if user is None or game is None or vacation is None:
        return "stale"
    if not services.claim(
        user=user, game=game, kind=Notice.Kind.VACATION, key=str(vacation.pk)
    ):
        return "told already"
    days_left = max(0, VACATION_DAYS_PER_YEAR - vacation_days_used(user=user))
    sent = services.notify_vacation_day(
        user=user, game=game, until=vacation.ends_at, days_left=days_left
    )
    return f"e-mails {sent.emails}, pushes {sent.pushes}"


@task(queue_name=NOTIFY_QUEUE)
def message_posted(message_id: int) -> str:
    """Tell the readers of a chat message (``chat.selectors.message_readers``)
    who are away from its game's page."""
    message = (
        Message.objects.select_related("game", "author").filter(pk=message_id).first()
    )
    if message is None:
        return "stale"
    sent = services.Sent()
    for user in chat_selectors.message_readers(message=message):
        sent += services.notify_chat(
            user=user,
            game=message.game,
            author=message.author.username,
            text=message.text or phrases.PHRASES.get(message.phrase, ""),
            message_id=message.pk,
        )
    return f"e-mails {sent.emails}, pushes {sent.pushes}"


def _placed(season: Season) -> list[Entry]:
    """The entries of ``season`` placed in a group, with player and group."""
    return list(
        Entry.objects.filter(season=season, group__isnull=False)
        .select_related("user", "group")
        .order_by("pk")
    )


@task(queue_name=NOTIFY_QUEUE)
def season_started(season_id: int) -> str:
    """Tell each player placed in a group of ``season_id`` that it started:
    their division, group and number of games (one message each)."""
    season = (
        Season.objects.select_related("league")
        .filter(pk=season_id, status=Season.Status.RUNNING)
        .first()
    )
    if season is None:
        return "stale"
    sent = services.Sent()
    for entry in _placed(season):
        if services.claim(
            user=entry.user,
            game=None,
            kind=Notice.Kind.SEASON_STARTED,
            key=seasons.key(season),
        ):
            sent += seasons.notify_season_started(entry=entry, season=season)
    return f"e-mails {sent.emails}, pushes {sent.pushes}"


@task(queue_name=NOTIFY_QUEUE)
def season_ended(season_id: int) -> str:
    """Tell each player placed in a group of ``season_id`` that it ended: their
    place in the group, up or down a division (one message each)."""
    season = (
        Season.objects.select_related("league")
        .filter(pk=season_id, status=Season.Status.FINISHED)
        .first()
    )
    if season is None:
        return "stale"
    sizes = dict(
        Entry.objects.filter(season=season, group__isnull=False)
        .order_by()
        .values("group")
        .annotate(size=Count("pk"))
        .values_list("group", "size")
    )
    sent = services.Sent()
    for entry in _placed(season):
        if entry.place is None or entry.group_id is None:  # unranked: untold
            continue
        if services.claim(
            user=entry.user,
            game=None,
            kind=Notice.Kind.SEASON_ENDED,
            key=seasons.key(season),
        ):
            sent += seasons.notify_season_ended(
                entry=entry, season=season, size=sizes[entry.group_id]
            )
    return f"e-mails {sent.emails}, pushes {sent.pushes}"
