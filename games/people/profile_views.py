"""A player's profile page: their ratings, charts and games, and the Block and
Follow buttons (``accounts.views`` blocks, unblocks, follows and unfollows).
Routed by ``azulsite/urls.py`` at ``accounts/players/<name>/``; here because it
reads the games (accounts imports nothing of games)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts.models import User
from accounts.selectors import follow_counts, follows, presence, user_blocks
from games import selectors
from games.models import Family
from games.ratings.charts import rating_chart


def _family_summaries(player: User) -> list[dict[str, Any]]:
    """Rating, chart and totals per game family the player has finished games of."""
    stats = selectors.player_stats(user=player)
    summaries = []
    for family, label in Family.choices:
        if family not in stats:
            continue
        history = selectors.rating_history(user=player, family=family)
        summaries.append(
            {
                "family": family,
                "label": label,
                "stats": stats[family],
                "chart": rating_chart(history),
            }
        )
    return summaries


def _follow_context(
    viewer: User | None, player: User, *, can_follow: bool
) -> dict[str, Any]:
    """The profile's follow part (issue #26): the counts (people only), and for
    another signed-in person the Follow / Unfollow button and whether the two
    are friends (``accounts.views.player_follow`` follows and unfollows)."""
    if player.is_computer:
        return {"follow": None}
    followers, following = follow_counts(user=player)
    followed = friends = False
    if viewer is not None and can_follow:
        followed = follows(follower=viewer, followed=player)
        friends = followed and follows(follower=player, followed=viewer)
    return {
        "follow": {
            "can": can_follow,
            "following": followed,
            "friends": friends,
            "followers": followers,
            "following_count": following,
        }
    }


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    # Another person's profile, signed in: the Block / Unblock button.
    viewer = request.user if isinstance(request.user, User) else None
    can_block = viewer is not None and viewer.pk != player.pk and not player.is_computer
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "presence": presence(users=[player], viewer=request.user),
            "can_block": can_block,
            "blocked": viewer is not None
            and can_block
            and user_blocks(blocker=viewer, blocked=player),
            **_follow_context(viewer, player, can_follow=can_block),
            "families": _family_summaries(player),
            # what other apps show of a player (leagues: their seasons)
            "profile_sections": settings.PROFILE_SECTIONS,
            "active_games": selectors.game_list_for_player(user=player, finished=False),
            "finished_games": selectors.game_list_for_player(
                user=player, finished=True
            )[:20],
        },
    )
