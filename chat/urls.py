from django.urls import path

from games import converters  # noqa: F401  registers <game_id:...>

from . import views

app_name = "chat"

urlpatterns = [
    path("games/<game_id:pk>/chat/", views.chat_panel, name="panel"),
    path("games/<game_id:pk>/chat/write/", views.chat_post, name="post"),
    path("games/<game_id:pk>/chat/switch/", views.chat_switch, name="switch"),
    path("games/<game_id:pk>/chat/mute/", views.chat_mute, name="mute"),
    path("games/<game_id:pk>/chat/report/", views.chat_report, name="report"),
]
