from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("settings/", views.settings_view, name="settings"),
    path("players/<str:username>/", views.profile, name="profile"),
    # login, logout, password_change, password_reset...: contrib.auth's views.
    path("", include("django.contrib.auth.urls")),
]
