"""Database triggers that make the events table append-only, whatever client writes to it.

The ORM already refuses to update or delete an ``Event``; these triggers make the database itself
refuse ``UPDATE`` and ``DELETE`` on ``records_event`` from any client, raw SQL included, and on
PostgreSQL ``TRUNCATE`` too (row triggers do not see it: a statement trigger does, also when the
table is emptied by a ``TRUNCATE ... CASCADE`` of the records table). SQLite has no TRUNCATE.

On SQLite two more holes are closed (migration 0007): ``REPLACE INTO records_event`` (and
``INSERT OR REPLACE``) deletes the stored row it collides with *without* firing delete
triggers, so an insert whose id, (record, seq) or (record, idempotency key) is already taken is
refused before it happens; and a client with foreign keys off (the ``sqlite3`` shell's default)
could delete, or renumber, a game record and leave its events orphaned, so a record that has
events keeps them. PostgreSQL needs neither: it has no REPLACE, and its foreign key (checked at
commit) already refuses deleting a record that has events.

Schema changes on SQLite: Django makes most of them (adding a non-null column, altering or
removing one) by rebuilding the table, which drops the table's triggers with the old table; and
rebuilding ``records_event`` fails while the records table's guards name it ("error in trigger
records_gamerecord_keeps_events: no such table"). A migration that changes either table wraps
its operations in :func:`around_sqlite_table_rebuild`, which lifts every trigger first and puts
them all back after (a no-op elsewhere). ``tests/records/test_event_integrity.py`` checks that every
trigger named in :data:`TRIGGERS` is installed after the migrations.

The test suite's flush between transactional tests is the one place that empties the table: it
lifts the triggers for that statement list only (``tests/conftest.py``). Migration 0006, which
writes every stored event's hash once, lifts the update trigger for its own statements only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import migrations
from django.db.migrations.operations.base import Operation

EVENT_TABLE = "records_event"
MESSAGE = "records_event is append-only: stored events are never updated or deleted"


def postgresql_append_only(table: str, message: str) -> tuple[list[str], list[str]]:
    """The statements installing, then removing, a PostgreSQL row trigger that refuses any
    ``UPDATE`` or ``DELETE`` on ``table`` with ``message`` (its function ``<table>_refuse_change``,
    its trigger ``<table>_append_only``): the game events' guard, and any other append-only table's."""
    install = [
        f"""
    CREATE OR REPLACE FUNCTION {table}_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '{message}' USING ERRCODE = 'integrity_constraint_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
        f"""
    CREATE TRIGGER {table}_append_only
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {table}_refuse_change();
    """,
    ]
    remove = [f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};",
              f"DROP FUNCTION IF EXISTS {table}_refuse_change();"]
    return install, remove


POSTGRESQL_INSTALL, POSTGRESQL_REMOVE = postgresql_append_only(EVENT_TABLE, MESSAGE)

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

REPLACE_MESSAGE = (
    "records_event is append-only: an insert may not take the id, seq or idempotency key of a stored event"
)
RECORD_MESSAGE = "a game record that has events is never deleted or renumbered: its events are append-only"

# Installed by migration 0007. A BEFORE INSERT trigger runs before the uniqueness checks that
# would make REPLACE delete the stored row, so refusing there leaves the row untouched. (Without
# an explicit id, NEW.id is -1 here: no stored event has it.)
SQLITE_GUARDS_INSTALL = [
    f"""
    CREATE TRIGGER records_event_no_replace BEFORE INSERT ON {EVENT_TABLE}
    WHEN EXISTS (SELECT 1 FROM {EVENT_TABLE} WHERE id = NEW.id)
      OR EXISTS (SELECT 1 FROM {EVENT_TABLE} WHERE record_id = NEW.record_id AND seq = NEW.seq)
      OR (NEW.idempotency_key IS NOT NULL AND EXISTS (
          SELECT 1 FROM {EVENT_TABLE}
          WHERE record_id = NEW.record_id AND idempotency_key = NEW.idempotency_key))
    BEGIN SELECT RAISE(ABORT, '{REPLACE_MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER records_gamerecord_keeps_events BEFORE DELETE ON records_gamerecord
    WHEN EXISTS (SELECT 1 FROM {EVENT_TABLE} WHERE record_id = OLD.id)
    BEGIN SELECT RAISE(ABORT, '{RECORD_MESSAGE}'); END;
    """,
    f"""
    CREATE TRIGGER records_gamerecord_keeps_id BEFORE UPDATE OF id ON records_gamerecord
    WHEN NEW.id IS NOT OLD.id AND EXISTS (SELECT 1 FROM {EVENT_TABLE} WHERE record_id = OLD.id)
    BEGIN SELECT RAISE(ABORT, '{RECORD_MESSAGE}'); END;
    """,
]
SQLITE_GUARDS_REMOVE = [
    "DROP TRIGGER IF EXISTS records_event_no_replace;",
    "DROP TRIGGER IF EXISTS records_gamerecord_keeps_events;",
    "DROP TRIGGER IF EXISTS records_gamerecord_keeps_id;",
]

