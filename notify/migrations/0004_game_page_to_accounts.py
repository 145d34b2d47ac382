# Issue #36 item 1: the open game pages are accounts' (accounts 0015 takes the
# model into its state). The table and its index are renamed, rows kept:
# notify_gamepage → accounts_gamepage.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('notify', '0003_chat_notices'),
        ('accounts', '0015_game_page'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RenameIndex(
                    model_name='gamepage',
                    new_name='game_page_seen',
                    old_name='notify_game_user_id_fa7a81_idx',
                ),
                migrations.AlterModelTable(
                    name='gamepage',
                    table='accounts_gamepage',
                ),
            ],
            state_operations=[
                migrations.DeleteModel(
                    name='GamePage',
                ),
            ],
        ),
    ]
