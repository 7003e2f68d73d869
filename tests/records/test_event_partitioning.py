"""ludolog/deploy/partition_events.sql, run on the test database: the events come out in 16 hash
partitions by record, and appends, conflicts, retries, replay, verification and the append-only
guards work on them as before (scaling.md, step 4). The test's transaction is rolled back, with
the partitioning, at its end."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction

from records import replay
from records.errors import SeqConflict
from records.models import Event
from records.services import append_event
from tests.factories import event, seeded_record

SCRIPT = Path(__file__).resolve().parents[2] / "ludolog" / "deploy" / "partition_events.sql"

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def rows(sql: str, params: list | None = None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def test_the_events_partitioned_by_record_keep_every_guarantee() -> None:
    first, second = seeded_record(), seeded_record(seed=2)
    for record, count in ((first, 6), (second, 4)):
        for index in range(count):
            append_event(record, index, *event(index, seed=record.seed), idempotency_key=f"{record.pk}-{index}")
    before = rows("SELECT id, record_id, seq, hash FROM records_event ORDER BY id")
    assert len(before) == 10

    with connection.cursor() as cursor:
        cursor.execute(SCRIPT.read_text("utf-8"))

    (kind,), = rows("SELECT relkind FROM pg_class WHERE relname = 'records_event'")
    assert kind == "p"
    partitions = rows("SELECT relid::regclass::text FROM pg_partition_tree('records_event') WHERE isleaf")
    assert len(partitions) == 16
    assert rows("SELECT id, record_id, seq, hash FROM records_event ORDER BY id") == before
    # A record's events all lie in one partition.
    assert rows("SELECT count(DISTINCT tableoid) FROM records_event GROUP BY record_id") == [(1,), (1,)]

    # Appends go on from where the old table ended: the next seq, a new id, the chain unbroken.
    stored = append_event(first, 6, *event(6, seed=1))
    assert stored.seq == 7 and stored.pk > max(row[0] for row in before)
    with pytest.raises(SeqConflict) as conflict:
        append_event(first, 5, *event(5, seed=1))
    assert conflict.value.details["current_seq"] == 7
    # The database itself refuses a second event at a taken place or with a taken key.
    insert = ("INSERT INTO records_event (record_id, seq, type, payload, recorded_at, hash, idempotency_key)"
              " VALUES (%s, %s, 'x', '{}', now(), 'h', %s) RETURNING id")
    for place, key in ((7, None), (8, f"{first.pk}-0")):
        with pytest.raises(IntegrityError), transaction.atomic():
            rows(insert, [first.pk, place, key])
    retry = append_event(second, 3, *event(3, seed=2), idempotency_key=f"{second.pk}-3")
    assert retry.seq == 4 and Event.objects.filter(record=second).count() == 4
    state, seq = replay.current_state(first)
    assert seq == 7 and state is not None
    call_command("verify_events")  # every chain intact (it exits non-zero on a mismatch)

    # The append-only guards reach every partition, a partition addressed directly included.
    partition = rows("SELECT tableoid::regclass::text FROM records_event WHERE record_id = %s LIMIT 1", [first.pk])[0][0]
    for statement in (
        "UPDATE records_event SET payload = '{}' WHERE record_id = %s",
        "DELETE FROM records_event WHERE record_id = %s",
        f"UPDATE {partition} SET payload = '{{}}' WHERE record_id = %s",
        f"DELETE FROM {partition} WHERE record_id = %s",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            rows(statement + " RETURNING id", [first.pk])
    with connection.cursor() as cursor:  # no foreign-key check left pending: TRUNCATE would wait for it
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    for table in ("records_event", partition):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"TRUNCATE {table}")
    assert Event.objects.count() == 11
