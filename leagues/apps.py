from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        from leagues import receivers, tasks

        receivers.connect()  # games.signals → results, departures, the seasons' job
        tasks.connect()  # the last day's verdicts → the review queue
