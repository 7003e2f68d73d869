"""Each event gets a hash chained over its record's previous event (records.integrity), and
the stored events get theirs; the results of ``verify_events`` get a table.

The append-only trigger refuses the UPDATE that writes the stored events' hashes, so this
migration lifts it for its own statements and puts it back. On SQLite, adding a non-null column
rebuilds the events table, which drops its triggers with the old table: they are put back too.
"""

import django.utils.timezone
from django.db import migrations, models

from records import integrity
from records.immutability import (
    SQLITE_INSTALL, SQLITE_REMOVE, lift_update_guard, restore_update_guard,
)

RECORDS_AT_ONCE = 200


def chain_stored_events(apps, schema_editor) -> None:
    connection = schema_editor.connection
    Event = apps.get_model("records", "Event")
    events = Event.objects.using(connection.alias)
    record_ids = list(events.order_by("record_id").values_list("record_id", flat=True).distinct())
    for statement in lift_update_guard(connection.vendor):
        schema_editor.execute(statement)
    columns = ("id", "record_id", "seq", "type", "payload", "recorded_at", "recorded_by_id", "idempotency_key")
    with connection.cursor() as cursor:
        for start in range(0, len(record_ids), RECORDS_AT_ONCE):
            chunk = record_ids[start:start + RECORDS_AT_ONCE]
            updates = []
            current, previous = None, integrity.GENESIS
            for pk, record_id, seq, type, payload, recorded_at, recorded_by_id, key in (
                events.filter(record_id__in=chunk).order_by("record_id", "seq").values_list(*columns)
            ):
                if record_id != current:
                    current, previous = record_id, integrity.GENESIS
                previous = integrity.event_hash(
                    record_id=record_id, seq=seq, type=type, payload=payload, recorded_at=recorded_at,
                    recorded_by_id=recorded_by_id, idempotency_key=key, previous=previous,
                )
                updates.append((previous, pk))
            cursor.executemany("UPDATE records_event SET hash = %s WHERE id = %s", updates)
    for statement in restore_update_guard(connection.vendor):
        schema_editor.execute(statement)


def reinstall_sqlite_triggers(apps, schema_editor) -> None:
    """Going back, dropping the column rebuilds SQLite's events table without its triggers."""
    if schema_editor.connection.vendor == "sqlite":
        for statement in [*SQLITE_REMOVE, *SQLITE_INSTALL]:
            schema_editor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ("records", "0005_player_name_key"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, reinstall_sqlite_triggers),
        migrations.AddField(
            model_name="event",
            name="hash",
            field=models.CharField(
                default="", editable=False, max_length=64, verbose_name="hash",
                help_text="SHA-256 of the event's content and of the previous event's hash (records.integrity).",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(chain_stored_events, migrations.RunPython.noop),
        migrations.CreateModel(
            name="EventVerification",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("started_at", models.DateTimeField()),
                ("finished_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("only_record_id", models.BigIntegerField(blank=True, null=True, help_text="Empty: the whole store.")),
                ("records_checked", models.PositiveIntegerField(default=0)),
                ("events_checked", models.PositiveIntegerField(default=0)),
                ("mismatch_count", models.PositiveIntegerField(default=0)),
                ("mismatches", models.JSONField(default=list, help_text="The first mismatches found, as sentences.")),
            ],
            options={
                "verbose_name": "event verification",
                "ordering": ["-finished_at", "-id"],
            },
        ),
    ]
