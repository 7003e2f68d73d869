"""A friendly game (counts for no league) and the play times kept at the table.

On SQLite adding a column with a default rebuilds the records table, which drops the guards of
0007 with the old table: they are lifted around the rebuild and put back (as 0008 does).
"""

from django.db import migrations, models

from records.immutability import around_sqlite_table_rebuild


class Migration(migrations.Migration):

    dependencies = [
        ('records', '0017_tamper_evidence'),
    ]

    operations = around_sqlite_table_rebuild(
        migrations.AddField(
            model_name='gamerecord',
            name='is_friendly',
            field=models.BooleanField(default=False, db_default=False, help_text='Played for fun: counts for no league, whoever recorded it and whoever is seated.', verbose_name='friendly game (not in the league)'),
        ),
        migrations.AddField(
            model_name='gamerecord',
            name='play_ended_at',
            field=models.DateTimeField(blank=True, help_text='When play ended at the table (editable).', null=True, verbose_name='play ended'),
        ),
        migrations.AddField(
            model_name='gamerecord',
            name='play_started_at',
            field=models.DateTimeField(blank=True, help_text='When play started at the table (editable).', null=True, verbose_name='play started'),
        ),
    )
