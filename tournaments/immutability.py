"""A tournament's table results made append-only by the database itself, whatever client writes.

The model refuses to update or delete a ``TableResult`` (a correction is a new row naming the one
it corrects); these triggers make PostgreSQL and SQLite refuse ``UPDATE`` and ``DELETE`` on the
table from any client, raw SQL included, as the game, copy and household events are guarded
(``records.immutability``, ``loans.immutability``: the same statement builders). On SQLite a
``REPLACE INTO`` that would overwrite a stored result (its id, the first result of a table, or
the result a correction names) is refused too: SQLite's REPLACE deletes the row it collides with
without firing the delete trigger.

The test suite's flush between transactional tests lifts them for its own statements
(``tests/conftest.py``). A later migration that makes SQLite rebuild the table (most changes of a
column do) ends with :func:`table_result_triggers` again.
"""

from __future__ import annotations

from django.db import migrations

from loans.immutability import sqlite_append_only
from records.immutability import Guards, postgresql_append_only

TABLE_RESULT_TABLE = "tournaments_tableresult"
MESSAGE = "tournaments_tableresult is append-only: a table result is corrected by a new row, never changed"

POSTGRESQL_INSTALL, POSTGRESQL_REMOVE = postgresql_append_only(TABLE_RESULT_TABLE, MESSAGE)

SQLITE_INSTALL, SQLITE_REMOVE = sqlite_append_only(
    TABLE_RESULT_TABLE, MESSAGE, None,
    clashes=(f"(NEW.corrects_id IS NULL AND EXISTS (SELECT 1 FROM {TABLE_RESULT_TABLE} WHERE round_id = NEW.round_id "
             f"AND table_number = NEW.table_number AND corrects_id IS NULL)) "
             f"OR (NEW.corrects_id IS NOT NULL AND EXISTS (SELECT 1 FROM {TABLE_RESULT_TABLE} "
             f"WHERE corrects_id = NEW.corrects_id))"))

TRIGGERS = TRIGGERS = {
    "postgresql": ["tournaments_tableresult_append_only"],
    "sqlite": ["tournaments_tableresult_no_update", "tournaments_tableresult_no_delete",
               "tournaments_tableresult_no_replace"],
}
"""Every trigger the migrations leave installed on the table results, by database."""

GUARDS = Guards(install={"postgresql": POSTGRESQL_INSTALL, "sqlite": SQLITE_INSTALL},
                remove={"postgresql": POSTGRESQL_REMOVE, "sqlite": SQLITE_REMOVE})


def table_result_triggers() -> migrations.RunPython:
    """The migration operation (re)installing the table results' triggers, on either database."""
    return GUARDS.migration()


flush_statements = GUARDS.flush
"""A database flush (tests only) wrapped so that SQLite's triggers let it through."""
