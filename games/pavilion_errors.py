"""Until ``games/engine_errors.py`` is gone: the pavilion refusals now live in
``games.pavilion.words`` (``family_for(variant).error_message(error)``)."""

from games.pavilion.words import CODES
from games.pavilion.words import error_message as pavilion_error_message

__all__ = ["CODES", "pavilion_error_message"]