TRIGGERS = {
    "postgresql": ["records_event_append_only", "records_event_no_truncate"],
    "sqlite": [
        "records_event_no_update", "records_event_no_delete",
        "records_event_no_replace", "records_gamerecord_keeps_events", "records_gamerecord_keeps_id",
    ],
}
"""Every trigger the migrations leave installed, by database."""


def install_statements(vendor: str) -> list[str]:
    return {"postgresql": POSTGRESQL_INSTALL, "sqlite": SQLITE_INSTALL}.get(vendor, [])


def remove_statements(vendor: str) -> list[str]:
    return {"postgresql": POSTGRESQL_REMOVE, "sqlite": SQLITE_REMOVE}.get(vendor, [])


def truncate_guard_statements(vendor: str) -> list[str]:
    return POSTGRESQL_TRUNCATE_INSTALL if vendor == "postgresql" else []


def truncate_guard_remove_statements(vendor: str) -> list[str]:
    return POSTGRESQL_TRUNCATE_REMOVE if vendor == "postgresql" else []


def sqlite_guard_statements(vendor: str) -> list[str]:
    return SQLITE_GUARDS_INSTALL if vendor == "sqlite" else []


def sqlite_guard_remove_statements(vendor: str) -> list[str]:
    return SQLITE_GUARDS_REMOVE if vendor == "sqlite" else []


def sqlite_install_all() -> list[str]:
    return [*SQLITE_INSTALL, *SQLITE_GUARDS_INSTALL]


def sqlite_remove_all() -> list[str]:
    return [*SQLITE_REMOVE, *SQLITE_GUARDS_REMOVE]


def around_sqlite_table_rebuild(*operations: Operation) -> list[Operation]:
    """``operations`` (of a migration after 0007) with every SQLite trigger lifted around them
    and put back after, going forwards and backwards alike (see the module's docstring)."""

    def lift(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "sqlite":
            for statement in sqlite_remove_all():
                schema_editor.execute(statement)

    def restore(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "sqlite":
            for statement in [*sqlite_remove_all(), *sqlite_install_all()]:
                schema_editor.execute(statement)

    return [migrations.RunPython(lift, restore), *operations, migrations.RunPython(restore, lift)]


def lift_update_guard(vendor: str) -> list[str]:
    """Let one migration's own statements update stored events (0006 writes their hashes)."""
    if vendor == "postgresql":
        return [f"ALTER TABLE {EVENT_TABLE} DISABLE TRIGGER records_event_append_only;"]
    return SQLITE_REMOVE if vendor == "sqlite" else []


def restore_update_guard(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [f"ALTER TABLE {EVENT_TABLE} ENABLE TRIGGER records_event_append_only;"]
    return SQLITE_INSTALL if vendor == "sqlite" else []


def flush_statements(vendor: str, statements: list[str]) -> list[str]:
    """A database flush (tests only) wrapped so that the append-only triggers let it through.

    PostgreSQL's flush is one TRUNCATE, which only the events table's triggers see; SQLite's is
    a DELETE per table, in no set order, which the records table's guard sees too.
    """
    if vendor == "postgresql":
        return [
            f"ALTER TABLE {EVENT_TABLE} DISABLE TRIGGER USER;",
            *statements,
            f"ALTER TABLE {EVENT_TABLE} ENABLE TRIGGER USER;",
        ]
    if vendor == "sqlite":
        return [*sqlite_remove_all(), *statements, *sqlite_install_all()]
    return statements


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


@dataclass(frozen=True)
class Guards:
    """The append-only guards of some tables: each database's statements installing them and
    removing them. ``migration()`` (re)installs them (removed first: the same operation serves a
    later migration after SQLite rebuilt a table); ``flush(vendor, statements)`` wraps a test
    flush so that SQLite's guards let it through (PostgreSQL's flush lifts them itself)."""

    install: dict[str, list[str]]
    remove: dict[str, list[str]]

    def migration(self) -> migrations.RunPython:
        return vendor_statements(lambda vendor: [*self.remove.get(vendor, []), *self.install.get(vendor, [])],
                                 lambda vendor: self.remove.get(vendor, []))

    def flush(self, vendor: str, statements: list[str]) -> list[str]:
        if vendor == "sqlite":
            return [*self.remove.get(vendor, []), *statements, *self.install.get(vendor, [])]
        return statements
