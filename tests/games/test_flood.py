"""One account cannot flood the computer players (issue #23, item 5).

What one account may ask of the computers is bounded (games with a computer seat
not over, and created in an hour: ``services.game_create``), the refusal is a
message on the page it was asked from, and the queue serves each account's
computer turns in turn (``games.tasks.fair_priority``), so a backlog delays
nobody else. Notifications run on their own queue (item 4): a push service that
never answers holds up no computer move in the in-server worker.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.urls import reverse
from django_tasks.signals import task_started
from django_tasks_db.models import DBTaskResult

import games.clock
import notify.tasks
from accounts.models import User
from games import jobs, selectors, services, tasks
from games.models import Game

from .helpers import decide_every_move, move_event

COMPUTER_MOVE = "games.tasks.computer_move"


@pytest.fixture(autouse=True)
def _quick_strong(settings):
    """A small node budget for the strong level: these tests check the site."""
    settings.COMPUTER_STRONG_SECONDS = 0.02


def _against_computer(user: User, level: str = "strong") -> Game:
    return services.game_create(
        creator=user,
        variant="classic",
        players=2,
        rated=False,
        computers={1: level},
    )


def _computers_turn(user: User) -> Game:
    """A new game of ``user`` against the strong level, at the computer's turn
    (its move queued): the person plays first when they begin."""
    game = _against_computer(user)
    if game.seat_to_move == 0:
        engine = selectors.game_engine(game)
        services.game_play_move(
            game_id=game.pk,
            user=user,
            move=move_event(engine.legal_moves()[0]),
            expected_ply=game.ply,
        )
    game = selectors.game_get(game_id=game.pk)
    assert game.seat_to_move == 1 and game.computer_turn_since is not None
    return game


# ------------------------------------------------------------------ limits


def test_an_account_at_its_limit_of_computer_games_is_refused_nothing_created(
    make_user, settings
):
    settings.COMPUTER_GAMES_IN_PROGRESS = 3
    ana, binh = make_user("ana"), make_user("binh")
    games = [_against_computer(ana, level) for level in ("easy", "medium", "strong")]
    with pytest.raises(services.GameActionError) as refused:
        _against_computer(ana)
    assert refused.value.code == "computer_games"
    assert refused.value.message == (
        "You already have 3 games against the computer that are not over. "
        "Finish or resign one before you start another."
    )
    assert Game.objects.count() == 3
    # An open game with a computer seat counts too; a game of people does not.
    with pytest.raises(services.GameActionError):
        services.game_create(
            creator=ana,
            variant="pavilion",
            players=3,
            rated=False,
            computers={2: "easy"},
        )
    services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        invitees=[binh],
    )
    # Another account has its own limit; a game that is over frees a place.
    _against_computer(binh)
    services.game_resign(game_id=games[0].pk, user=ana)
    assert _against_computer(ana).status == Game.Status.ACTIVE


def test_an_account_may_start_only_so_many_computer_games_an_hour(
    make_user, settings, monkeypatch
):
    settings.COMPUTER_GAMES_PER_HOUR = 2
    ana = make_user("ana")
    for _ in range(2):
        services.game_resign(game_id=_against_computer(ana).pk, user=ana)
    with pytest.raises(services.GameActionError) as refused:
        _against_computer(ana)
    assert refused.value.code == "computer_rate"
    assert refused.value.message == (
        "You can start 2 games against the computer an hour. Try again in 60 minutes."
    )
    assert Game.objects.count() == 2
    later = games.clock.now() + timedelta(minutes=59, seconds=30)
    monkeypatch.setattr(games.clock, "now", lambda: later)
    with pytest.raises(services.GameActionError) as refused:
        _against_computer(ana)
    assert refused.value.message.endswith("Try again in 1 minute.")
    in_an_hour = later + timedelta(seconds=31)
    monkeypatch.setattr(games.clock, "now", lambda: in_an_hour)
    assert _against_computer(ana).status == Game.Status.ACTIVE


def test_the_new_game_page_shows_the_refusal_and_creates_nothing(
    make_user, client_for, settings
):
    settings.COMPUTER_GAMES_IN_PROGRESS = 1
    ana = make_user("ana")
    _against_computer(ana)
    answer = client_for(ana).post(
        reverse("games:new"),
        {
            "variant": "classic",
            "players": "2",
            "time_control": "daily",
            "seat_1": "easy",
        },
    )
    assert answer.status_code == 200
    page = answer.content.decode()
    assert (
        "You already have 1 game against the computer that is not over. "
        "Finish or resign it before you start another."
    ) in page
    assert Game.objects.count() == 1


def test_play_the_computer_now_shows_the_refusal_on_the_home_page(
    make_user, client_for, settings
):
    settings.COMPUTER_GAMES_IN_PROGRESS = 1
    ana = make_user("ana")
    _against_computer(ana)
    client = client_for(ana)
    answer = client.post(
        reverse("games:play_computer"), {"level": "strong", "variant": "classic"}
    )
    assert answer.status_code == 302 and answer["Location"] == reverse("games:home")
    home = client.get(answer["Location"]).content.decode()
    assert "You already have 1 game against the computer that is not over." in home
    assert Game.objects.count() == 1


def test_the_refusal_comes_in_the_players_language(make_user, client_for, settings):
    settings.COMPUTER_GAMES_IN_PROGRESS = 1
    ana = make_user("ana", language="vi")
    _against_computer(ana)
    client = client_for(ana)
    answer = client.post(
        reverse("games:play_computer"), {"level": "strong", "variant": "classic"}
    )
    home = client.get(answer["Location"]).content.decode()
    assert "Bạn đã có 1 ván với máy chưa kết thúc." in home
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_creations_at_the_same_moment_do_not_pass_the_limit_together(
    make_user, settings
):
    settings.COMPUTER_GAMES_IN_PROGRESS = 2
    ana = make_user("ana")
    threads = 6
    barrier = threading.Barrier(threads)
    outcomes: list[str] = []

    def create() -> None:
        try:
            barrier.wait()
            _against_computer(ana)
            outcomes.append("created")
        except services.GameActionError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=create) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sorted(outcomes) == ["computer_games"] * 4 + ["created"] * 2
    assert Game.objects.filter(creator=ana).count() == 2


# ------------------------------------------------------------- fair order


def _queued_order(queue: str) -> list[int]:
    """Run the queue's ready tasks as the worker does; the games whose computer
    moves it started, in the order it started them."""
    started: list[int] = []

    def note(sender: Any, task_result: Any, **kwargs: Any) -> None:
        if task_result.task.module_path == COMPUTER_MOVE:
            started.append(task_result.args[0])

    task_started.connect(note)
    try:
        tasks.run_ready_tasks([queue])
    finally:
        task_started.disconnect(note)
    return started


@pytest.mark.django_db(transaction=True)  # the worker's own transactions
def test_one_accounts_backlog_never_delays_another_accounts_computer_turn(
    make_user,
):
    flooder, quiet = make_user("flooder"), make_user("quiet")
    decide_every_move([flooder, quiet])
    backlog = [_computers_turn(flooder).pk for _ in range(5)]
    mine = _computers_turn(quiet).pk
    assert DBTaskResult.objects.filter(task_path=COMPUTER_MOVE).count() == 6
    order = _queued_order(tasks.COMPUTER_QUEUE)
    # The quiet player's turn goes right after the flooder's first, then the
    # rest of the backlog, all of it.
    assert order == [backlog[0], mine, *backlog[1:]]
    for game in Game.objects.all():
        assert game.seat_to_move == 0 and game.computer_turn_since is None


@pytest.mark.django_db(transaction=True)
def test_the_deadline_jobs_requeue_serves_accounts_in_turn_too(
    make_user, monkeypatch, settings
):
    flooder, quiet = make_user("flooder"), make_user("quiet")
    decide_every_move([flooder, quiet])
    backlog = [_computers_turn(flooder).pk for _ in range(3)]
    mine = _computers_turn(quiet).pk
    DBTaskResult.objects.all().delete()  # the tasks were lost
    later = games.clock.now() + timedelta(seconds=settings.COMPUTER_RETRY_SECONDS + 1)
    monkeypatch.setattr(games.clock, "now", lambda: later)
    assert jobs.process_deadlines().computer_turns == 4
    priority = {
        result.args_kwargs["args"][0]: result.priority
        for result in DBTaskResult.objects.filter(task_path=COMPUTER_MOVE)
    }
    assert priority == {mine: 0, **{pk: -2 for pk in backlog}}
    assert _queued_order(tasks.COMPUTER_QUEUE)[0] == mine


# ------------------------------------------------- notifications' own queue

_push_answers = threading.Event()
"""Set when the test's stuck push service answers at last."""


