"""The event store's contract, run against every implementation (``records.store``), as the
eventsourcing library runs one suite against each of its recorders: the ORM's on any database,
PostgreSQL's one-statement insert, and both on PostgreSQL with the events table hash-partitioned
by record (``ludolog/deploy/partition_events.sql``, applied in the test's transaction and rolled
back with it).

An event is stored at its place or not at all; a taken place or idempotency key is refused with
nothing stored and the caller's transaction still usable; the snapshot and the finished status
go with their event or not at all; events handed over together are stored each as one would be,
all of them or none; stored events cannot be changed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import DatabaseError, connection, transaction

from records.integrity import GENESIS
from records.models import Event, GameRecord, Snapshot
from records.services import Request, new_event
from records.store import EventStore, OrmEventStore, PlaceTaken, PostgresEventStore, event_store
from tests.factories import seeded_record

pytestmark = pytest.mark.django_db

PARTITION = Path(__file__).resolve().parents[2] / "ludolog" / "deploy" / "partition_events.sql"
STORES: dict[str, tuple[Callable[[], EventStore], bool]] = {
    "orm": (OrmEventStore, False),
    "postgresql": (PostgresEventStore, False),
    "orm-partitioned": (OrmEventStore, True),
    "postgresql-partitioned": (PostgresEventStore, True),
}


@pytest.fixture(params=[
    pytest.param(name, marks=[pytest.mark.postgres] if name != "orm" else []) for name in STORES
])
def store(request) -> EventStore:
    make, partitioned = STORES[request.param]
    if partitioned:
        with connection.cursor() as cursor:
            cursor.execute(PARTITION.read_text("utf-8"))
        (kind,), = _rows("SELECT relkind FROM pg_class WHERE relname = 'records_event'")
        assert kind == "p"
    return make()


def _rows(sql: str, params: list | None = None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def event_at(record: GameRecord, seq: int, payload: dict | None = None, key: str | None = None,
             previous: str = GENESIS) -> Event:
    kind = "undo" if payload is None else "place_tile"
    event = new_event(record, seq, kind, payload or {}, None, Request.of(kind, payload or {}, key))
    event.chain_to(previous)
    return event


def stored(record: GameRecord) -> list[tuple]:
    return list(Event.objects.filter(record=record).order_by("seq").values_list("seq", "type", "payload", "hash",
                                                                                "idempotency_key"))


def test_the_process_uses_its_databases_store():
    expected = PostgresEventStore if connection.vendor == "postgresql" else OrmEventStore
    assert type(event_store()) is expected and event_store() is event_store()


def test_an_event_is_stored_at_its_place(store):
    record = seeded_record()
    first = event_at(record, 1, {"x": 1}, key="k-1")
    store.insert(first)
    second = event_at(record, 2, previous=first.hash)
    store.insert(second)
    assert first.pk is not None and second.pk > first.pk
    assert stored(record) == [(1, "place_tile", {"x": 1}, first.hash, "k-1"), (2, "undo", {}, second.hash, None)]
    assert not first._state.adding and GameRecord.objects.get(pk=record.pk).status == GameRecord.Status.IN_PROGRESS


def test_a_taken_place_is_refused_and_nothing_is_stored(store):
    record = seeded_record()
    store.insert(event_at(record, 1, {"x": 1}))
    with pytest.raises(PlaceTaken):
        store.insert(event_at(record, 1, {"x": 2}))
    assert [row[:3] for row in stored(record)] == [(1, "place_tile", {"x": 1})]


def test_a_taken_idempotency_key_is_refused_and_nothing_is_stored(store):
    record = seeded_record()
    store.insert(event_at(record, 1, key="same"))
    with pytest.raises(PlaceTaken):
        store.insert(event_at(record, 2, key="same"))
    assert [row[0] for row in stored(record)] == [1]
    other = seeded_record(seed=2)
    store.insert(event_at(other, 1, key="same"))  # a key is unique within its record only
    assert [row[0] for row in stored(other)] == [1]


def test_the_snapshot_and_the_finished_status_are_stored_with_their_event(store):
    record = seeded_record()
    store.insert(event_at(record, 1), snapshot=("rules@1", {"state": [1, 2, 3]}), finish=True)
    assert list(Snapshot.objects.filter(record=record).values_list("seq", "ruleset_version", "state")) == [
        (1, "rules@1", {"state": [1, 2, 3]})]
    assert GameRecord.objects.get(pk=record.pk).status == GameRecord.Status.FINISHED


def test_a_refused_event_stores_neither_its_snapshot_nor_the_finish(store):
    record = seeded_record()
    store.insert(event_at(record, 1))
    with pytest.raises(PlaceTaken):
        store.insert(event_at(record, 1, {"x": 9}), snapshot=("rules@1", {"state": 9}), finish=True)
    assert not Snapshot.objects.filter(record=record).exists()
    assert GameRecord.objects.get(pk=record.pk).status == GameRecord.Status.IN_PROGRESS


def test_a_snapshot_already_stored_at_the_place_is_kept(store):
    record = seeded_record()
    Snapshot.objects.create(record=record, seq=1, ruleset_version="rules@1", state={"kept": True})
    store.insert(event_at(record, 1), snapshot=("rules@1", {"kept": False}))
    assert list(Snapshot.objects.filter(record=record).values_list("state", flat=True)) == [{"kept": True}]
    assert [row[0] for row in stored(record)] == [1]


def test_a_refused_event_leaves_the_callers_transaction_usable(store):
    record = seeded_record()
    with transaction.atomic():
        store.insert(event_at(record, 1))
        with pytest.raises(PlaceTaken):
            store.insert(event_at(record, 1, {"x": 2}))
        store.insert(event_at(record, 2))
    assert [row[0] for row in stored(record)] == [1, 2]


def test_events_handed_over_together_are_each_stored_as_one_would_be_and_their_records_finished(store):
    records = [seeded_record(seed=seed) for seed in (1, 2, 3)]
    together = [event_at(record, 1, {"x": n}, key=f"k-{n}") for n, record in enumerate(records)]
    store.insert_many(together, finish=True)
    for n, (record, event) in enumerate(zip(records, together)):
        assert event.pk is not None and not event._state.adding
        assert stored(record) == [(1, "place_tile", {"x": n}, event.hash, f"k-{n}")]
        assert GameRecord.objects.get(pk=record.pk).status == GameRecord.Status.FINISHED
    assert Event.objects.get(pk=together[2].pk).record_id == records[2].pk
    alone = event_at(records[0], 2, previous=together[0].hash)
    store.insert_many([alone])  # without finish, the record's status is left as it is
    assert [row[0] for row in stored(records[0])] == [1, 2]


def test_events_handed_over_together_with_one_place_taken_are_all_refused(store):
    taken, free = seeded_record(seed=1), seeded_record(seed=2)
    store.insert(event_at(taken, 1, {"x": 1}))
    with transaction.atomic():
        with pytest.raises(PlaceTaken):
            store.insert_many([event_at(free, 1), event_at(taken, 1, {"x": 2})], finish=True)
        assert stored(free) == [] and [row[:3] for row in stored(taken)] == [(1, "place_tile", {"x": 1})]
        assert set(GameRecord.objects.filter(pk__in=[taken.pk, free.pk]).values_list("status", flat=True)) == {
            GameRecord.Status.IN_PROGRESS}
        store.insert(event_at(free, 1))  # the caller's transaction is still usable
    assert [row[0] for row in stored(free)] == [1]


@pytest.mark.postgres
@pytest.mark.parametrize("prepare", [True, False], ids=["prepared", "unprepared"])
def test_events_handed_over_together_are_prepared_only_when_appends_are(settings, prepare):
    """``LUDOLOG_PREPARED_APPENDS=0`` (a pooler that does not track prepared statements) holds
    for the pipeline too: psycopg's executemany prepares its statement otherwise."""
    settings.LUDOLOG_PREPARED_APPENDS = prepare
    record = seeded_record()
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # psycopg sees it and forgets what it had prepared
    PostgresEventStore().insert_many([event_at(record, 1), event_at(record, 2)])
    assert [row[0] for row in stored(record)] == [1, 2]
    appends = "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'WITH new_event AS (INSERT INTO %'"
    assert _rows(appends) == [(1 if prepare else 0,)]


def test_a_stored_event_cannot_be_changed_or_deleted(store):
    record = seeded_record()
    store.insert(event_at(record, 1, {"x": 1}))
    table = Event._meta.db_table
    for statement in (f"UPDATE {table} SET payload = '{{}}' WHERE record_id = %s",
                      f"DELETE FROM {table} WHERE record_id = %s"):
        with pytest.raises(DatabaseError), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(statement, [record.pk])
    assert [row[:3] for row in stored(record)] == [(1, "place_tile", {"x": 1})]
