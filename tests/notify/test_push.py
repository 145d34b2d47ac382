"""Web push end to end: a move's "your move" goes from the background worker,
encrypted for the player's browser and signed with the site's VAPID key, to a
local stand-in push service, where the test decrypts it as the browser would."""

from __future__ import annotations

import pytest
from django.core import mail

from accounts.models import GamePage
from games import selectors, services
from games.people import presence
from games.tasks import run_ready_tasks
from notify import tasks
from notify.models import PushSubscription
from notify.services import notify_turn
from tests.games.helpers import move_event, move_post_data

from .conftest import verify_vapid


def _to_move(game):
    game.refresh_from_db()
    return game.seats.get(number=game.seat_to_move).user


def _waiting(game):
    game.refresh_from_db()
    return game.seats.exclude(number=game.seat_to_move).get().user


@pytest.mark.django_db(transaction=True)
def test_a_move_pushes_your_move_to_the_next_players_browser(
    players, start_game, subscribe, push_service, client_for, vapid_keys
):
    game = start_game(players[:2])
    run_ready_tasks()  # the start's own notices
    mover, waiting = _to_move(game), _waiting(game)
    browser = subscribe(waiting)
    subscribe(mover)  # the mover's own browser hears nothing of their move
    push_service.received.clear()
    mail.outbox.clear()
    engine = selectors.game_engine(game)

    response = client_for(mover).post(
        f"/games/{game.pk}/move/", move_post_data(engine.legal_moves()[0], game.ply)
    )

    assert response.status_code == 302
    # The request only queued the task: nothing was pushed inside it.
    assert push_service.received == []
    run_ready_tasks()  # the task worker (manage.py db_worker)
    [message] = push_service.received
    assert message.path == browser.endpoint.removeprefix(push_service.url)
    payload = browser.decrypt(message)
    assert payload["title"] == f"Your move in Azul game {game.pk}"
    assert payload["url"] == f"/games/{game.pk}/"
    assert payload["tag"] == f"game-{game.pk}"
    assert "Deadline:" in payload["body"] and "(UTC)" in payload["body"]
    claims = verify_vapid(message, vapid_keys[1], audience=push_service.url)
    assert claims["sub"] == "mailto:admin@azul.test"
    assert int(message.headers["ttl"]) > 0
    # The e-mail went too (both, the default), once; the job finds nothing left.
    assert [m.to for m in mail.outbox if "Your move" in m.subject] == [[waiting.email]]
    from games import jobs

    assert jobs.process_deadlines().turn_emails == 0
    assert len(push_service.received) == 1


@pytest.mark.django_db
def test_the_deadline_job_pushes_a_turn_whose_task_was_lost(
    players, start_game, subscribe, push_service
):
    """Tests run in a transaction: the start's task never ran (as if lost)."""
    from games import jobs

    game = start_game(players[:2])
    mover = _to_move(game)
    browser = subscribe(mover)
    report = jobs.process_deadlines()
    assert report.pushes == 1 and report.turn_emails == 1
    assert browser.decrypt(push_service.received[0])["url"] == f"/games/{game.pk}/"
    assert jobs.process_deadlines().pushes == 0


@pytest.mark.django_db
def test_a_gone_subscription_is_removed_and_the_settings_page_drops_it(
    players, start_game, subscribe, push_service, client_for
):
    game = start_game(players[:2])
    mover = _to_move(game)
    kept = subscribe(mover)
    subscribe(mover, "gone")
    subscribe(mover, "missing")
    page = client_for(mover).get("/accounts/settings/").content.decode()
    assert page.count("data-device=") == 3

    sent = notify_turn(user=mover, game=game)

    assert sent.pushes == 1
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        kept.endpoint
    ]
    page = client_for(mover).get("/accounts/settings/").content.decode()
    assert page.count("data-device=") == 1


@pytest.mark.django_db
def test_a_failing_push_service_keeps_the_subscription_and_the_email_goes(
    players, start_game, subscribe, push_service
):
    game = start_game(players[:2])
    mover = _to_move(game)
    subscribe(mover, "broken")
    sent = notify_turn(user=mover, game=game)
    assert (sent.emails, sent.pushes) == (1, 0)
    assert PushSubscription.objects.filter(user=mover).count() == 1


@pytest.mark.django_db
def test_no_push_about_the_game_whose_page_the_player_has_open(
    players, start_game, subscribe, push_service, monkeypatch
):
    from datetime import timedelta

    from games import clock

    game = start_game(players[:2])
    mover = _to_move(game)
    subscribe(mover)
    GamePage.objects.create(
        user=mover, game_id=game.pk, channel_name="page-1", seen_at=clock.now()
    )
    other_game = start_game([mover, players[2]])
    assert notify_turn(user=mover, game=game).pushes == 0
    # ... but the e-mail still goes, and another game still pushes
    assert len(mail.outbox) == 1
    assert notify_turn(user=mover, game=other_game).pushes == 1
    # a page whose socket stopped refreshing (a dead server) no longer counts
    later = clock.now() + presence.STALE + timedelta(seconds=1)
    monkeypatch.setattr(clock, "now", lambda: later)
    assert notify_turn(user=mover, game=game).pushes == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_game_page_socket_holds_pushes_while_open(players, start_game):
    from asgiref.sync import sync_to_async
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from games.routing import websocket_urlpatterns

    game = await sync_to_async(start_game)(players[:2])
    ana = players[0]
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns),
        f"/ws/games/{game.pk}/",
        headers=[(b"origin", b"http://127.0.0.1")],
    )
    comm.scope["user"] = ana
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_json_from()
    watching = sync_to_async(presence.watching)
    assert await watching(user_id=ana.pk, game_id=game.pk)
    assert not await watching(user_id=players[1].pk, game_id=game.pk)
    await comm.disconnect()
    assert not await watching(user_id=ana.pk, game_id=game.pk)


