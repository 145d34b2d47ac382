"""Until ``services.py`` asks the family itself: an engine refusal in words.

The wording lives with each family (``games/classic/words.py``,
``games/pavilion/words.py``); the service should call
``family_for(game.variant).error_message(error)``.
"""

from __future__ import annotations

from games.engine.common import EngineError

from .families import family_for


def engine_error_message(error: EngineError, *, variant: str) -> str:
    """A player's wording of ``error``, raised by the engine of ``variant``."""
    return family_for(variant).error_message(error)
