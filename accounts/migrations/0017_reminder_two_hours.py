# The reminder 4 hours before a deadline comes 2 hours before it (issue #37:
# reminders on the bank, 24 and 2 hours before it runs out); a player's choice
# of it is kept.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0016_play_forced_days_only"),
    ]

    operations = [
        migrations.RenameField(
            model_name="user", old_name="remind_4h", new_name="remind_2h"
        ),
        migrations.AlterField(
            model_name="user",
            name="remind_2h",
            field=models.BooleanField(default=True, verbose_name="2 hours before"),
        ),
    ]
