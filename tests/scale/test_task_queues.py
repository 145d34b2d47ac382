"""Computer moves and notifications run on queues of their own (issue #23, item 4).

Every queue the site's tasks go to has its workers in ``deploy/supervisord.conf``,
each program serving one queue; a notification worker started as that file runs
it plays no computer move (a push service that takes its time cannot delay one).
The in-server worker's own test is ``tests/games/test_flood.py``.
"""

from __future__ import annotations

import configparser
import shlex
import time

import pytest
from django.conf import settings
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult

import notify.tasks
from accounts.models import User
from games import selectors, services, tasks
from leagues import tasks as league_tasks
from tests.games.helpers import decide_every_move, move_event

from . import servers

COMPUTER_MOVE = "games.tasks.computer_move"


def _queues_served() -> dict[str, list[str]]:
    """Each db_worker program of the deploy file, and the queues it serves."""
    served = {}
    for name, options in servers.supervisord_programs().items():
        argv = shlex.split(options["command"])
        if "db_worker" in argv:
            served[name] = argv[argv.index("--queue-name") + 1].split(",")
    return served


def test_every_queue_has_workers_of_its_own_in_deploy():
    assert tasks.computer_move.queue_name == tasks.COMPUTER_QUEUE == "default"
    notices = [t for t in vars(notify.tasks).values() if isinstance(t, Task)]
    assert {t.name for t in notices} == {
        "turn_started",
        "invited",
        "game_started",
        "game_finished",
        "message_posted",
        "vacation_day_spent",  # issue #37 item 4
        "season_started",  # issue #38 item 7
        "season_ended",
    }
    assert {t.queue_name for t in notices} == {notify.tasks.NOTIFY_QUEUE}
    assert tasks.review_game.queue_name == tasks.REVIEW_QUEUE == "review"
    # a season's last-day verdicts take CPU like a review: the review workers
    assert league_tasks.decide.queue_name == tasks.REVIEW_QUEUE
    assert settings.TASK_QUEUES == [
        tasks.COMPUTER_QUEUE,
        notify.tasks.NOTIFY_QUEUE,
        tasks.REVIEW_QUEUE,
    ]
    assert tasks.task_queues() == settings.TASK_QUEUES
    served = _queues_served()
    assert served == {
        "azul-tasks": ["default"],
        "azul-notify": ["notify"],
        "azul-review": ["review"],
    }
    # The group that starts and stops the site starts them too.
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(servers.SUPERVISORD_CONF)
    assert set(served) <= set(parser["group:azul"]["programs"].split(","))


@pytest.mark.django_db(transaction=True)
def test_the_notification_worker_plays_no_computer_move():
    ana = User.objects.create_user(username="ana", email="")
    decide_every_move([ana])
    game = services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "strong"},
    )
    if game.seat_to_move == 0:
        services.game_play_move(
            game_id=game.pk,
            user=ana,
            move=move_event(selectors.game_engine(game).legal_moves()[0]),
            expected_ply=game.ply,
        )
    notify.tasks.game_started.enqueue(game.pk, None)
    notices = DBTaskResult.objects.filter(queue_name="notify")
    moves = DBTaskResult.objects.filter(task_path=COMPUTER_MOVE)
    assert moves.get().status == "READY" and notices.exists()

    command = servers.deploy_command("azul-notify") + ["--interval", "0.1"]
    env = servers.server_env(redis=False)
    with servers._child(command, env) as worker:
        deadline = time.monotonic() + 60  # a bound for a hung test
        while notices.exclude(status__in=["SUCCESSFUL", "FAILED"]).exists():
            assert time.monotonic() < deadline, worker.stderr()
            time.sleep(0.1)
    assert set(notices.values_list("status", flat=True)) == {"SUCCESSFUL"}
    assert moves.get().status == "READY"  # left for the computer's workers
    assert servers.errors_in(worker.stderr()) == []
