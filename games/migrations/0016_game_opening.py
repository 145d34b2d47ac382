"""Each game's first deal as its fingerprint (``Game.opening``): an imported
record that continues a game in progress is found by it and not reviewed until
that game ends (issue #33, docs/review.md)."""

from django.db import migrations, models

from games.engine import record

BATCH = 2_000


def fill_openings(apps, schema_editor):
    """Every started game's fingerprint, from its first events (the first deal is
    event 0 or 1: Summer Pavilion draws its bonus supply first)."""
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    changed = []
    games = Game.objects.filter(first_seat__isnull=False).only("pk", "variant")
    for game in games.iterator(chunk_size=BATCH):
        events = list(
            Move.objects.filter(game_id=game.pk, ply__lt=2)
            .order_by("ply")
            .values_list("event", flat=True)
        )
        game.opening = record.opening_key(game.variant, events)
        if game.opening:
            changed.append(game)
        if len(changed) >= BATCH:
            Game.objects.bulk_update(changed, ["opening"])
            changed = []
    Game.objects.bulk_update(changed, ["opening"])


class Migration(migrations.Migration):
    dependencies = [("games", "0015_game_review")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="opening",
            field=models.CharField(
                blank=True,
                default="",
                editable=False,
                help_text="The first deal's fingerprint "
                "(games.engine.record.opening_key): an imported record sharing "
                "it with a game in progress continues that game, and is not "
                "reviewed until it ends (docs/review.md).",
                max_length=64,
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("imported", False), ("status", "active")),
                fields=["opening"],
                name="game_live_opening",
            ),
        ),
        migrations.RunPython(fill_openings, migrations.RunPython.noop, elidable=True),
    ]
