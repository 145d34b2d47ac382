"""A computer's turn lost with a killed worker is played within seconds (issue
#33 item 2: the deadline job found it 60–120 s later).

The computer's task claims the turn when it starts (``Game.computer_turn_since``,
its lease); between the deadline loop's minute passes, a check every
``COMPUTER_CHECK_SECONDS`` hands to the queue again a turn queued or claimed
more than ``COMPUTER_LEASE_SECONDS`` ago whose task is not waiting in the queue
(``tasks.process_computer_turns``). The loop runs here on the site's clock
(``games.clock``), its waits moving it, so what the job does at each moment is
asserted, not how fast anything runs. ``tests/scale/test_computer_worker.py``
kills a real worker process.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

import games.clock
from accounts.models import User
from games import jobs, selectors, services, tasks
from games.engine import bots
from games.models import Game, Move

from .helpers import decide_every_move, move_event

pytestmark = pytest.mark.django_db(transaction=True)  # the worker's transactions

COMPUTER_MOVE = "games.tasks.computer_move"


class Killed(BaseException):
    """The worker process dies (SIGKILL) in the middle of the decision."""


class Loop:
    """``jobs.run_forever``'s stop event, whose waits move the site's clock;
    it stops the loop at ``until``. Notes what the loop ran, and when."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start: datetime) -> None:
        self.now = start
        self.until = start
        self.ran: list[tuple[float, str, int]] = []
        monkeypatch.setattr(games.clock, "now", lambda: self.now)
        check, full = jobs.run_computer_check, jobs.run_once

        def noted_check() -> int:
            queued = check()
            self.ran.append((self._at(), "check", queued))
            return queued

        def noted_pass() -> jobs.Report | None:
            report = full()
            queued = report.computer_turns if report else -1
            self.ran.append((self._at(), "pass", queued))
            return report

        monkeypatch.setattr(jobs, "run_computer_check", noted_check)
        monkeypatch.setattr(jobs, "run_once", noted_pass)
        self.start = start

    def _at(self) -> float:
        return (self.now - self.start).total_seconds()

    def run(self, seconds: float, interval: float = 60) -> None:
        self.until = self.now + timedelta(seconds=seconds)
        jobs.run_forever(interval, stop=self)  # type: ignore[arg-type]

    def is_set(self) -> bool:
        return self.now >= self.until

    def wait(self, seconds: float) -> bool:
        self.now += timedelta(seconds=seconds)
        return self.is_set()


@pytest.fixture(autouse=True)
def _figures(settings):
    settings.COMPUTER_LEASE_SECONDS = 15
    settings.COMPUTER_CHECK_SECONDS = 5
    settings.COMPUTER_RETRY_SECONDS = 60


