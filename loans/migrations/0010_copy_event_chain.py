"""Each copy event gets a hash chained over its copy's previous event (loans.integrity), the
stored events get theirs, in seq order per copy; each copy with events gets a checkpoint of its
last event (found intact now: nothing was chained before to compare it with).

PostgreSQL's append-only trigger refuses the UPDATE that writes the stored events' hashes, so
this migration lifts it for its own statements and puts it back. (SQLite's trigger comes with
the next migration, after this one has rebuilt the table to add the column.)
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

from loans import integrity
from loans.immutability import lift_update_guard, restore_update_guard

COPIES_AT_ONCE = 500


def chain_stored_events(apps, schema_editor) -> None:
    connection = schema_editor.connection
    events = apps.get_model("loans", "CopyEvent").objects.using(connection.alias)
    CopyCheckpoint = apps.get_model("loans", "CopyCheckpoint")
    copy_ids = list(events.order_by("copy_id").values_list("copy_id", flat=True).distinct())
    now = django.utils.timezone.now()
    for statement in lift_update_guard(connection.vendor):
        schema_editor.execute(statement)
    columns = ("id", "copy_id", "seq", "type", "payload", "household_id", "recorded_by_id", "recorded_at")
    with connection.cursor() as cursor:
        for start in range(0, len(copy_ids), COPIES_AT_ONCE):
            chunk = copy_ids[start:start + COPIES_AT_ONCE]
            updates, heads = [], {}
            for pk, copy_id, seq, type, payload, household_id, recorded_by_id, recorded_at in (
                events.filter(copy_id__in=chunk).order_by("copy_id", "seq").values_list(*columns)
            ):
                previous = heads[copy_id][1] if copy_id in heads else integrity.GENESIS
                hash = integrity.copy_event_hash(
                    copy_id=copy_id, seq=seq, type=type, payload=payload, household_id=household_id,
                    recorded_by_id=recorded_by_id, recorded_at=recorded_at, previous=previous)
                updates.append((hash, pk))
                heads[copy_id] = (seq, hash)
            cursor.executemany("UPDATE loans_copyevent SET hash = %s WHERE id = %s", updates)
            CopyCheckpoint.objects.using(connection.alias).bulk_create(
                CopyCheckpoint(copy_id=copy_id, last_seq=seq, head=hash, checked_at=now)
                for copy_id, (seq, hash) in heads.items())
    for statement in restore_update_guard(connection.vendor):
        schema_editor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_copy_organisation'),
        ('loans', '0009_household_address_member_birth_year'),
    ]

    operations = [
        migrations.CreateModel(
            name='CopyCheckpoint',
            fields=[
                ('copy', models.OneToOneField(db_constraint=False, on_delete=django.db.models.deletion.DO_NOTHING, primary_key=True, related_name='loan_checkpoint', serialize=False, to='games.copy', verbose_name='copy')),
                ('last_seq', models.PositiveIntegerField(default=0, verbose_name='last seq')),
                ('head', models.CharField(blank=True, max_length=64, verbose_name="last event's hash")),
                ('checked_at', models.DateTimeField(blank=True, null=True, verbose_name='found intact at')),
                ('failed_at', models.DateTimeField(blank=True, null=True, verbose_name='failed verification at')),
                ('problems', models.JSONField(blank=True, default=list, help_text='What its last verification found wrong, as sentences.', verbose_name='problems')),
            ],
            options={
                'verbose_name': 'copy checkpoint',
                'verbose_name_plural': 'copy checkpoints',
            },
        ),
        migrations.AddField(
            model_name='copyevent',
            name='hash',
            field=models.CharField(default='', editable=False, help_text="SHA-256 of the copy event's content and of the copy's previous event's hash (loans.integrity).", max_length=64, verbose_name='hash'),
            preserve_default=False,
        ),
        migrations.RunPython(chain_stored_events, migrations.RunPython.noop),
    ]
