"""A league season's players are told once when it starts (their division,
group and games) and once when it ends (their place, up or down a division),
by e-mail or push as they chose, in their language (issue #38 item 7); never
one message per game of the season."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import translation

from accounts.models import Channel
from games import clock, services
from games.models import Game
from leagues import signals as league_signals
from leagues.models import Entry, Group, League, LeagueGame, Season
from notify import seasons, tasks
from notify.models import Notice

pytestmark = pytest.mark.django_db

JUNE = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def season(players):
    """Season 1 of the two-player classic league, running: ana, binh and chloe
    in division 2, group 1 (each plays the two others: 2 games each, the first
    named moving first: ana in both of hers, binh in one); dae entered but was
    not placed (no group)."""
    league = League.objects.create(
        slug="classic-2", variant="classic", players=2, season_weeks=4
    )
    season = Season.objects.create(
        league=league,
        number=1,
        status=Season.Status.RUNNING,
        opens_at=JUNE - timedelta(days=14),
        starts_at=JUNE,
        ends_at=JUNE + timedelta(weeks=4),
        started_at=JUNE,
    )
    group = Group.objects.create(season=season, division=2, number=1)
    ana, binh, chloe, dae = players
    for user in (ana, binh, chloe):
        Entry.objects.create(season=season, user=user, created_at=JUNE, group=group)
    Entry.objects.create(season=season, user=dae, created_at=JUNE)
    pairs = [(ana, binh), (ana, chloe), (binh, chloe)]
    for number, pair in enumerate(pairs, start=1):
        game = services.game_start_seated(
            variant="classic",
            users=list(pair),
            first_seat=0,
            time_control=clock.DEFAULT.name,
        )
        LeagueGame.objects.create(group=group, game=game, number=number, first=pair[0])
    # the games' own notices are not this test's
    Notice.objects.all().delete()
    mail.outbox.clear()
    return season


def _ended(season: Season) -> Season:
    """``season`` over: ana first (up a division), binh second, chloe last
    (down a division)."""
    Season.objects.filter(pk=season.pk).update(
        status=Season.Status.FINISHED, ended_at=season.ends_at
    )
    for username, place, movement in (("ana", 1, -1), ("binh", 2, 0), ("chloe", 3, 1)):
        Entry.objects.filter(season=season, user__username=username).update(
            place=place, movement=movement, points=4 - place
        )
    return season


def _mail_to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


def _body(message) -> str:
    return " ".join(message.body.split())


def test_a_season_start_is_told_once_to_each_placed_player(season, players):
    ana, binh, chloe, dae = players
    group = season.groups.get()

    assert tasks.season_started.call(season.pk) == "e-mails 3, pushes 0"

    assert sorted(m.to[0] for m in mail.outbox) == [
        ana.email,
        binh.email,
        chloe.email,
    ]
    assert _mail_to(dae) == []  # entered, but in no group
    [message] = _mail_to(ana)
    assert message.subject == "Season 1 of Azul (coloured wall), 2 players has started"
    body = _body(message)
    assert body.startswith("Hello ana,")
    assert (
        "Season 1 of Azul (coloured wall), 2 players has started: you play in "
        "division 2, group 1 — 2 games. Your move now in 2 games."
    ) in body
    # the season's games told nobody of their first turn: this notice does
    assert "— 2 games. Your move now in 1 game." in _body(_mail_to(binh)[0])
    assert "— 2 games.\n" in _mail_to(chloe)[0].body  # not her move in either
    assert "Your move now" not in _body(_mail_to(chloe)[0])
    path = seasons.group_path(group.pk)  # the group's page: games, table
    assert path.startswith("/leagues/") and path.endswith(f"/{group.pk}/")
    assert f"/{path.lstrip('/')}" in body
    assert "/settings/" in body

    # run again (a second worker, a retry): nobody hears twice
    assert tasks.season_started.call(season.pk) == "e-mails 0, pushes 0"
    assert len(mail.outbox) == 3
    assert Notice.objects.filter(kind=Notice.Kind.SEASON_STARTED).count() == 3
    assert not Notice.objects.filter(game__isnull=False).exists()


def test_a_season_end_tells_each_player_their_place(season, players):
    ana, binh, chloe, dae = players
    _ended(season)

    assert tasks.season_ended.call(season.pk) == "e-mails 3, pushes 0"

    assert _mail_to(dae) == []
    [to_ana] = _mail_to(ana)
    assert to_ana.subject == "Season 1 of Azul (coloured wall), 2 players has ended"
    assert (
        "Season 1 of Azul (coloured wall), 2 players has ended: you finished 1 of 3 "
        "in division 2. You go up a division."
    ) in _body(to_ana)
    [to_binh] = _mail_to(binh)
    assert "you finished 2 of 3 in division 2." in _body(to_binh)
    assert "You go up" not in _body(to_binh) and "You go down" not in _body(to_binh)
    [to_chloe] = _mail_to(chloe)
    assert "you finished 3 of 3 in division 2. You go down a division." in _body(
        to_chloe
    )
    assert seasons.group_path(season.groups.get().pk) in _body(to_chloe)

    assert tasks.season_ended.call(season.pk) == "e-mails 0, pushes 0"
    assert len(mail.outbox) == 3


def test_the_start_and_the_end_are_told_apart(season, players):
    """The claim of the start does not keep the end untold, nor the other way."""
    tasks.season_started.call(season.pk)
    _ended(season)
    assert tasks.season_ended.call(season.pk) == "e-mails 3, pushes 0"
    assert len(mail.outbox) == 6


def test_a_season_not_in_that_state_is_stale(season):
    assert tasks.season_ended.call(season.pk) == "stale"  # still running
    _ended(season)
    assert tasks.season_started.call(season.pk) == "stale"  # over already
    assert tasks.season_started.call(season.pk + 1000) == "stale"
    assert mail.outbox == []


def test_notices_in_the_players_language(season, players):
    ana, binh, *_others = players
    binh.language = "pt-br"
    binh.save(update_fields=["language"])
    with translation.override("pt-br"):
        title = season.league.title  # the league's own words, in Portuguese

    tasks.season_started.call(season.pk)
    [started] = _mail_to(binh)
    assert started.subject == f"A temporada 1 de {title} começou"
    body = _body(started)
    assert body.startswith("Olá, binh,")
    assert (
        f"A temporada 1 de {title} começou: você joga na divisão 2, grupo 1 "
        "— 2 partidas. Sua vez agora em 1 partida."
    ) in body
    [english] = _mail_to(ana)  # each in their own language
    assert english.subject.startswith("Season 1 of ")

    _ended(season)
    tasks.season_ended.call(season.pk)
    [_started, ended] = _mail_to(binh)
    assert ended.subject == f"A temporada 1 de {title} terminou"
    assert (
        f"A temporada 1 de {title} terminou: você ficou em 2º de 3 na divisão 2."
    ) in _body(ended)


def test_the_notices_follow_the_players_choices(season, players):
    """The start as a game that starts (``notify_game``), the end as a game
    that finished (``notify_finished``); no e-mail at all on "never"."""
    ana, binh, chloe, _dae = players
    ana.notify_game = Channel.NONE
    ana.save(update_fields=["notify_game"])
    binh.notify_finished = Channel.PUSH
    binh.save(update_fields=["notify_finished"])
    chloe.email_notifications = chloe.EmailNotifications.NEVER
    chloe.save(update_fields=["email_notifications"])

    assert tasks.season_started.call(season.pk) == "e-mails 1, pushes 0"
    assert [m.to for m in mail.outbox] == [[binh.email]]
    mail.outbox.clear()
    _ended(season)
    assert tasks.season_ended.call(season.pk) == "e-mails 1, pushes 0"
    assert [m.to for m in mail.outbox] == [[ana.email]]


def test_no_message_per_game_created(season, players, start_game):
    """The season's notice is one message, however many games it has."""
    ana, binh, *_others = players
    group = season.groups.get()
    for number in (4, 5, 6):
        game = start_game([ana, binh])
        LeagueGame.objects.create(group=group, game=game, number=number, first=ana)
    mail.outbox.clear()
    tasks.season_started.call(season.pk)
    [message] = _mail_to(ana)
    assert "— 5 games." in _body(message)
    assert len(mail.outbox) == 3


