import unicodedata

from django.db import migrations, models


def username_key(name):
    """accounts.usernames.username_key as it was when this migration was written."""
    return unicodedata.normalize(
        "NFKC", unicodedata.normalize("NFKC", name).casefold()
    )


def fill_username_keys(apps, schema_editor):
    """Key every existing account; of accounts that already share a key, the
    oldest keeps it and the others stay unkeyed (they keep their names)."""
    User = apps.get_model("accounts", "User")
    taken = set()
    for user in User.objects.order_by("pk").only("pk", "username").iterator():
        key = username_key(user.username)
        if key in taken:
            continue
        taken.add(key)
        User.objects.filter(pk=user.pk).update(username_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_user_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(
                editable=False,
                help_text="The username as players read it (case and Unicode form "
                "folded): two accounts cannot share it (accounts.usernames).",
                max_length=150,
                null=True,
                unique=True,
            ),
        ),
        migrations.RunPython(fill_username_keys, migrations.RunPython.noop),
    ]
