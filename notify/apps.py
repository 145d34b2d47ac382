from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "notify"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks  # noqa: F401  registers the VAPID key check
