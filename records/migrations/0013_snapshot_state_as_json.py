"""Snapshot states stored as PostgreSQL ``json`` rather than ``jsonb`` (``WholeJSONField``).

A snapshot is written whole and read whole, never searched inside; ``jsonb`` parsed every one on
the way in (1.4 of the 2.2 ms an 18 KB Hunters and Gatherers position took to insert) and printed
it back on every read. The column keeps its lz4 compression where the server has it. Other
databases keep their JSON column as it is: only the model's field class changes there.
"""

from django.db import migrations

import records.models


def to_json(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("ALTER TABLE records_snapshot ALTER COLUMN state TYPE json USING state::json")
    # A server built without lz4 refuses the method: keep pglz there (as migration 0010).
    schema_editor.execute(
        "DO $$ BEGIN ALTER TABLE records_snapshot ALTER COLUMN state SET COMPRESSION lz4;"
        " EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL; END $$")


def to_jsonb(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE records_snapshot ALTER COLUMN state TYPE jsonb USING state::jsonb")


class Migration(migrations.Migration):
    dependencies = [("records", "0012_record_private_index")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(model_name="snapshot", name="state", field=records.models.WholeJSONField()),
            ],
            database_operations=[migrations.RunPython(to_json, to_jsonb)],
        ),
    ]
