"""Database triggers that make the events table append-only, whatever client writes to it.

The ORM already refuses to update or delete an ``Event``; these triggers make the database itself
refuse ``UPDATE`` and ``DELETE`` on ``records_event`` from any client, raw SQL included, and on
PostgreSQL ``TRUNCATE`` too (row triggers do not see it: a statement trigger does, also when the
table is emptied by a ``TRUNCATE ... CASCADE`` of the records table). SQLite has no TRUNCATE.

The test suite's flush between transactional tests is the one place that empties the table: it
lifts the triggers for that statement list only (``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import migrations

EVENT_TABLE = "records_event"
MESSAGE = "records_event is append-only: stored events are never updated or deleted"

POSTGRESQL_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION records_event_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
    f"""
    CREATE TRIGGER records_event_append_only
    BEFORE UPDATE OR DELETE ON {EVENT_TABLE}
    FOR EACH ROW EXECUTE FUNCTION records_event_refuse_change();
    """,
]
POSTGRESQL_REMOVE = [
    f"DROP TRIGGER IF EXISTS records_event_append_only ON {EVENT_TABLE};",
    "DROP FUNCTION IF EXISTS records_event_refuse_change();",
]

# Installed by a later migration (0004) than the row triggers, hence a list of its own.
POSTGRESQL_TRUNCATE_INSTALL = [
    f"""
    CREATE TRIGGER records_event_no_truncate
    BEFORE TRUNCATE ON {EVENT_TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION records_event_refuse_change();
    """,
]
POSTGRESQL_TRUNCATE_REMOVE = [f"DROP TRIGGER IF EXISTS records_event_no_truncate ON {EVENT_TABLE};"]

SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER records_event_no_update BEFORE UPDATE ON {EVENT_TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER records_event_no_delete BEFORE DELETE ON {EVENT_TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;
    """,
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS records_event_no_update;",
    "DROP TRIGGER IF EXISTS records_event_no_delete;",
]


def install_statements(vendor: str) -> list[str]:
    return {"postgresql": POSTGRESQL_INSTALL, "sqlite": SQLITE_INSTALL}.get(vendor, [])


def remove_statements(vendor: str) -> list[str]:
    return {"postgresql": POSTGRESQL_REMOVE, "sqlite": SQLITE_REMOVE}.get(vendor, [])


def truncate_guard_statements(vendor: str) -> list[str]:
    return POSTGRESQL_TRUNCATE_INSTALL if vendor == "postgresql" else []


def truncate_guard_remove_statements(vendor: str) -> list[str]:
    return POSTGRESQL_TRUNCATE_REMOVE if vendor == "postgresql" else []


def flush_statements(vendor: str, statements: list[str]) -> list[str]:
    """A database flush (tests only) wrapped so that the append-only triggers let it through."""
    if vendor == "postgresql":
        return [
            f"ALTER TABLE {EVENT_TABLE} DISABLE TRIGGER USER;",
            *statements,
            f"ALTER TABLE {EVENT_TABLE} ENABLE TRIGGER USER;",
        ]
    return [*remove_statements(vendor), *statements, *install_statements(vendor)]


def vendor_statements(
    install: Callable[[str], list[str]], remove: Callable[[str], list[str]]
) -> migrations.RunPython:
    """A migration operation running the statements for the database in use (none elsewhere)."""

    def forwards(apps, schema_editor) -> None:
        for statement in install(schema_editor.connection.vendor):
            schema_editor.execute(statement)

    def backwards(apps, schema_editor) -> None:
        for statement in remove(schema_editor.connection.vendor):
            schema_editor.execute(statement)

    return migrations.RunPython(forwards, backwards)
