from django.urls import path

from accounts import converters as _usernames  # noqa: F401  <username:...>
from games import converters  # noqa: F401  registers <game_id:...>

from . import report_views, views

app_name = "chat"

urlpatterns = [
    path("games/<game_id:pk>/chat/", views.chat_panel, name="panel"),
    path("games/<game_id:pk>/chat/write/", views.chat_post, name="post"),
    path("games/<game_id:pk>/chat/switch/", views.chat_switch, name="switch"),
    path("games/<game_id:pk>/chat/mute/", views.chat_mute, name="mute"),
    path("games/<game_id:pk>/chat/report/", views.chat_report, name="report"),
    # Beside the profile (azulsite/urls.py: accounts/players/<name>/).
    path(
        "accounts/players/<username:username>/report/",
        report_views.player_report,
        name="player_report",
    ),
]