@pytest.mark.django_db(transaction=True)
def test_invitation_start_and_end_come_as_each_player_chose(
    players, subscribe, push_service
):
    ana, binh, chloe = players[:3]
    binh.notify_game = "email"  # e-mail only
    binh.notify_finished = "push"  # push only
    binh.save()
    chloe.notify_game = "none"
    chloe.save()
    binh_browser = subscribe(binh)
    subscribe(chloe)

    game = services.game_create(
        creator=ana,
        variant="classic",
        players=3,
        rated=False,
        invitees=[binh, chloe],
    )
    run_ready_tasks()
    invitations = [m for m in mail.outbox if "invited you" in m.subject]
    assert [m.to for m in invitations] == [[binh.email]]
    assert f"ana invited you to Azul game {game.pk}" == invitations[0].subject
    assert push_service.received == []  # binh: e-mail only; chloe: nothing

    services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
    services.game_invitation_respond(game_id=game.pk, user=chloe, accept=True)
    run_ready_tasks()
    game.refresh_from_db()
    started = [m for m in mail.outbox if "has started" in m.subject]
    # chloe's acceptance started it: she hears nothing of that; nor does the
    # player to move, whose "your move" says it; the other one by e-mail.
    first = _to_move(game)
    expected = sorted(u.email for u in (ana, binh) if u != first)
    assert sorted(m.to[0] for m in started) == expected

    mail.outbox.clear()
    push_service.received.clear()
    services.game_resign(game_id=game.pk, user=ana)
    services.game_resign(game_id=game.pk, user=chloe)
    run_ready_tasks()
    game.refresh_from_db()
    assert game.status == "finished"
    over = [m for m in mail.outbox if "is over" in m.subject]
    assert sorted(m.to[0] for m in over) == [ana.email, chloe.email]  # binh: push
    [message] = [
        r
        for r in push_service.received
        if r.path == binh_browser.endpoint.removeprefix(push_service.url)
    ]
    payload = binh_browser.decrypt(message)
    assert payload["title"] == f"Azul game {game.pk} is over"
    assert payload["url"] == f"/games/{game.pk}/replay/?tab=review"  # its review
    assert "You finished 1 of 3" in payload["body"]


@pytest.mark.django_db
def test_computer_players_get_no_notifications(players, push_service):
    from accounts.services import computer_player

    robot = computer_player(level="easy")
    PushSubscription.objects.create(
        user=robot, endpoint=f"{push_service.url}/push/robot", p256dh="x", auth="y"
    )
    game = services.game_create(
        creator=players[0],
        variant="classic",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
    assert tasks.game_finished.call(game.pk) == "stale"
    sent = notify_turn(user=robot, game=game)
    assert (sent.emails, sent.pushes) == (0, 0)
    assert push_service.received == []


@pytest.mark.django_db
def test_a_push_is_written_in_the_players_language_and_time_zone(
    players, start_game, subscribe, push_service
):
    from zoneinfo import ZoneInfo

    from django.utils import formats, translation

    game = start_game(players[:2])
    mover = _to_move(game)
    mover.time_zone = "Asia/Ho_Chi_Minh"
    mover.language = "vi"
    mover.save()
    browser = subscribe(mover)
    notify_turn(user=mover, game=game)
    payload = browser.decrypt(push_service.received[0])
    local = game.turn_deadline.astimezone(ZoneInfo("Asia/Ho_Chi_Minh"))
    with translation.override("vi"):
        when = formats.date_format(local, "DATETIME_FORMAT")
        title = translation.gettext("Your move in Azul game %(number)s") % {
            "number": game.pk
        }
    assert f"{when} (Asia/Ho Chi Minh)" in payload["body"]
    assert payload["title"] == title


@pytest.mark.django_db
def test_a_move_by_the_service_queues_the_turn_task_after_commit(
    players, start_game, django_capture_on_commit_callbacks
):
    from django_tasks_db.models import DBTaskResult

    game = start_game(players[:2])
    mover = _to_move(game)
    move = selectors.game_engine(game).legal_moves()[0]
    before = DBTaskResult.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_play_move(
            game_id=game.pk, user=mover, move=move_event(move), expected_ply=game.ply
        )
    game.refresh_from_db()
    queued = DBTaskResult.objects.order_by("enqueued_at")[before:]
    assert [(r.task_path, r.args_kwargs["args"]) for r in queued] == [
        ("notify.tasks.turn_started", [game.pk, game.ply])
    ]
