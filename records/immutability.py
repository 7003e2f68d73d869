"""Database triggers that make the events table append-only, whatever client writes to it.

The ORM already refuses to update or delete an ``Event``; these triggers make the database itself
refuse ``UPDATE`` and ``DELETE`` on ``records_event`` from any client, raw SQL included.
(``TRUNCATE`` on PostgreSQL is a table-owner operation outside row triggers; the test suite's
database flush relies on it.)
"""

from __future__ import annotations

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
