"""Top-level URLs: the games app at the root, accounts under /accounts/."""

from django.contrib import admin
from django.urls import include, path

from games import rules_views

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("rules/<str:family>/", rules_views.rules, name="rules"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
