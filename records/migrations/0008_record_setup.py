"""A record's set-up (expansions, a map and its chips, variants) beside its seed.

On SQLite adding a column with a default rebuilds the records table, which drops the guards of
0007 with the old table: they are lifted around the rebuild and put back.
"""

from django.db import migrations, models

from records.immutability import around_sqlite_table_rebuild


class Migration(migrations.Migration):

    dependencies = [
        ("records", "0007_sqlite_event_guards"),
    ]

    operations = around_sqlite_table_rebuild(
        migrations.AddField(
            model_name="gamerecord",
            name="setup",
            field=models.JSONField(
                blank=True, default=dict, verbose_name="set-up",
                help_text="What the record chose at its start besides the seed (expansions, a map and its chips, "
                          "variants), as the game's rules engine checked and completed it. Pinned once events exist.",
            ),
        ),
    )
