"""The leagues' part of pages other apps draw: a player's seasons on their
profile (``leagues/_profile_seasons.html``, which the profile includes from
``settings.PROFILE_SECTIONS``: the games app draws the profile and knows
nothing of leagues)."""

from __future__ import annotations

from django import template
from django.db.models import QuerySet

from accounts.models import User
from leagues import selectors
from leagues.models import Entry

register = template.Library()


@register.simple_tag
def player_seasons(player: User) -> QuerySet[Entry]:
    """``player``'s seasons, newest first, with division and place."""
    return selectors.seasons_of(user=player)
