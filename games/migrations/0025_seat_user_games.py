from django.db import migrations, models

from azulsite.online import AddIndexOnline


class Migration(migrations.Migration):
    """A player's games newest first by index (issue #40), built online."""

    atomic = False

    dependencies = [
        ("accounts", "0018_bot_owner"),
        ("games", "0024_play_stopped"),
    ]

    operations = [
        AddIndexOnline(
            model_name="seat",
            index=models.Index(fields=["user", "game"], name="seat_user_games"),
        ),
    ]
