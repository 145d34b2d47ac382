from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "notify"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The VAPID key check registers itself; the receivers subscribe to
        # games.signals (the notification tasks).
        from . import checks, receivers  # noqa: F401

        receivers.connect()
