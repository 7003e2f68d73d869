"""Players get a name key (case-folded, accents dropped) so that a typed name finds its player."""

from django.db import migrations, models


def fill_name_keys(apps, schema_editor):
    from records.players import name_key

    Player = apps.get_model("records", "Player")
    players = list(Player.objects.only("pk", "display_name"))
    for player in players:
        player.name_key = name_key(player.display_name)
    Player.objects.bulk_update(players, ["name_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("records", "0004_event_no_truncate"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.TextField(
                default="", editable=False, verbose_name="name key",
                help_text="The display name case-folded, without accents: how a typed name finds its player.",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["name_key"], name="player_name_key"),
        ),
    ]
