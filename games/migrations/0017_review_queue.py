"""The review queue's fair order (issue #33, ``games.review_queue``): each
review's kind (a game played here, served first, or an imported record), the
account it is for, and a running review's heartbeat. The reviews already there get
their kind and account from their game: an import's uploader, a played game's
creator."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

IMPORTED = 1


def fill_kind_and_account(apps, schema_editor):
    GameReview = apps.get_model("games", "GameReview")
    Game = apps.get_model("games", "Game")
    game = Game.objects.filter(pk=OuterRef("game_id"))
    GameReview.objects.update(requested_by_id=Subquery(game.values("creator_id")[:1]))
    GameReview.objects.filter(game__imported=True).update(kind=IMPORTED)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0016_game_opening'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='gamereview',
            name='heartbeat_at',
            field=models.DateTimeField(blank=True, help_text="While it is being made: the worker's last sign of life (at least every REVIEW_HEARTBEAT_SECONDS); the deadline job queues a review whose worker fell silent again (REVIEW_STALE_SECONDS).", null=True),
        ),
        migrations.AddField(
            model_name='gamereview',
            name='kind',
            field=models.PositiveSmallIntegerField(choices=[(0, 'Played'), (1, 'Imported')], default=0, help_text='A game played here (served first) or an imported record.'),
        ),
        migrations.AddField(
            model_name='gamereview',
            name='requested_by',
            field=models.ForeignKey(blank=True, help_text="The account the review is for, whose queued reviews are served in turn with everyone else's: an import's uploader, a played game's creator (issue #33, games.review_queue).", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(fill_kind_and_account, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='gamereview',
            name='queued_at',
            field=models.DateTimeField(help_text='When it was last queued, or claimed by a worker: the deadline job queues a review still waiting again when that was long ago (tasks.process_reviews).'),
        ),
        migrations.AddIndex(
            model_name='gamereview',
            index=models.Index(fields=['status', 'kind', 'requested_by', 'created_at'], name='review_queue'),
        ),
        migrations.AddIndex(
            model_name='gamereview',
            index=models.Index(fields=['requested_by', 'kind', 'created_at'], name='review_asks'),
        ),
    ]
