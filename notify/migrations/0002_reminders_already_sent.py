"""The one reminder a turn had before issue #18 (``Game.reminder_sent_at``): a turn
whose reminder already went out is not reminded again for the hours it covered."""

from datetime import timedelta

from django.db import migrations

HOURS = (24, 4, 1)


def reminders_already_sent(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Notice = apps.get_model("notify", "Notice")
    games = Game.objects.filter(
        status="active", reminder_sent_at__isnull=False, turn_deadline__isnull=False
    )
    notices = []
    for game in games.iterator():
        seat = Seat.objects.filter(game=game, number=game.seat_to_move).first()
        if seat is None or seat.user_id is None:
            continue
        deadline = int(game.turn_deadline.timestamp())
        for hours in HOURS:
            if game.turn_deadline - timedelta(hours=hours) <= game.reminder_sent_at:
                notices.append(
                    Notice(
                        user_id=seat.user_id,
                        game=game,
                        kind="reminder",
                        key=f"{game.ply}@{deadline}/{hours}h",
                        sent_at=game.reminder_sent_at,
                    )
                )
    Notice.objects.bulk_create(notices, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("notify", "0001_initial"),
        ("games", "0012_computer_turn"),
    ]

    operations = [
        migrations.RunPython(reminders_already_sent, migrations.RunPython.noop),
    ]
