"""Sign-up and player profiles; log in/out and passwords are contrib.auth's views."""

from typing import Any

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from games import selectors
from games.charts import rating_chart_svg
from games.models import Family

from .forms import SignUpForm
from .models import User


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("games:home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("games:home")
    else:
        form = SignUpForm()
    return render(request, "accounts/signup.html", {"form": form})


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
                "chart": rating_chart_svg(
                    [change.ordinal for change in history],
                    title=_("Rating history: %(game)s") % {"game": label},
                    chart_id=f"chart-{family}",
                ),
            }
        )
    return summaries


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "families": _family_summaries(player),
            "active_games": selectors.game_list_for_player(user=player, finished=False),
            "finished_games": selectors.game_list_for_player(
                user=player, finished=True
            )[:20],
        },
    )
