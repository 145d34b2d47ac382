"""A league season's notices (issue #38 item 7): each player placed in a group
hears once when the season starts (their division, group and number of games)
and once when it ends (their place, and whether they go up or down a
division), by e-mail or push as they chose for a game that starts
(``User.notify_game``) and one that finished (``User.notify_finished``), in
their own language. Never one message per game: the leagues create a season's
games quietly (``leagues.services.season_start``) and announce the season once
(``leagues.signals``).

The texts are templates: ``notify/email/season_*_subject.txt`` and
``_body.txt`` (the e-mail; its subject is also the push's title) and
``notify/push/season_*.txt`` (the push's line). A click opens the group's page.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import User
from azulsite.site_url import site_url
from games import emails, selectors
from leagues.models import Entry, LeagueGame, Season

from .models import PushSubscription
from .services import Sent, channels, push_each

logger = logging.getLogger(__name__)

PUSH_TTL = 3 * 86400
"""How long a push service keeps a season's notice for a browser that is off."""


def key(season: Season) -> str:
    """The claim's key of ``season``'s notices (``Notice`` with no game)."""
    return f"season:{season.pk}"


def group_path(group_id: int) -> str:
    """The page of league group ``group_id``: its games and table."""
    return reverse("leagues:group", kwargs={"pk": group_id})


@dataclass
class Texts:
    subject: str
    body: str
    line: str


def _texts(user: User, template: str, context: dict[str, Any]) -> Texts:
    """Notice ``template`` in ``user``'s language and time zone."""
    with emails.for_recipient(user):
        context = {
            **context,
            "user": user,
            "settings_url": site_url() + reverse("settings"),
        }
        subject = render_to_string(f"notify/email/{template}_subject.txt", context)
        body = render_to_string(f"notify/email/{template}_body.txt", context)
        line = render_to_string(f"notify/push/{template}.txt", context)
    return Texts(" ".join(subject.split()), body.strip() + "\n", " ".join(line.split()))


def _tell(user: User, kind: str, context: dict[str, Any], *, path: str) -> Sent:
    """Send notice ``kind`` to ``user`` as they chose (``services.channels``),
    its link opening ``path``."""
    by_email, by_push = channels(user, kind)
    sent = Sent()
    if not (by_email or by_push):
        return sent
    texts = _texts(user, kind, {**context, "url": site_url() + path})
    if by_email:
        try:
            send_mail(
                texts.subject, texts.body, settings.DEFAULT_FROM_EMAIL, [user.email]
            )
            sent.emails += 1
        except Exception:
            logger.exception("could not send the %s e-mail", kind)
    if by_push:
        payload = {
            "title": texts.subject,
            "body": texts.line,
            "url": path,
            "tag": f"league-season-{context['season'].pk}",
            "kind": kind,
        }
        subscriptions = PushSubscription.objects.filter(user=user)
        sent.pushes += push_each(subscriptions, payload, ttl=PUSH_TTL)
    return sent


def notify_season_started(*, entry: Entry, season: Season) -> Sent:
    """``season`` started: ``entry``'s player plays in its group, and it is
    their move in some of its games now (the season's games tell nobody of
    their first turn: this notice does; the caller claimed it)."""
    assert entry.group is not None
    games = LeagueGame.objects.filter(group=entry.group, game__seats__user=entry.user)
    to_move = selectors.game_list_awaiting_move(user=entry.user).filter(
        league_game__group=entry.group
    )
    return _tell(
        entry.user,
        "season_started",
        {
            "season": season,
            "group": entry.group,
            "games": games.count(),
            "to_move": to_move.count(),
        },
        path=group_path(entry.group.pk),
    )


def notify_season_ended(*, entry: Entry, season: Season, size: int) -> Sent:
    """``season`` ended: ``entry``'s place among the ``size`` players of its
    group, up or down a division (the caller claimed the notice)."""
    assert entry.group is not None
    return _tell(
        entry.user,
        "season_ended",
        {"season": season, "group": entry.group, "entry": entry, "size": size},
        path=group_path(entry.group.pk),
    )
