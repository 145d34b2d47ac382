"""Every write of the chat (issue #26): a message, a game's on/off, a mute, a
report of a message or of a player (issue #33). Each checks what
``chat.selectors`` allows, in one transaction; a message and a chat switch
ring the pages of the game's people after the commit (``games.notifications``:
their chat panels fetch themselves again). A report rings nobody: the reported
player is never told."""

from __future__ import annotations

import functools

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import clock, notifications
from games.models import Game

from . import phrases, selectors, signals
from .models import (
    MAX_DETAILS,
    MAX_LENGTH,
    PLAYER_REPORTS_PER_DAY,
    GameChat,
    Message,
    Mute,
    PlayerReport,
    Report,
)


class ChatError(ValueError):
    """A refused chat action; ``message`` is for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _view(game: Game, user: User) -> selectors.ChatView:
    view = selectors.chat_view(game=game, user=user)
    if view is None:
        raise ChatError(_("Only the people playing this game can talk in it."))
    return view


def _ring(game: Game, user_ids: list[int]) -> None:
    transaction.on_commit(
        functools.partial(notifications.chatted, game_id=game.pk, user_ids=user_ids)
    )


def message_post(
    *, game: Game, author: User, text: str = "", phrase: str = ""
) -> Message:
    """``author`` writes ``text`` (or the quick phrase ``phrase``) in ``game``."""
    text = " ".join(text.split()) if text else ""
    if phrase and text:
        raise ChatError(_("Write a message or choose a quick phrase, not both."))
    if phrase and phrase not in phrases.PHRASES:
        raise ChatError(_("There is no such quick phrase."))
    if not phrase and not text:
        raise ChatError(_("Write something first."))
    if len(text) > MAX_LENGTH:
        raise ChatError(
            ngettext(
                "A message can be at most %(count)d character long.",
                "A message can be at most %(count)d characters long.",
                MAX_LENGTH,
            )
            % {"count": MAX_LENGTH}
        )
    view = _view(game, author)
    if not view.started:
        raise ChatError(_("The chat opens when the game starts."))
    if not view.on:
        raise ChatError(_("Your chat is off in this game: turn it on to write."))
    # Only the blocker is told of a block (issue #35): to the blocked player
    # the blocker is one more player whose chat is off.
    if view.blocked_all:
        raise ChatError(_("You blocked the other players of this game."))
    if not view.readers:
        raise ChatError(_("Nobody else at this table has turned the chat on yet."))
    with transaction.atomic():
        message = Message.objects.create(
            game=game,
            author=author,
            text=text,
            phrase=phrase,
            ply=game.ply,
            created_at=clock.now(),
        )
        _ring(game, [author.pk, *(u.pk for u in view.readers)])
        transaction.on_commit(
            functools.partial(
                signals.message_posted.send, sender=Message, message_id=message.pk
            )
        )
    return message


def chat_switch(*, game: Game, user: User, on: bool) -> None:
    """``user`` turns the chat of ``game`` on or off for themself."""
    view = _view(game, user)
    with transaction.atomic():
        GameChat.objects.update_or_create(game=game, user=user, defaults={"on": on})
        _ring(game, [user.pk, *(r.user.pk for r in view.others)])


def mute_set(*, muter: User, muted: User, on: bool) -> None:
    """``muter`` mutes ``muted`` (``on``) or stops muting them."""
    if muter.pk == muted.pk:
        raise ChatError(_("You cannot mute yourself."))
    with transaction.atomic():
        if on:
            Mute.objects.get_or_create(muter=muter, muted=muted)
        else:
            Mute.objects.filter(muter=muter, muted=muted).delete()


class AlreadyReported(ChatError):
    """``reporter`` reported this message before: nothing changes (issue #33)."""

    def __init__(self) -> None:
        super().__init__(_("You already reported this message."))


def report_create(*, message: Message, reporter: User) -> Report:
    """``reporter`` reports ``message`` to the admins: one they read, not theirs,
    once (a second report, from a page drawn before the first, or sent twice at
    once, raises ``AlreadyReported`` and changes nothing)."""
    if message.author_id == reporter.pk:
        raise ChatError(_("You cannot report your own message."))
    view = _view(message.game, reporter)
    if message not in view.messages:
        raise ChatError(_("There is no such message here."))
    if Report.objects.filter(message=message, reporter=reporter).exists():
        raise AlreadyReported
    try:
        with transaction.atomic():
            return Report.objects.create(message=message, reporter=reporter)
    except IntegrityError:  # the same report, sent at the same moment
        raise AlreadyReported from None


class AlreadyReportedPlayer(ChatError):
    """``reporter`` reported this player for this reason (and game) before:
    nothing changes."""

    def __init__(self) -> None:
        super().__init__(_("You already reported this player for this."))


def player_report_check(*, reporter: User, reported: User) -> None:
    """Raise ``ChatError`` unless ``reporter`` may report ``reported`` at all:
    another person (a block, either way, does not stop a report)."""
    if reporter.pk == reported.pk:
        raise ChatError(_("You cannot report yourself."))
    if reported.is_computer:
        raise ChatError(_("A computer player cannot be reported."))
    if not reported.is_active:
        raise ChatError(_("There is no such player."))


def player_report_create(
    *,
    reporter: User,
    reported: User,
    reason: str,
    game: Game | None = None,
    details: str = "",
) -> PlayerReport:
    """``reporter`` reports ``reported`` to the moderators (docs/together.md,
    "Report a player"): for engine help in ``game`` (required), abuse, or
    another reason (``details`` required); ``game``, when named, one the two
    played together. Once for each reason and game (a second report raises
    ``AlreadyReportedPlayer`` and changes nothing), at most
    ``PLAYER_REPORTS_PER_DAY`` a day. ``reported`` is not told."""
    player_report_check(reporter=reporter, reported=reported)
    details = details.strip()
    if reason not in PlayerReport.Reason.values:
        raise ChatError(_("Choose a reason."))
    if len(details) > MAX_DETAILS:
        raise ChatError(
            ngettext(
                "Say it in at most %(count)d character.",
                "Say it in at most %(count)d characters.",
                MAX_DETAILS,
            )
            % {"count": MAX_DETAILS}
        )
    if reason == PlayerReport.Reason.ENGINE_HELP and game is None:
        raise ChatError(_("Choose the game where you think they had engine help."))
    if reason == PlayerReport.Reason.OTHER and not details:
        raise ChatError(_("Say what happened."))
    if (
        game is not None
        and not selectors.shared_games(user=reporter, other=reported)
        .filter(pk=game.pk)
        .exists()
    ):
        raise ChatError(_("That is not a game you played with this player."))
    same = PlayerReport.objects.filter(
        reporter=reporter, reported=reported, reason=reason, game=game
    )
    if same.exists():
        raise AlreadyReportedPlayer
    if selectors.player_reports_since(reporter=reporter) >= PLAYER_REPORTS_PER_DAY:
        raise ChatError(
            ngettext(
                "You can send at most %(count)d report a day: try again tomorrow.",
                "You can send at most %(count)d reports a day: try again tomorrow.",
                PLAYER_REPORTS_PER_DAY,
            )
            % {"count": PLAYER_REPORTS_PER_DAY}
        )
    try:
        with transaction.atomic():
            return PlayerReport.objects.create(
                reporter=reporter,
                reported=reported,
                reason=reason,
                game=game,
                details=details,
                created_at=clock.now(),
            )
    except IntegrityError:  # the same report, sent at the same moment
        raise AlreadyReportedPlayer from None
