from django.urls import path

from games import (
    converters,  # noqa: F401  registers <game_id:...>
    views,
)
from games.history import history_views
from games.lobby import link_views
from games.people import watch_views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("games/your-move/", views.turn_badge, name="turn_badge"),
    path("games/new/", views.game_new, name="new"),
    path("games/play-computer/", views.game_play_computer, name="play_computer"),
    path("games/<game_id:pk>/", views.game_detail, name="detail"),
    path("games/<game_id:pk>/move/", views.game_move, name="move"),
    path("games/<game_id:pk>/join/", views.game_join, name="join"),
    path("games/<game_id:pk>/accept/", views.game_accept, name="accept"),
    path("games/<game_id:pk>/decline/", views.game_decline, name="decline"),
    path("games/<game_id:pk>/cancel/", views.game_cancel, name="cancel"),
    path("games/<game_id:pk>/rematch/", views.game_rematch, name="rematch"),
    path("games/<game_id:pk>/resign/", views.game_resign, name="resign"),
    path("games/<game_id:pk>/record.json", views.game_record, name="record"),
    path("join/<str:token>/", link_views.invite_link, name="link"),
    path("games/<game_id:pk>/replay/", history_views.game_replay, name="replay"),
    path("games/<game_id:pk>/retry/", history_views.game_retry, name="retry"),
    path(
        "games/<game_id:pk>/review/",
        history_views.game_review_ask,
        name="review_ask",
    ),
    path("games/archive/", history_views.game_archive, name="archive"),
    path("games/watch/", watch_views.game_watch, name="watch"),
    path("games/import/", history_views.game_import, name="import"),
    path("leaderboard/<str:family>/", history_views.leaderboard, name="leaderboard"),
    path(
        "leaderboard/<str:family>/high-scores/",
        history_views.high_scores,
        name="high_scores",
    ),
]
