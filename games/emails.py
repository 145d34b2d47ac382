"""E-mails about games: "your move", deadline reminders, the daily digest, an
invitation, a game that started and one that finished, a vacation day spent.

Rendered from templates (``templates/games/email/``) in the recipient's language
(``user.language``, else the site's default) and time zone (``user.time_zone``:
every time in them is shown in it, the zone named — ``{{ when|zoned }}``). Links
are absolute, on the site's address (``azulsite.site_url``: ``SITE_URL``, else
the address its requests came to). The push messages of ``notify`` take their
titles from the same subject templates (:func:`render_subject`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from accounts.timezones import zone_of
from azulsite.site_url import site_url
from games.models import Game, Seat


def _absolute(path: str) -> str:
    return site_url() + path


@contextmanager
def for_recipient(user: User) -> Iterator[None]:
    """Render in ``user``'s language and time zone."""
    language = getattr(user, "language", "") or settings.LANGUAGE_CODE
    with translation.override(language), zone_of(user):
        yield


def render_subject(user: User, template: str, context: dict[str, Any]) -> str:
    """The one-line subject of e-mail ``template`` for ``user`` (call it inside
    :func:`for_recipient`)."""
    subject = render_to_string(
        f"games/email/{template}_subject.txt", {**context, "user": user}
    )
    return " ".join(subject.split())


def _send(user: User, template: str, context: dict[str, Any]) -> None:
    with for_recipient(user):
        context = {
            **context,
            "user": user,
            "settings_url": _absolute(reverse("settings")),
        }
        subject = render_subject(user, template, context)
        body = render_to_string(f"games/email/{template}_body.txt", context)
    send_mail(
        subject,
        body.strip() + "\n",
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
    )


def game_path(game: Game) -> str:
    return reverse("games:detail", kwargs={"pk": game.pk})


def _game_url(game: Game) -> str:
    return _absolute(game_path(game))


def send_turn(*, user: User, game: Game) -> None:
    _send(user, "turn", {"game": game, "url": _game_url(game)})


def send_reminder(*, user: User, game: Game, hours: int = 24) -> None:
    """The reminder chosen ``hours`` before the deadline (24, 2 or 1)."""
    _send(user, "reminder", {"game": game, "hours": hours, "url": _game_url(game)})


def send_vacation_day(
    *, user: User, game: Game, until: datetime, days_left: int
) -> None:
    """``user``'s bank ran out in ``game`` and a vacation day was spent: their
    clocks stop until ``until``; ``days_left`` this year (docs/clock.md)."""
    _send(
        user,
        "vacation",
        {"game": game, "until": until, "days_left": days_left, "url": _game_url(game)},
    )


def send_digest(*, user: User, games: Sequence[Game]) -> None:
    items = [{"game": game, "url": _game_url(game)} for game in games]
    _send(user, "digest", {"games": games, "items": items})


def send_invited(*, user: User, game: Game) -> None:
    _send(
        user,
        "invited",
        {"game": game, "creator": game.creator.username, "url": _game_url(game)},
    )


def send_started(*, user: User, game: Game) -> None:
    _send(user, "started", {"game": game, "url": _game_url(game)})


def final_seats(game: Game) -> list[Seat]:
    """A finished game's seats by rank, their users read."""
    return list(game.seats.select_related("user").order_by("rank", "number"))


def review_path(game: Game) -> str:
    """The replay's Review tab of finished ``game`` (docs/review.md)."""
    return reverse("games:replay", kwargs={"pk": game.pk}) + "?tab=review"


def send_finished(*, user: User, game: Game) -> None:
    """The game is over: its final standings, its page and its review."""
    _send(
        user,
        "finished",
        {
            "game": game,
            "seats": final_seats(game),
            "url": _game_url(game),
            "review_url": _absolute(review_path(game)),
        },
    )


def send_chat(*, user: User, game: Game, author: str, text: object) -> None:
    """``author`` wrote ``text`` in ``game`` (a quick phrase is a lazy text,
    read here in ``user``'s language)."""
    _send(
        user,
        "chat",
        {"game": game, "author": author, "text": text, "url": _game_url(game)},
    )
