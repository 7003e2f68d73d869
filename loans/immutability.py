"""The copy events table made append-only by the database itself, whatever client writes to it.

The model refuses to update or delete a ``CopyEvent``; on PostgreSQL a row trigger refuses
``UPDATE`` and ``DELETE`` from any client, raw SQL included (migration 0002), as
``records.immutability`` guards the game events. On SQLite (``make run``) triggers do the same
(migration 0011), and refuse a ``REPLACE INTO`` that would overwrite a stored event (SQLite's
REPLACE deletes the row it collides with without firing delete triggers). The test suite's
flush between transactional tests lifts them for its own statements (``tests/conftest.py``);
migration 0010, which writes every stored event's hash once, lifts PostgreSQL's for its own.

Schema changes on SQLite: Django makes most of them (adding a non-null column, altering or
removing one) by rebuilding the table, which drops its triggers with the old table. A migration
that changes ``CopyEvent`` after 0011 ends with :func:`sqlite_triggers` again (its statements
drop, then create); ``tests/loans/test_copy_tamper.py`` checks that every trigger named in
:data:`TRIGGERS` is installed after the migrations.
"""

from __future__ import annotations

from django.db import migrations

from records.immutability import postgresql_append_only, vendor_statements

COPY_EVENT_TABLE = "loans_copyevent"
MESSAGE = "loans_copyevent is append-only: stored copy events are never updated or deleted"

POSTGRESQL_INSTALL, POSTGRESQL_REMOVE = postgresql_append_only(COPY_EVENT_TABLE, MESSAGE)


def append_only_trigger() -> migrations.RunPython:
    """The migration operation installing the trigger on PostgreSQL (nothing elsewhere)."""
    return vendor_statements(lambda vendor: POSTGRESQL_INSTALL if vendor == "postgresql" else [],
                             lambda vendor: POSTGRESQL_REMOVE if vendor == "postgresql" else [])


def sqlite_append_only(table: str, message: str, stream: str | None, *,
                       clashes: str = "") -> tuple[list[str], list[str]]:
    """SQLite's triggers keeping ``table`` append-only (no UPDATE, no DELETE, no REPLACE over a
    stored row: its id, or its place ``seq`` in the ``stream`` column's stream, or any other
    unique key ``clashes`` tests, an SQL condition over ``NEW``), and the statements dropping them.
    A table with no stream of sequence numbers (a tournament's table results) gives None."""
    same_place = f"OR EXISTS (SELECT 1 FROM {table} WHERE {stream} = NEW.{stream} AND seq = NEW.seq)" if stream else ""
    install = [
        f"""
    CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
    BEGIN SELECT RAISE(ABORT, '{message}'); END;
    """,
        f"""
    CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
    BEGIN SELECT RAISE(ABORT, '{message}'); END;
    """,
        # A BEFORE INSERT trigger runs before the uniqueness checks that would make REPLACE delete
        # the stored row, so refusing there leaves the row untouched.
        f"""
    CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table}
    WHEN EXISTS (SELECT 1 FROM {table} WHERE id = NEW.id) {same_place} {f"OR ({clashes})" if clashes else ""}
    BEGIN SELECT RAISE(ABORT, '{table} is append-only: an insert may not take the id or seq of a stored event'); END;
    """,
    ]
    remove = [f"DROP TRIGGER IF EXISTS {table}_no_{what};" for what in ("update", "delete", "replace")]
    return install, remove


SQLITE_INSTALL, SQLITE_REMOVE = sqlite_append_only(COPY_EVENT_TABLE, MESSAGE, "copy_id")

TRIGGERS = {
    "postgresql": ["loans_copyevent_append_only"],
    "sqlite": ["loans_copyevent_no_update", "loans_copyevent_no_delete", "loans_copyevent_no_replace"],
}
"""Every trigger the migrations leave installed on the copy events, by database."""


def sqlite_triggers() -> migrations.RunPython:
    """The migration operation (re)installing SQLite's triggers (nothing elsewhere)."""
    return vendor_statements(lambda vendor: [*SQLITE_REMOVE, *SQLITE_INSTALL] if vendor == "sqlite" else [],
                             lambda vendor: SQLITE_REMOVE if vendor == "sqlite" else [])


def lift_update_guard(vendor: str) -> list[str]:
    """Let one migration's own statements update stored copy events (0010 writes their hashes)."""
    if vendor == "postgresql":
        return [f"ALTER TABLE {COPY_EVENT_TABLE} DISABLE TRIGGER loans_copyevent_append_only;"]
    return SQLITE_REMOVE if vendor == "sqlite" else []


def restore_update_guard(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [f"ALTER TABLE {COPY_EVENT_TABLE} ENABLE TRIGGER loans_copyevent_append_only;"]
    return []  # SQLite's are installed by 0011 and after, never lifted before


def flush_statements(vendor: str, statements: list[str]) -> list[str]:
    """A database flush (tests only) wrapped so that SQLite's triggers (the copy events' and the
    household events') let it through."""
    if vendor == "sqlite":
        return [*SQLITE_REMOVE, *HOUSEHOLD_SQLITE_REMOVE, *statements, *SQLITE_INSTALL, *HOUSEHOLD_SQLITE_INSTALL]
    return statements


# -- the household events (issue 39): a membership's and its money's history, append-only too ----

HOUSEHOLD_EVENT_TABLE = "loans_householdevent"
HOUSEHOLD_EVENT_MESSAGE = "loans_householdevent is append-only: stored household events are never updated or deleted"

HOUSEHOLD_POSTGRESQL_INSTALL, HOUSEHOLD_POSTGRESQL_REMOVE = postgresql_append_only(
    HOUSEHOLD_EVENT_TABLE, HOUSEHOLD_EVENT_MESSAGE)

HOUSEHOLD_SQLITE_INSTALL, HOUSEHOLD_SQLITE_REMOVE = sqlite_append_only(
    HOUSEHOLD_EVENT_TABLE, HOUSEHOLD_EVENT_MESSAGE, "household_id")

HOUSEHOLD_TRIGGERS = {
    "postgresql": ["loans_householdevent_append_only"],
    "sqlite": ["loans_householdevent_no_update", "loans_householdevent_no_delete", "loans_householdevent_no_replace"],
}
"""Every trigger the migrations leave installed on the household events, by database. A later
migration that makes SQLite rebuild the table ends with :func:`household_event_triggers` again."""


def household_event_triggers() -> migrations.RunPython:
    """The migration operation (re)installing the household events' triggers, on either database."""
    install = {"postgresql": [*HOUSEHOLD_POSTGRESQL_REMOVE, *HOUSEHOLD_POSTGRESQL_INSTALL],
               "sqlite": [*HOUSEHOLD_SQLITE_REMOVE, *HOUSEHOLD_SQLITE_INSTALL]}
    remove = {"postgresql": HOUSEHOLD_POSTGRESQL_REMOVE, "sqlite": HOUSEHOLD_SQLITE_REMOVE}
    return vendor_statements(lambda vendor: install.get(vendor, []), lambda vendor: remove.get(vendor, []))
