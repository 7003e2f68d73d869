"""The event store's write side: one interface (:class:`EventStore`), one implementation per
database, chosen once when the process starts (:func:`event_store`), and one contract test
suite run against each (``tests/records/test_event_store_contract.py``), as the eventsourcing
library tests its recorders.

``append_event`` (records.services) has checked the action against the position and chained
the event to the one before it; what is left is to store it, with, when due, the snapshot of
the new position and the record's ``finished`` status: all of it or nothing. A bulk import
(``records.services.log_results``) hands over many events at once (:meth:`EventStore.insert_many`):
each is stored as one append stores it, and all of them or none.

* :class:`PostgresEventStore`: one statement and one round trip. The statement is written once,
  prepared once per connection, and sent with its values bound server-side (no client-side
  quoting of the payload): ``INSERT … RETURNING id``, with the snapshot and the status change in
  data-modifying ``WITH`` clauses, so that no ``BEGIN``/``COMMIT`` of their own is needed.
* :class:`OrmEventStore`: the ORM in a transaction (SQLite for ``make run``; any database).

The database decides the race: ``unique(record, seq)`` (and ``unique(record, idempotency key)``)
refuse a second event at a taken place, and the store then stores nothing and raises
:class:`PlaceTaken`; the caller answers that with a conflict. Both hold on the events table as
migrations create it and hash-partitioned by record (``ludolog/deploy/partition_events.sql``).

``LUDOLOG_PREPARED_APPENDS=0`` keeps the statement unprepared (for a connection pooler in
transaction mode that does not track prepared statements).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any, Protocol

from django.conf import settings
from django.db import IntegrityError, connections, transaction

from .models import Event, GameRecord, Snapshot

SnapshotRow = tuple[str, dict[str, Any]]
"""A snapshot to store with its event: ``(ruleset_version, engine.snapshot(state))``."""


class PlaceTaken(Exception):
    """The event's place (its record and seq) or its idempotency key was taken first: nothing
    was stored."""


class EventStore(Protocol):
    """Where events are stored: appended once, never changed."""

    def insert(self, event: Event, *, snapshot: SnapshotRow | None = None, finish: bool = False,
               status: str = GameRecord.Status.FINISHED) -> None:
        """Store ``event`` (hash set), and with it ``snapshot`` (the position after it) and, with
        ``finish``, the record's closed ``status`` (finished or abandoned), all or nothing; sets ``event.pk``. Raises :class:`PlaceTaken`
        (nothing stored) when its place or its idempotency key is taken. In a transaction, a
        refused insert leaves the transaction usable."""
        ...

    def insert_many(self, events: Sequence[Event], *, finish: bool = False,
                    status: str = GameRecord.Status.FINISHED) -> None:
        """Store ``events`` (hashes set) as :meth:`insert` stores each one, with ``finish`` their
        records' closed ``status``: all of them or none; sets each ``event.pk``. Raises
        :class:`PlaceTaken` (nothing stored) when any of their places or keys is taken; a
        refused batch leaves the caller's transaction usable."""
        ...

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

        def executemany(self, query, params_seq, *, returning=False):  # type: ignore[override]
            if prepared():
                return super().executemany(query, params_seq, returning=returning)
            # psycopg prepares whatever executemany sends, unless the connection prepares nothing.
            threshold, self.connection.prepare_threshold = self.connection.prepare_threshold, None
            try:
                return super().executemany(query, params_seq, returning=returning)
            finally:
                self.connection.prepare_threshold = threshold

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
    columns = ("record_id", "seq", "type", "payload", "recorded_by_id", "recorded_at", "idempotency_key",
               "request_digest", "hash")
    casts = ("bigint", "integer", "varchar", "jsonb", "integer", "timestamptz", "varchar", "varchar", "varchar")
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


