"""Ratings: the update after a rated game, and the rating-history charts."""
