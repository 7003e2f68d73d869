"""The copy events table made append-only by the database itself, whatever client writes to it.

The model refuses to update or delete a ``CopyEvent``; on PostgreSQL a row trigger refuses
``UPDATE`` and ``DELETE`` from any client, raw SQL included (migration 0002), as
``records.immutability`` guards the game events. The test suite's flush between transactional
tests lifts it for its own statements (``tests/conftest.py``).
"""

from __future__ import annotations

from django.db import migrations

from records.immutability import postgresql_append_only

COPY_EVENT_TABLE = "loans_copyevent"
MESSAGE = "loans_copyevent is append-only: stored copy events are never updated or deleted"

POSTGRESQL_INSTALL, POSTGRESQL_REMOVE = postgresql_append_only(COPY_EVENT_TABLE, MESSAGE)


def append_only_trigger() -> migrations.RunPython:
    """The migration operation installing the trigger on PostgreSQL (nothing elsewhere)."""

    def forwards(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for statement in POSTGRESQL_INSTALL:
                schema_editor.execute(statement)

    def backwards(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for statement in POSTGRESQL_REMOVE:
                schema_editor.execute(statement)

    return migrations.RunPython(forwards, backwards)
