"""``{{ stats|shown_rating }}``: a player's rating as players read it.

The number comes from ``games.ratings.ratings.rating_shown`` (the one conversion, its
docstring has the scale); templates only lay it out.
"""

from __future__ import annotations

from django import template

from games.models import PlayerStats
from games.ratings.ratings import ShownRating, rating_shown

register = template.Library()


@register.filter
def shown_rating(stats: PlayerStats) -> ShownRating:
    """``stats``' rating on the 1500-centred scale, and whether it is provisional."""
    return rating_shown(mu=stats.mu, sigma=stats.sigma, rated_games=stats.rated_games)
