from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = _("API")

    def ready(self) -> None:
        from api import receivers

        receivers.connect()  # games.signals → each account's event log
