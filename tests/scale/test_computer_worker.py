"""A computer's move from a real worker process reaches the open page (issue #16).

Live processes on the test database (``servers.py``): Daphne, a page's socket on
it, and the task worker — ``manage.py db_worker`` as ``deploy/supervisord.conf``
runs it (Redis carries its doorbell), or the loop inside Daphne that the README's
run command starts (in-memory layer). The person's move is played here, through
the move service; its commit queues the computer's task. Then a worker killed
with SIGKILL in the middle of a decision: the deadline loop's check queues the
turn again once its lease ran out (``COMPUTER_LEASE_SECONDS`` after the task
claimed it) and the next worker makes the move, once.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django_tasks_db.models import DBTaskResult

import games.clock
from accounts.services import computer_player
from games import jobs, selectors, services, tasks
from games.models import Game, Move
from tests.games.helpers import move_event

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)

QUICK = "0.2"  # the strong level's budget in the workers here, in seconds
QUEUES = ["default", "notify"]  # computer moves; notifications (settings.TASK_QUEUES)


def _move_tasks() -> Any:
    """The computer's move tasks (the notifications queue tasks of their own)."""
    return DBTaskResult.objects.filter(task_path="games.tasks.computer_move")


@pytest.fixture
def game(make_user):
    ana = make_user("ana", email="")  # no e-mail: the job has nothing else to do
    ana.play_forced = False
    ana.save(update_fields=["play_forced"])
    return services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=True,
        computers={1: "strong"},
    )


def _wait_until(condition: Callable[[], bool], timeout: float = 60) -> None:
    """Poll ``condition`` (the database, here) until it holds; fail after
    ``timeout`` seconds (a bound for a hung test, not a timed assertion)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("gave up waiting")
        time.sleep(0.05)


def _read(game: Game) -> Game:
    return selectors.game_get(game_id=game.pk)


def _persons_move(game: Game) -> int:
    """Play the person's first legal decision; the ply the computer is to move at."""
    game = _read(game)
    assert game.seat_to_move == 0
    engine = selectors.game_engine(game)
    services.game_play_move(
        game_id=game.pk,
        user=game.seats.all()[0].user,
        move=move_event(engine.legal_moves()[0]),
        expected_ply=game.ply,
    )
    game = _read(game)
    assert game.seat_to_move == 1  # a two-player game: the computer's turn
    return game.ply


def _assert_the_computer_moved_at(game: Game, ply: int) -> None:
    game = _read(game)
    strong = computer_player(level="strong")
    move = Move.objects.get(game=game, ply=ply)
    assert move.user == strong and move.event["seat"] == 1
    assert not move.auto and not move.forced
    # The Move rows are the record: they replay to the game's cached events.
    rows = list(Move.objects.filter(game=game).order_by("ply"))
    assert [m.ply for m in rows] == list(range(game.ply))
    assert [m.event for m in rows] == selectors.game_engine(game).events()


def _computers_move_rings_the_page(
    page: servers.Page, game: Game, *, database_queue: bool = True
) -> None:
    hello = page.next(timeout=10)
    assert hello.first and hello.data["type"] == "game"
    if _read(game).seat_to_move == 1:  # the computer began: wait for its move
        page.wait_for(lambda m: m.data.get("ply", 0) > game.ply, timeout=60)
        _wait_until(lambda: _read(game).seat_to_move == 0)
    ply = _persons_move(game)
    # The page hears the computer's move (the person's own was rung in this
    # test process, whose in-memory layer reaches no page).
    doorbell = page.wait_for(lambda m: m.data.get("ply", 0) > ply, timeout=60)
    assert not doorbell.first
    current = _read(game)
    assert doorbell.data == {"type": "game", "ply": current.ply, "status": "active"}
    assert current.seat_to_move == 0
    _assert_the_computer_moved_at(game, ply)
    if not database_queue:
        return
    results = _move_tasks()
    # The page rings from inside the task; its worker marks it done just after.
    _wait_until(lambda: not results.filter(status="RUNNING").exists())
    assert results.exists()
    assert {(r.status, r.return_value) for r in results} == {("SUCCESSFUL", "played")}


def test_a_worker_process_plays_the_computer_and_rings_the_page_through_redis(game):
    servers.require_redis()
    env = servers.server_env(redis=True, COMPUTER_STRONG_SECONDS=QUICK)
    with (
        servers.daphne(env) as server,
        servers.task_worker(env) as worker,
        servers.Page(server.port, f"/ws/games/{game.pk}/") as page,
    ):
        _computers_move_rings_the_page(page, game)
    assert servers.errors_in(server.stderr()) == []
    assert servers.errors_in(worker.stderr()) == []


