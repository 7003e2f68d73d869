"""The append's write, in one statement and one round trip on PostgreSQL.

``append_event`` (records.services) has checked the action against the position and chained
the event to the one before it; what is left is to store it. The statement is written once,
prepared once per connection, and sent with its values bound server-side (no client-side
quoting of the payload): ``INSERT … RETURNING id``, with, when due, the snapshot of the new
position and the record's ``finished`` status in the same statement (data-modifying ``WITH``
clauses), so that the event, its snapshot and the status change are stored together or not at
all without a ``BEGIN``/``COMMIT`` of their own.

The database decides the race: ``unique(record, seq)`` (and ``unique(record, idempotency key)``)
refuse a second event at a taken place, and the statement then stores nothing; the caller
answers that with a conflict. Other databases (SQLite for ``make run``) take the ORM's path.

``LUDOLOG_PREPARED_APPENDS=0`` keeps the statement unprepared (for a connection pooler in
transaction mode that does not track prepared statements).
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.db import connections

from .models import Event, GameRecord, Snapshot

_PREPARE_NONE = 1 << 30
"""A prepare threshold no other query reaches: only the statements below are prepared."""


def supported(using: str = "default") -> bool:
    return connections[using].vendor == "postgresql"


def prepared() -> bool:
    return bool(getattr(settings, "LUDOLOG_PREPARED_APPENDS", True))


@functools.cache
def _cursor_class() -> type:
    import psycopg

    class PreparedCursor(psycopg.Cursor):  # type: ignore[type-arg, misc]
        """Server-side binding; every statement it runs is prepared on first use."""

        def execute(self, query, params=None, *, prepare=None, binary=None):  # type: ignore[override]
            return super().execute(query, params, prepare=prepared() or None, binary=binary)

    return PreparedCursor


def cursor(using: str = "default") -> Any:
    """A cursor on ``using``'s connection that binds and prepares, wrapped by Django as any
    other (its queries are counted, logged in DEBUG, and its errors are Django's)."""
    connection = connections[using]
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:  # Django's default: nothing prepared automatically
        raw.prepare_threshold = _PREPARE_NONE
    return connection._prepare_cursor(_cursor_class()(raw))


def read_cursor(using: str = "default") -> Any:
    """A cursor for the hot path's hand-written reads: prepared on PostgreSQL (a statement of a
    few subqueries costs more to plan than to run), the connection's own cursor elsewhere."""
    return cursor(using) if supported(using) else connections[using].cursor()


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@functools.cache
def insert_sql(with_snapshot: bool, finishing: bool) -> str:
    event, snapshot, record = Event._meta, Snapshot._meta, GameRecord._meta
    columns = ("record_id", "seq", "type", "payload", "recorded_by_id", "recorded_at", "idempotency_key", "hash")
    casts = ("bigint", "integer", "varchar", "jsonb", "integer", "timestamptz", "varchar", "varchar")
    values = ", ".join(f"%s::{cast}" for cast in casts)
    sql = (f"WITH new_event AS (INSERT INTO {_q(event.db_table)} ({', '.join(_q(c) for c in columns)})"
           f" VALUES ({values}) RETURNING {_q('id')})")
    if with_snapshot:
        sql += (f", new_snapshot AS (INSERT INTO {_q(snapshot.db_table)}"
                f" ({_q('record_id')}, {_q('seq')}, {_q('ruleset_version')}, {_q('state')}, {_q('created_at')})"
                f" SELECT %s::bigint, %s::integer, %s::varchar, %s::json, %s::timestamptz FROM new_event"
                f" ON CONFLICT DO NOTHING)")
    if finishing:
        sql += (f", finished AS (UPDATE {_q(record.db_table)} SET {_q('status')} = %s::varchar"
                f" WHERE {_q('id')} = %s::bigint AND EXISTS (SELECT 1 FROM new_event))")
    return sql + f" SELECT {_q('id')} FROM new_event"


def insert_event(
    event: Event, *, snapshot: tuple[str, dict[str, Any]] | None = None, finish: bool = False,
    using: str = "default",
) -> None:
    """Store ``event`` (hash set), and with it ``snapshot`` (``(ruleset_version, state)`` after the
    event) and the record's finished status, in one statement; sets ``event.pk``. Raises
    ``IntegrityError`` (nothing stored) when the place or the idempotency key is taken."""
    from psycopg.types.json import Json, Jsonb

    params: list[Any] = [
        event.record_id, event.seq, event.type, Jsonb(event.payload), event.recorded_by_id, event.recorded_at,
        event.idempotency_key, event.hash,
    ]
    if snapshot is not None:
        params += [event.record_id, event.seq, snapshot[0], Json(snapshot[1]), event.recorded_at]
    if finish:
        params += [GameRecord.Status.FINISHED.value, event.record_id]
    with cursor(using) as db:
        db.execute(insert_sql(snapshot is not None, finish), params)
        event.pk = db.fetchone()[0]
    event._state.adding = False
    event._state.db = using
