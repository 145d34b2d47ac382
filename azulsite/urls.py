"""Top-level URLs: the games app at the root, accounts under /accounts/."""

from django.conf import settings
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from accounts import converters  # noqa: F401  registers <username:...>
from api import views as api_views
from games.history import rules_views
from games.people import profile_views
from notify import views as notify_views

from . import settings_page


class FaviconRedirect(RedirectView):
    """Pages name their icon (base.html); this answers what asks the old path.
    Resolved per request: the static file's stored (hashed) name."""

    permanent = True

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("favicon.svg")


# A database error of the moment raised by a middleware answers 503, as one
# raised by a view does (azulsite/unavailable.py); anything else, Django's 500.
handler500 = "azulsite.unavailable.server_error"

urlpatterns = [
    path("", include("games.urls")),
    path("", include("chat.urls")),
    path("accounts/", include("accounts.urls")),
    path("leagues/", include("leagues.urls")),
    path("api/", include("api.urls")),
    path("bots/ladder/", api_views.ladder_table, name="bot_ladder"),
    path("bots/ladder/<str:family>/", api_views.ladder_table, name="bot_ladder"),
    # Pages of accounts that read the other apps (accounts imports neither).
    path("accounts/settings/", settings_page.settings_view, name="settings"),
    path(
        "accounts/players/<username:username>/",
        profile_views.profile,
        name="profile",
    ),
    path("rules/<str:family>/", rules_views.rules, name="rules"),
    path("i18n/", include("django.conf.urls.i18n")),
    path(settings.ADMIN_URL, admin.site.urls),
    path("favicon.ico", FaviconRedirect.as_view(), name="favicon"),
    # The installable site (issue #18): at the root, so the worker's scope is "/".
    path("manifest.webmanifest", notify_views.manifest, name="manifest"),
    path("sw.js", notify_views.service_worker, name="service_worker"),
    path("offline/", notify_views.offline, name="offline"),
    path("notify/", include("notify.urls")),
]