def _computers_turn(user: User) -> Game:
    """A game of ``user`` against the easy level at the computer's turn, its
    task queued."""
    game = services.game_create(
        creator=user,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
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


@pytest.fixture
def ana(make_user):
    ana = make_user("ana", email="")  # no e-mail: the job has nothing else to do
    decide_every_move([ana])
    return ana


def _killed_mid_decision(game: Game, monkeypatch: pytest.MonkeyPatch) -> datetime:
    """A worker takes the turn's task and dies inside the decision: the task
    claimed the turn first (its lease), the backend left it RUNNING. The
    moment of the claim."""
    task = DBTaskResult.objects.get(task_path=COMPUTER_MOVE, status="READY")
    task.claim("worker-1")  # as db_worker does before it runs it
    claimed_at = timezone.now()
    monkeypatch.setattr(games.clock, "now", lambda: claimed_at)

    def dies(*args, **kwargs):
        raise Killed

    with monkeypatch.context() as inside:
        inside.setattr(bots, "choose", dies)
        with pytest.raises(Killed):
            tasks.computer_move.call(*task.args_kwargs["args"])
    assert Game.objects.get(pk=game.pk).computer_turn_since == claimed_at
    return claimed_at


def test_a_turn_lost_with_a_killed_worker_is_played_within_seconds(ana, monkeypatch):
    game = _computers_turn(ana)
    ply = game.ply
    claimed_at = _killed_mid_decision(game, monkeypatch)

    # The deadline loop's minute pass runs a second after the kill; its checks
    # follow every 5 s. The lease runs out 15 s after the claim: the first
    # check after it (16 s) queues the turn again, once.
    loop = Loop(monkeypatch, claimed_at + timedelta(seconds=1))
    loop.run(seconds=30)
    assert loop.ran == [
        (0, "pass", 0),
        (5, "check", 0),
        (10, "check", 0),
        (15, "check", 1),  # 16 s after the claim
        (20, "check", 0),
        (25, "check", 0),
    ]
    ready = DBTaskResult.objects.filter(task_path=COMPUTER_MOVE, status="READY")
    assert [t.args_kwargs["args"] for t in ready] == [[game.pk, ply]]

    # A worker plays it: the move is made once; the dead worker's task stays
    # RUNNING (the database backend never runs it again).
    tasks.run_ready_tasks([tasks.COMPUTER_QUEUE])
    game = selectors.game_get(game_id=game.pk)
    assert game.ply > ply
    move = Move.objects.get(game=game, ply=ply)
    assert move.user.computer_level == "easy" and move.event["seat"] == 1
    results = DBTaskResult.objects.filter(task_path=COMPUTER_MOVE)
    assert sorted(results.values_list("status", flat=True)) == [
        "RUNNING",
        "SUCCESSFUL",
    ]


def test_without_the_checks_the_minute_pass_alone_finds_it(ana, monkeypatch, settings):
    """Checks off (``COMPUTER_CHECK_SECONDS`` = 0): the loop runs its minute
    passes only, and the turn waits for the next one (issue #33's 60–120 s,
    now at most a minute)."""
    settings.COMPUTER_CHECK_SECONDS = 0
    game = _computers_turn(ana)
    claimed_at = _killed_mid_decision(game, monkeypatch)
    loop = Loop(monkeypatch, claimed_at + timedelta(seconds=1))
    loop.run(seconds=120)
    assert loop.ran == [(0, "pass", 0), (60, "pass", 1)]


def test_a_turn_whose_task_was_never_stored_is_queued_again_after_the_lease(
    ana, monkeypatch
):
    game = _computers_turn(ana)
    DBTaskResult.objects.filter(task_path=COMPUTER_MOVE).delete()  # lost
    since = Game.objects.get(pk=game.pk).computer_turn_since
    assert since is not None
    loop = Loop(monkeypatch, since + timedelta(seconds=2))
    loop.run(seconds=20)
    assert [queued for _, what, queued in loop.ran if what == "check"] == [0, 0, 1]
    assert loop.ran[-1][0] == 15  # 17 s after the turn was queued


def test_a_turn_waiting_its_turn_in_a_long_queue_is_left_there(ana, monkeypatch):
    """Its task is waiting in the queue: no duplicate, however long it waits
    (the fair order serves it: tasks.fair_priority)."""
    game = _computers_turn(ana)
    since = Game.objects.get(pk=game.pk).computer_turn_since
    assert since is not None
    later = since + timedelta(minutes=10)
    monkeypatch.setattr(games.clock, "now", lambda: later)
    assert tasks.process_computer_turns() == 0
    assert DBTaskResult.objects.filter(task_path=COMPUTER_MOVE).count() == 1


def test_where_the_queue_cannot_be_read_a_turn_waits_the_retry_time(ana, monkeypatch):
    """RQ (``TASKS_BACKEND=rq``): nothing tells a waiting task from a lost one,
    so the minute rule stands, ``COMPUTER_RETRY_SECONDS``."""
    game = _computers_turn(ana)
    monkeypatch.setattr(tasks, "_turns_in_queue", lambda: None)
    since = Game.objects.get(pk=game.pk).computer_turn_since
    assert since is not None
    for seconds, queued in [(59, 0), (61, 1)]:
        at = since + timedelta(seconds=seconds)
        monkeypatch.setattr(games.clock, "now", lambda at=at: at)
        assert tasks.process_computer_turns() == queued


def test_the_loops_pauses_cut_the_interval_into_checks(settings):
    settings.COMPUTER_CHECK_SECONDS = 5
    assert jobs.checks_between(60) == [5] * 12
    assert jobs.checks_between(12) == [5, 5, 2]
    assert jobs.checks_between(5) == [5]
    settings.COMPUTER_CHECK_SECONDS = 0
    assert jobs.checks_between(60) == [60]
