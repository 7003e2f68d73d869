"""Serialising the refresh of one projection key across workers.

A refresh reads every committed row for its key and writes the aggregate. Two workers refreshing
the same key at once could each miss the other's newest rows; holding a lock named after the key
for the refresh transaction makes the second one start after the first commits, so it sees both.
"""

from __future__ import annotations

from django.db import connection


def hold(name: str) -> None:
    """Take a transaction-scoped lock named ``name`` (call inside ``transaction.atomic``).

    PostgreSQL: an advisory lock released at commit. SQLite (first runs, eager mode) already
    serialises writers, so there is nothing to take.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"ludolog.scoring:{name}"])
