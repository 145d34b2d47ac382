# Issue #36 item 1: the hourly invitation limit counts the game side's own
# record (games.Invitation) instead of asking notify for its notices. The
# invitations told in the last hour, which the limit may still count, are
# copied there.

from datetime import timedelta

from django.db import migrations
from django.utils import timezone


def copy_told(apps, schema_editor):
    Notice = apps.get_model("notify", "Notice")
    Invitation = apps.get_model("games", "Invitation")
    since = timezone.now() - timedelta(hours=1)
    told = Notice.objects.filter(kind="invited", game__created_at__gt=since)
    Invitation.objects.bulk_create(
        [
            Invitation(game_id=game_id, user_id=user_id)
            for game_id, user_id in told.values_list("game_id", "user_id").distinct()
        ],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('notify', '0004_game_page_to_accounts'),
        ('games', '0018_invitation'),
    ]

    operations = [
        migrations.RunPython(copy_told, migrations.RunPython.noop),
    ]
