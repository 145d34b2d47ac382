"""Who is around (issue #26): when each player was last seen, and whether
others may see it. Last seen starts at the last log-in."""

from django.db import migrations, models
from django.db.models import F


def last_seen_from_last_login(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.filter(last_login__isnull=False).update(last_seen_at=F("last_login"))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_follow"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="last_seen_at",
            field=models.DateTimeField(
                blank=True,
                editable=False,
                help_text="When the player last loaded a page or closed one (at "
                "most a minute late: accounts.presence).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="show_presence",
            field=models.BooleanField(
                default=True,
                help_text="Off: nobody else sees whether you are online or when "
                "you were last seen.",
                verbose_name="show others when I am online",
            ),
        ),
        migrations.RunPython(
            last_seen_from_last_login, migrations.RunPython.noop, elidable=True
        ),
    ]