def test_a_season_start_is_pushed_to_the_group_page(
    season, players, subscribe, push_service
):
    ana = players[0]
    browser = subscribe(ana)
    group = season.groups.get()

    tasks.season_started.call(season.pk)

    [message] = push_service.for_path(browser.endpoint.removeprefix(push_service.url))
    payload = browser.decrypt(message)
    assert payload == {
        "title": "Season 1 of Azul (coloured wall), 2 players has started",
        "body": "You play in division 2, group 1 — 2 games. Your move now in 2 games.",
        "url": seasons.group_path(group.pk),
        "tag": f"league-season-{season.pk}",
        "kind": "season_started",
    }
    _ended(season)
    tasks.season_ended.call(season.pk)
    payload = browser.decrypt(push_service.received[-1])
    assert payload["title"] == "Season 1 of Azul (coloured wall), 2 players has ended"
    assert payload["body"] == "You finished 1 of 3 in division 2. You go up a division."
    assert payload["url"] == seasons.group_path(group.pk)
    assert len(push_service.received) == 2


def test_the_leagues_announcements_queue_the_tasks(season):
    from django_tasks_db.models import DBTaskResult

    before = DBTaskResult.objects.count()
    league_signals.season_started.send(sender=Season, season_id=season.pk)
    league_signals.season_ended.send(sender=Season, season_id=season.pk)
    queued = [
        (r.task_path, r.args_kwargs["args"], r.queue_name)
        for r in DBTaskResult.objects.order_by("enqueued_at")[before:]
    ]
    assert queued == [
        ("notify.tasks.season_started", [season.pk], "notify"),
        ("notify.tasks.season_ended", [season.pk], "notify"),
    ]
    assert mail.outbox == []  # queued, not sent in the sender's thread


def test_a_game_notice_is_still_claimed_once_per_game(season, players):
    """The claims with no game keep the old ones' rule: one per game."""
    from notify import services

    ana = players[0]
    game = Game.objects.first()
    assert services.claim(user=ana, game=game, kind=Notice.Kind.STARTED)
    assert not services.claim(user=ana, game=game, kind=Notice.Kind.STARTED)
    other = Game.objects.exclude(pk=game.pk).first()
    assert services.claim(user=ana, game=other, kind=Notice.Kind.STARTED)
    assert services.claim(user=ana, game=None, kind=Notice.Kind.STARTED)
    assert not services.claim(user=ana, game=None, kind=Notice.Kind.STARTED)
