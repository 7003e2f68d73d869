"""The "report sent" table made append-only by the database itself on PostgreSQL (the model
refuses updates and deletes everywhere; the trigger refuses any client, raw SQL included), as
the copy events are guarded (:mod:`loans.immutability`)."""

from __future__ import annotations

from django.db import migrations

from records.immutability import postgresql_append_only

REPORT_SENT_TABLE = "reports_reportsent"
MESSAGE = "reports_reportsent is append-only: a report once marked as sent stays as it was"

POSTGRESQL_INSTALL, POSTGRESQL_REMOVE = postgresql_append_only(REPORT_SENT_TABLE, MESSAGE)


def append_only_trigger() -> migrations.RunPython:
    def forwards(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for statement in POSTGRESQL_INSTALL:
                schema_editor.execute(statement)

    def backwards(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for statement in POSTGRESQL_REMOVE:
                schema_editor.execute(statement)

    return migrations.RunPython(forwards, backwards)