@pytest.fixture
def rq_queue(settings):
    """This process queues its tasks on Redis with RQ, as TASKS_BACKEND=rq does
    (before the game is made: its first computer turn may be queued at once)."""
    servers.require_redis()
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": QUEUES}
    }
    settings.RQ_QUEUES = {name: {"URL": servers.REDIS_URL} for name in QUEUES}


def test_an_rq_worker_plays_the_computer_and_rings_the_page(rq_queue, game):
    env = servers.server_env(redis=True, COMPUTER_STRONG_SECONDS=QUICK)
    with (
        servers.daphne(env) as server,
        servers.rq_worker(env) as worker,
        servers.Page(server.port, f"/ws/games/{game.pk}/") as page,
    ):
        _computers_move_rings_the_page(page, game, database_queue=False)
    assert not DBTaskResult.objects.exists()  # nothing went through the database
    assert servers.errors_in(server.stderr()) == []
    assert servers.errors_in(worker.stderr()) == []


def test_the_worker_inside_the_server_rings_the_page_in_memory(game):
    env = servers.server_env(
        redis=False, TASK_WORKER_IN_SERVER="true", COMPUTER_STRONG_SECONDS=QUICK
    )
    with (
        servers.daphne(env) as server,
        servers.Page(server.port, f"/ws/games/{game.pk}/") as page,
    ):
        _computers_move_rings_the_page(page, game)
    assert servers.errors_in(server.stderr()) == []


def _claimed_by_the_running_task(game) -> bool:
    running = _move_tasks().filter(status="RUNNING").first()
    if running is None:
        return False
    since = _read(game).computer_turn_since
    return since is not None and since >= running.enqueued_at


def test_a_worker_killed_mid_decision_loses_nothing_and_the_move_is_made_once(
    game, monkeypatch, settings
):
    # The person moves first, or the computer begins (its task is queued). The
    # notifications' own tasks (notify.tasks) are left out of the counts.
    ply = _persons_move(game) if _read(game).seat_to_move == 0 else _read(game).ply
    assert _move_tasks().filter(status="READY").count() == 1

    # A decision that would take ten minutes: the worker is killed inside it.
    slow = servers.server_env(redis=False, COMPUTER_STRONG_SECONDS="600")
    with servers.task_worker(slow) as worker:
        # Killed once the task has claimed the turn (its first write): killed
        # between "running" and that write, there would be no lease to test.
        _wait_until(lambda: _claimed_by_the_running_task(game))
        worker.process.send_signal(signal.SIGKILL)
        worker.process.wait(timeout=10)
    assert worker.process.returncode == -signal.SIGKILL
    game_now = _read(game)
    assert game_now.ply == ply and game_now.seat_to_move == 1
    orphan = _move_tasks().get()
    assert orphan.status == "RUNNING"  # the database backend never runs it again
    # The task claimed the turn when it started: its lease runs from then.
    claimed = game_now.computer_turn_since
    assert claimed is not None and claimed >= orphan.enqueued_at

    # The deadline loop's check (every COMPUTER_CHECK_SECONDS) queues the turn
    # again once the lease ran out (issue #33: seconds, not 60–120 s); a
    # duplicate of it is harmless.
    settings.COMPUTER_LEASE_SECONDS = 15
    for seconds, queued in [(14, 0), (16, 1), (16, 0)]:  # then claimed: once
        at = claimed + timedelta(seconds=seconds)
        monkeypatch.setattr(games.clock, "now", lambda at=at: at)
        assert jobs.run_computer_check() == queued
    tasks.computer_move.enqueue(game.pk, ply)

    with servers.task_worker(
        servers.server_env(redis=False, COMPUTER_STRONG_SECONDS=QUICK)
    ) as worker:
        _wait_until(
            lambda: (
                not _move_tasks().filter(status__in=["READY"]).exists()
                and _read(game).ply > ply
            )
        )
        _wait_until(lambda: _move_tasks().filter(status="SUCCESSFUL").count() == 2)
    assert servers.errors_in(worker.stderr()) == []

    _assert_the_computer_moved_at(game, ply)
    assert Move.objects.filter(game=game, ply=ply).count() == 1
    returned = sorted(
        _move_tasks().exclude(pk=orphan.pk).values_list("return_value", flat=True)
    )
    assert returned == ["played", "stale"]  # the move made once; the duplicate
    assert _read(game).computer_turn_since is None
