"""Cooperative games: a result-only record whose players won or lost together.

The column has a database default, so SQLite adds it in place; should SQLite rebuild the records
table all the same, the guards of 0007 are lifted around the operation and put back.
"""

from django.db import migrations, models

from records.immutability import around_sqlite_table_rebuild


class Migration(migrations.Migration):

    dependencies = [
        ('records', '0020_plays_import'),
    ]

    operations = around_sqlite_table_rebuild(
        migrations.AddField(
            model_name='gamerecord',
            name='is_cooperative',
            field=models.BooleanField(db_default=False, default=False, help_text="Everyone won or lost together (a result-only record): counted in the statistics, never in a league's standings or in ratings, where nobody beat anybody.", verbose_name='cooperative game'),
        ),
    )