def _stuck_notification(game_id: int, started_by: int | None = None) -> str:
    """A notification task whose push service does not answer."""
    _push_answers.wait(timeout=120)
    return "told late"


def _wait_until(condition: Any) -> Any:
    async def wait() -> None:
        for _ in range(1200):  # a bound for a hung test, not a timed assertion
            if await sync_to_async(condition)():
                return
            await asyncio.sleep(0.05)
        raise AssertionError("gave up waiting")

    return wait()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_notification_stuck_on_its_push_service_never_delays_a_computers_move(
    monkeypatch,
):
    _push_answers.clear()

    def at_the_computers_turn() -> tuple[int, int]:
        ana = User.objects.create_user(username="ana", email="")
        decide_every_move([ana])
        game = _against_computer(ana)
        if game.seat_to_move == 1:  # the computer began: its move first
            assert tasks.computer_move.call(game.pk, game.ply) == "played"
        DBTaskResult.objects.all().delete()
        # A notification is queued first; then the person's move queues the
        # computer's.
        notify.tasks.game_started.enqueue(game.pk, None)
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        services.game_play_move(
            game_id=game.pk,
            user=ana,
            move=move_event(engine.legal_moves()[0]),
            expected_ply=game.ply,
        )
        return game.pk, game.ply + 1

    game_id, ply = await sync_to_async(at_the_computers_turn)()
    # The worker finds the notification's task by its name: now a stuck one.
    stuck = dataclasses.replace(notify.tasks.game_started, func=_stuck_notification)
    monkeypatch.setattr(notify.tasks, "game_started", stuck)
    notification = DBTaskResult.objects.filter(task_path="notify.tasks.game_started")

    worker = asyncio.create_task(tasks.run_worker_in_server(0.05))
    try:
        await _wait_until(
            lambda: (
                Game.objects.get(pk=game_id).ply > ply
                and DBTaskResult.objects.filter(
                    task_path=COMPUTER_MOVE, status="SUCCESSFUL"
                ).exists()
            )
        )
        game = await sync_to_async(selectors.game_get)(game_id=game_id)
        assert game.seat_to_move == 0  # the computer has moved
        assert await sync_to_async(
            lambda: list(notification.values_list("status", flat=True))
        )() == ["RUNNING"]  # still waiting for its push service
        _push_answers.set()
        # Then the notifications queued behind it (the person's "your move").
        await _wait_until(
            lambda: (
                not DBTaskResult.objects.filter(
                    status__in=["READY", "RUNNING"]
                ).exists()
            )
        )
        assert await sync_to_async(
            lambda: list(notification.values_list("return_value", flat=True))
        )() == ["told late"]
    finally:
        _push_answers.set()
        worker.cancel()
        # The passes' threads end their current pass before the database goes,
        # and the test's own reads close their connection.
        await asyncio.get_running_loop().shutdown_default_executor()
        await sync_to_async(connections.close_all)()
