"""The run command's server stops within seconds of SIGTERM, even in the middle
of a long task (issue #35 item 9): Daphne with the deadline loop and the task
worker inside it (``TASK_WORKER_IN_SERVER``, as the README's run command),
making a review that takes far longer than the test waits, is sent SIGTERM; it
exits within a few seconds, and the review it left goes back to the queue with a
task of its own, for the next worker to make."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest
from django_tasks_db.models import DBTaskResult

from games.models import GameReview

from ..games.helpers import resigned_game
from . import servers

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_the_server_exits_within_seconds_of_sigterm_in_a_long_review(
    players, start_game, settings
):
    settings.REVIEW_SECONDS = 0.02
    game = resigned_game(players, start_game)
    # Two seconds of the judge's time a decision: the review takes a minute.
    GameReview.objects.filter(game=game).update(seconds=2)
    env = servers.server_env(
        redis=False, TASK_WORKER_IN_SERVER="true", DEADLINE_LOOP_SECONDS="60"
    )
    with servers.daphne(env) as server:
        assert _wait_for(
            lambda: GameReview.objects.filter(
                game=game, status=GameReview.Status.RUNNING
            ).exists(),
            timeout=30,
        ), server.stderr()
        time.sleep(1)  # well inside the review
        server.process.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server still runs 15 s after SIGTERM:\n{server.stderr()}")
        took = time.monotonic() - sent
    assert took < 6, f"the server took {took:.1f} s to exit"
    review = GameReview.objects.get(game=game)
    assert (review.status, review.done, review.total) == ("queued", 0, 0)
    waiting = DBTaskResult.objects.ready().filter(
        task_path="games.tasks.review_game", args_kwargs__args=[review.game_id]
    )
    assert waiting.count() == 1
