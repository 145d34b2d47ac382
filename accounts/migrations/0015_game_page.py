# Issue #36 item 1: the open game pages move from notify to accounts, where
# every app reads them without asking another. Here only in Django's state: the
# table is notify's until notify's 0004 renames it (notify_gamepage →
# accounts_gamepage), so no row is lost.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0014_chat_with_everyone'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='GamePage',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game_id', models.BigIntegerField()),
                        ('channel_name', models.CharField(max_length=200, unique=True)),
                        ('seen_at', models.DateTimeField()),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'indexes': [models.Index(fields=['user', 'game_id', 'seen_at'], name='game_page_seen')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
