"""Sign-up and player profiles; log in/out and passwords are contrib.auth's views."""

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games import selectors

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


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "active_games": selectors.game_list_for_player(user=player, finished=False),
            "finished_games": selectors.game_list_for_player(
                user=player, finished=True
            ),
        },
    )
