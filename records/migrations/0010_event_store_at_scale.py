"""The event store at scale (PostgreSQL): no index that another one already covers, snapshots
compressed with lz4.

* ``records_event``'s index on ``record_id`` alone is a prefix of ``unique(record, seq)``, and
  ``records_snapshot``'s of ``unique(record, seq, ruleset_version)``: every lookup by record uses
  the unique index, so the single-column ones only cost each insert a write and the disk its
  pages (about 30 bytes an event). Dropped on PostgreSQL; the model no longer asks for them.
  SQLite keeps them: its ``ALTER`` remakes the table and would drop the append-only triggers.
* A snapshot's state (a few kilobytes of JSON) is compressed with lz4 instead of pglz where the
  server has it: the same answers, stored in a third of the time (the append that takes the
  snapshot waits for it). Existing rows keep their compression until rewritten.
"""

from django.db import migrations, models

TABLES = {"records_event": ["record_id"], "records_snapshot": ["record_id"]}


def drop_covered_indexes(apps, schema_editor) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for table, columns in TABLES.items():
            for name, info in connection.introspection.get_constraints(cursor, table).items():
                if info["index"] and not info["unique"] and not info["primary_key"] and info["columns"] == columns:
                    schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def restore_indexes(apps, schema_editor) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    for table, columns in TABLES.items():
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {table}_record_id_idx ON {table} ({', '.join(columns)})")


def snapshots_lz4(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    # A server built without lz4 refuses the method: keep pglz there.
    schema_editor.execute(
        "DO $$ BEGIN ALTER TABLE records_snapshot ALTER COLUMN state SET COMPRESSION lz4;"
        " EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL; END $$")


def snapshots_pglz(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE records_snapshot ALTER COLUMN state SET COMPRESSION pglz")


class Migration(migrations.Migration):
    dependencies = [("records", "0009_ruleset_move")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event", name="record",
                    field=models.ForeignKey(db_index=False, on_delete=models.deletion.PROTECT,
                                            related_name="events", to="records.gamerecord"),
                ),
                migrations.AlterField(
                    model_name="snapshot", name="record",
                    field=models.ForeignKey(db_index=False, on_delete=models.deletion.CASCADE,
                                            related_name="snapshots", to="records.gamerecord"),
                ),
            ],
            database_operations=[migrations.RunPython(drop_covered_indexes, restore_indexes)],
        ),
        migrations.RunPython(snapshots_lz4, snapshots_pglz),
    ]
