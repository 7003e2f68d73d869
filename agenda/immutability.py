"""The agenda's counts made append-only by the database itself, whatever client writes: the door
counts, the games tallied on site and the sessions' changes (a count is corrected by another count
and a change of a session by a new row, never by an edit).

The models refuse updates and deletes (``agenda.models.AppendOnly``); these triggers make
PostgreSQL and SQLite refuse ``UPDATE`` and ``DELETE`` on the tables from any client, raw SQL
included, with the statement builders that guard the game, copy and household events
(``records.immutability``, ``loans.immutability``). On SQLite a ``REPLACE INTO`` over a stored row
(its id, or a tap's key in its session) is refused too: SQLite's REPLACE deletes the row it
collides with without firing the delete trigger.

The test suite's flush between transactional tests lifts them for its own statements
(``tests/conftest.py``). A later migration that makes SQLite rebuild one of these tables (most
changes of a column do) ends with :func:`agenda_triggers` again."""

from __future__ import annotations

from django.db import migrations

from loans.immutability import sqlite_append_only
from records.immutability import Guards, postgresql_append_only

DOOR_COUNT_TABLE = "agenda_doorcount"
PLAY_TALLY_TABLE = "agenda_playtally"
SESSION_CHANGE_TABLE = "agenda_sessionchange"
TABLES = (DOOR_COUNT_TABLE, PLAY_TALLY_TABLE, SESSION_CHANGE_TABLE)


def _message(table: str) -> str:
    return f"{table} is append-only: a count or a change is corrected by a new row, never edited"


def _keyed(table: str) -> str:
    """A tap's key is its session's once: a REPLACE with that key would overwrite the tap."""
    return f"EXISTS (SELECT 1 FROM {table} WHERE session_id = NEW.session_id AND key = NEW.key)"


POSTGRESQL = {table: postgresql_append_only(table, _message(table)) for table in TABLES}
SQLITE = {
    DOOR_COUNT_TABLE: sqlite_append_only(DOOR_COUNT_TABLE, _message(DOOR_COUNT_TABLE), None,
                                         clashes=_keyed(DOOR_COUNT_TABLE)),
    PLAY_TALLY_TABLE: sqlite_append_only(PLAY_TALLY_TABLE, _message(PLAY_TALLY_TABLE), None,
                                         clashes=_keyed(PLAY_TALLY_TABLE)),
    SESSION_CHANGE_TABLE: sqlite_append_only(SESSION_CHANGE_TABLE, _message(SESSION_CHANGE_TABLE), None),
}

TRIGGERS = {
    "postgresql": [f"{table}_append_only" for table in TABLES],
    "sqlite": [f"{table}_{kind}" for table in TABLES for kind in ("no_update", "no_delete", "no_replace")],
}
"""Every trigger the migrations leave installed on the agenda's counts, by database."""


GUARDS = Guards(
    install={"postgresql": [statement for install, _remove in POSTGRESQL.values() for statement in install],
             "sqlite": [statement for install, _remove in SQLITE.values() for statement in install]},
    remove={"postgresql": [statement for _install, remove in POSTGRESQL.values() for statement in remove],
            "sqlite": [statement for _install, remove in SQLITE.values() for statement in remove]})


def agenda_triggers() -> migrations.RunPython:
    """The migration operation (re)installing the agenda's append-only triggers, on either database."""
    return GUARDS.migration()


flush_statements = GUARDS.flush
"""A database flush (tests only) wrapped so that SQLite's triggers let it through."""
