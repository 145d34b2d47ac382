"""The leagues' background work (django-tasks): the verdict of a league game
left unfinished on its season's last day, which takes the strong computer's
playouts (seconds to minutes of CPU), made by the review queue's workers
(niced, beside the reviews: ``deploy/supervisord.conf``), before the reviews
waiting there (a higher priority). The services announce it
(``signals.verdicts_wanted``) and never import this module."""

from __future__ import annotations

import logging
from typing import Any

from django_tasks import task

from games.models import Game
from leagues import services, signals
from leagues.models import LeagueGame

logger = logging.getLogger(__name__)

REVIEW_QUEUE = "review"
VERDICT_PRIORITY = 50
"""Above the reviews' (the default, 0): a season's end is waited for."""


@task(queue_name=REVIEW_QUEUE)
def decide(game_id: int) -> str:
    """Decide league game ``game_id`` (if still unfinished) and finish its
    season if it was the last."""
    services.decide_one(game_id=game_id)
    return "decided"


def on_verdicts_wanted(*, season_id: int, **_: Any) -> None:
    unfinished = LeagueGame.objects.filter(
        group__season_id=season_id, game__status=Game.Status.ACTIVE
    ).values_list("game_id", flat=True)
    for game_id in unfinished:
        try:
            job = decide
            if job.get_backend().supports_priority:
                job = job.using(priority=VERDICT_PRIORITY)
            job.enqueue(game_id)
        except Exception:
            logger.exception("could not queue the verdict of game %s", game_id)


def connect() -> None:
    signals.verdicts_wanted.connect(on_verdicts_wanted, dispatch_uid=__name__)
