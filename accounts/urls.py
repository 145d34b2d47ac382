from django.contrib.auth import views as auth_views
from django.urls import include, path
from django_ratelimit.decorators import ratelimit

from . import converters, views  # noqa: F401  converters registers <username:...>
from .forms import PasswordResetForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("language/", views.language_switch, name="language_switch"),
    # The reset e-mail goes out in the account's language, not the requester's.
    # At most 3 reset e-mails an hour to one address, 10 requests from one client.
    path(
        "password_reset/",
        ratelimit(key="post:email", rate="3/h", method="POST")(
            ratelimit(key="ip", rate="10/h", method="POST")(
                auth_views.PasswordResetView.as_view(form_class=PasswordResetForm)
            )
        ),
        name="password_reset",
    ),
    path("players/<username:username>/block/", views.player_block, name="player_block"),
    path(
        "players/<username:username>/unblock/",
        views.player_unblock,
        name="player_unblock",
    ),
    path(
        "players/<username:username>/follow/",
        views.player_follow,
        name="player_follow",
    ),
    path(
        "players/<username:username>/unfollow/",
        views.player_unfollow,
        name="player_unfollow",
    ),
    path(
        "login/", auth_views.LoginView.as_view(form_class=views.LoginForm), name="login"
    ),
    # login, logout, password_change, password_reset...: contrib.auth's views.
    path("", include("django.contrib.auth.urls")),
]
