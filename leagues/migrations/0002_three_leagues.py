"""The leagues the site starts with (issue #38): Azul at 2 and 4 players and
Summer Pavilion at 2, each on the Fast clock with 8-week seasons; staff add
more in the admin. Their first seasons are opened by the job."""

from django.db import migrations

LEAGUES = (
    ("azul-2", "classic", 2),
    ("azul-4", "classic", 4),
    ("summer-pavilion-2", "pavilion", 2),
)


def add(apps, schema_editor):
    League = apps.get_model("leagues", "League")
    for slug, variant, players in LEAGUES:
        League.objects.get_or_create(
            slug=slug,
            defaults={
                "variant": variant,
                "players": players,
                "clock": "fast",
                "season_weeks": 8,
            },
        )


def remove(apps, schema_editor):
    apps.get_model("leagues", "League").objects.filter(
        slug__in=[slug for slug, _v, _p in LEAGUES]
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("leagues", "0001_initial")]
    operations = [migrations.RunPython(add, remove)]