class PostgresEventStore:
    """The append in one prepared statement (PostgreSQL)."""

    def __init__(self, using: str = "default") -> None:
        self.using = using

    @staticmethod
    def _params(event: Event, snapshot: SnapshotRow | None, finish: bool, status: str) -> list[Any]:
        """The values :func:`insert_sql` binds for ``event``."""
        from psycopg.types.json import Json, Jsonb

        params: list[Any] = [
            event.record_id, event.seq, event.type, Jsonb(event.payload), event.recorded_by_id, event.recorded_at,
            event.idempotency_key, event.request_digest, event.hash,
        ]
        if snapshot is not None:
            params += [event.record_id, event.seq, snapshot[0], Json(snapshot[1]), event.recorded_at]
        if finish:
            params += [str(status), event.record_id]
        return params

    def insert(self, event: Event, *, snapshot: SnapshotRow | None = None, finish: bool = False,
               status: str = GameRecord.Status.FINISHED) -> None:
        params = self._params(event, snapshot, finish, status)
        try:
            # A savepoint inside a transaction: a refused insert must not doom the caller's.
            with _savepoint(self.using), cursor(self.using) as db:
                db.execute(insert_sql(snapshot is not None, finish), params)
                event.pk = db.fetchone()[0]
        except IntegrityError as taken:
            raise PlaceTaken(str(taken)) from taken
        event._state.adding = False
        event._state.db = self.using

    def insert_many(self, events: Sequence[Event], *, finish: bool = False,
                    status: str = GameRecord.Status.FINISHED) -> None:
        # One append's own statement for each event, sent down one pipeline (psycopg's
        # executemany): one round trip for all, and each row exactly what insert() writes.
        params = [self._params(event, None, finish, status) for event in events]
        if not params:
            return
        connection = connections[self.using]
        try:
            # Always a transaction (or a savepoint inside one): all of them or none.
            with transaction.atomic(using=self.using), cursor(self.using) as db, connection.wrap_database_errors:
                # The psycopg cursor itself: Django's wrapper passes no ``returning``.
                db.cursor.executemany(insert_sql(False, finish), params, returning=True)
                ids = []
                while True:
                    ids.append(db.cursor.fetchone()[0])
                    if not db.cursor.nextset():
                        break
        except IntegrityError as taken:
            raise PlaceTaken(str(taken)) from taken
        for event, pk in zip(events, ids, strict=True):
            event.pk = pk
            event._state.adding = False
            event._state.db = self.using


ORM_BATCH = 500
"""Events one statement of the ORM's bulk insert holds (SQLite bounds a statement's parameters)."""


class OrmEventStore:
    """The append through the ORM, in a transaction (any database Django supports)."""

    def __init__(self, using: str = "default") -> None:
        self.using = using

    def insert(self, event: Event, *, snapshot: SnapshotRow | None = None, finish: bool = False,
               status: str = GameRecord.Status.FINISHED) -> None:
        # One INSERT is atomic by itself; with more to store, or inside a transaction (whose
        # savepoint keeps it usable when the insert is refused), a transaction holds them.
        alone = snapshot is None and not finish and not connections[self.using].in_atomic_block
        try:
            with nullcontext() if alone else transaction.atomic(using=self.using):
                event.save(using=self.using)
                if snapshot is not None:
                    # INSERT … ON CONFLICT DO NOTHING: a snapshot already stored for this place is kept.
                    Snapshot.objects.using(self.using).bulk_create([Snapshot(
                        record_id=event.record_id, seq=event.seq, ruleset_version=snapshot[0], state=snapshot[1],
                    )], ignore_conflicts=True)
                if finish:
                    GameRecord.objects.using(self.using).filter(pk=event.record_id).update(status=status)
        except IntegrityError as taken:
            event.pk = None
            event._state.adding = True
            raise PlaceTaken(str(taken)) from taken

    def insert_many(self, events: Sequence[Event], *, finish: bool = False,
                    status: str = GameRecord.Status.FINISHED) -> None:
        events = list(events)
        try:
            with transaction.atomic(using=self.using):
                # The hashes are set: the bulk insert chains nothing (EventQuerySet.bulk_create).
                Event.objects.using(self.using).bulk_create(events, batch_size=ORM_BATCH)
                if finish:
                    record_ids = sorted({event.record_id for event in events})
                    for start in range(0, len(record_ids), ORM_BATCH):
                        GameRecord.objects.using(self.using).filter(pk__in=record_ids[start:start + ORM_BATCH]).update(
                            status=status)
        except IntegrityError as taken:
            for event in events:
                event.pk = None
                event._state.adding = True
            raise PlaceTaken(str(taken)) from taken


def _savepoint(using: str) -> Any:
    """A savepoint when a transaction is open; nothing (autocommit: the statement is its own)."""
    return transaction.atomic(using=using) if connections[using].in_atomic_block else nullcontext()


_chosen: dict[str, EventStore] = {}


def event_store(using: str = "default") -> EventStore:
    """The store of ``using``'s database, chosen once per process by its vendor (the records
    app asks when Django starts)."""
    found = _chosen.get(using)
    if found is None:
        found = _chosen[using] = PostgresEventStore(using) if supported(using) else OrmEventStore(using)
    return found
