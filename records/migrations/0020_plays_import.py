"""Where an imported play came from (BoardGameGeek, BG Stats) and its id there, stored once.

The columns have a database default, so SQLite adds them in place; the unique constraint is a
partial index (imported records only). Should SQLite rebuild the records table all the same, the
guards of 0007 would go with the old table: they are lifted around the operations and put back.
"""

from django.db import migrations, models

from records.immutability import around_sqlite_table_rebuild


class Migration(migrations.Migration):

    dependencies = [
        ('records', '0019_result_logging'),
    ]

    operations = around_sqlite_table_rebuild(
        migrations.AddField(
            model_name='gamerecord',
            name='source',
            field=models.CharField(blank=True, db_default='', default='', help_text='The play log this result came from (bgg: BoardGameGeek, bgstats: BG Stats); empty: recorded in Ludolog.', max_length=16, verbose_name='imported from'),
        ),
        migrations.AddField(
            model_name='gamerecord',
            name='source_id',
            field=models.CharField(blank=True, db_default='', default='', help_text="The source's id of the play (a play logged n times: id#1 to id#n): an import never stores one twice.", max_length=100, verbose_name='play id at the source'),
        ),
        migrations.AddConstraint(
            model_name='gamerecord',
            constraint=models.UniqueConstraint(condition=models.Q(('source', ''), _negated=True), fields=('source', 'source_id'), name='record_imported_once'),
        ),
    )
