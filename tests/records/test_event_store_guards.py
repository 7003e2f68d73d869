"""The event store: append-only, gap-free, optimistic concurrency, idempotent retries."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction
from rest_framework.test import APIClient

from records.errors import IdempotencyKeyReused, SeqConflict
from records.models import Event, GameRecord, ImmutableEventError
from records.services import append_event
from tests.factories import event, plain_postgresql_client, seeded_record, sqlite_env



@pytest.fixture
def record(db) -> GameRecord:
    return seeded_record()


def plain_sqlite_client(database: Path) -> sqlite3.Connection:
    """Python's sqlite3 module, like the sqlite3 shell: foreign keys off unless asked for."""
    db = sqlite3.connect(database)
    assert db.execute("PRAGMA foreign_keys").fetchone() == (0,)
    db.execute(
        "INSERT INTO records_gamerecord (game_slug, ruleset_version, played_on, location, status,"
        " is_private, result_only, created_at, setup)"
        " VALUES ('x', '', '2026-01-01', '', 'in_progress', 0, 1, '2026-01-01', '{}')"
    )
    db.execute(
        "INSERT INTO records_event (record_id, seq, type, payload, recorded_at, idempotency_key, hash) "
        "VALUES (1, 1, 'note', '{}', '2026-01-01', 'k-1', '')"
    )
    db.commit()
    return db


def append_nth(record: GameRecord, index: int, **kwargs) -> Event:
    """Append the index-th action of the seeded simulated game at its place."""
    kind, payload = event(index)
    return append_event(record, index, kind, payload, **kwargs)


def test_events_are_numbered_from_one_without_gaps(record):
    first = append_nth(record, 0)
    second = append_nth(record, 1)
    assert (first.seq, second.seq) == (1, 2)


def test_append_at_a_taken_seq_is_a_conflict_carrying_the_current_seq(record):
    append_nth(record, 0)
    with pytest.raises(SeqConflict) as conflict:
        append_nth(record, 0)
    assert conflict.value.details == {"current_seq": 1}
    assert Event.objects.filter(record=record).count() == 1


def test_retry_with_the_same_idempotency_key_returns_the_stored_event(record):
    first = append_nth(record, 0, idempotency_key="k-1")
    retry = append_nth(record, 0, idempotency_key="k-1")
    assert retry.pk == first.pk
    assert Event.objects.filter(record=record).count() == 1


def test_reusing_an_idempotency_key_for_another_event_is_refused(record):
    append_nth(record, 0, idempotency_key="k-1")
    kind, payload = event(1)
    with pytest.raises(IdempotencyKeyReused):
        append_event(record, 1, kind, payload, idempotency_key="k-1")
    assert Event.objects.filter(record=record).count() == 1


class TestImmutability:
    def test_orm_save_of_a_stored_event_is_refused(self, record):
        stored = append_nth(record, 0)
        original = dict(stored.payload)
        stored.payload = {"tile": "forged"}
        with pytest.raises(ImmutableEventError):
            stored.save()
        assert Event.objects.get(pk=stored.pk).payload == original

    def test_orm_delete_and_bulk_writes_are_refused(self, record):
        stored = append_nth(record, 0)
        with pytest.raises(ImmutableEventError):
            stored.delete()
        with pytest.raises(ImmutableEventError):
            Event.objects.filter(pk=stored.pk).update(type="other")
        with pytest.raises(ImmutableEventError):
            Event.objects.filter(pk=stored.pk).delete()
        assert Event.objects.get(pk=stored.pk).type == "place_tile"

    def test_deleting_a_record_with_events_is_refused(self, record):
        append_nth(record, 0)
        with pytest.raises(Exception):
            with transaction.atomic():
                record.delete()
        assert Event.objects.filter(record=record).count() == 1

    @pytest.mark.parametrize(
        "statement",
        ["UPDATE records_event SET type = 'forged' WHERE id = %s", "DELETE FROM records_event WHERE id = %s"],
    )
    def test_raw_sql_update_and_delete_are_refused_by_the_database(self, record, statement):
        """Runs on whichever database the suite uses: PostgreSQL in CI, SQLite locally."""
        stored = append_nth(record, 0)
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(statement, [stored.pk])
        assert Event.objects.get(pk=stored.pk).type == "place_tile"

    @pytest.mark.postgres
    @pytest.mark.django_db(transaction=True)
    @pytest.mark.parametrize(
        "statement", ["TRUNCATE records_event", "TRUNCATE records_gamerecord CASCADE"],
    )
    def test_postgresql_refuses_truncating_the_events(self, record, statement):
        """With the event committed (else PostgreSQL refuses for its pending constraint checks).
        The suite's own flush after this test then shows that the flush alone gets through."""
        stored = append_nth(record, 0)
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(statement)
        assert Event.objects.get(pk=stored.pk).type == "place_tile"

    def test_sqlite_triggers_refuse_raw_update_and_delete(self, migrated_sqlite):
        """SQLite is checked on a real migrated file even when the suite runs on PostgreSQL."""
        db = plain_sqlite_client(migrated_sqlite)
        for statement in ("UPDATE records_event SET type = 'forged'", "DELETE FROM records_event"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                db.execute(statement)
        assert db.execute("SELECT type FROM records_event").fetchall() == [("note",)]

    @pytest.mark.parametrize(
        "statement",
        [
            # the same id: REPLACE deletes the stored row (firing no delete trigger) and inserts
            "REPLACE INTO records_event (id, record_id, seq, type, payload, recorded_at, hash)"
            " VALUES (1, 1, 1, 'forged', '{}', '2026-01-01', '')",
            # a new id at a taken seq
            "INSERT OR REPLACE INTO records_event (record_id, seq, type, payload, recorded_at, hash)"
            " VALUES (1, 1, 'forged', '{}', '2026-01-01', '')",
            # a taken idempotency key at a new seq
            "REPLACE INTO records_event (record_id, seq, type, payload, recorded_at, idempotency_key, hash)"
            " VALUES (1, 2, 'forged', '{}', '2026-01-01', 'k-1', '')",
        ],
    )
    def test_sqlite_refuses_replace_into_a_stored_event(self, migrated_sqlite, statement):
        db = plain_sqlite_client(migrated_sqlite)
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)
        assert db.execute("SELECT id, seq, type FROM records_event").fetchall() == [(1, 1, "note")]
        db.execute(  # the next event is still welcome
            "INSERT INTO records_event (record_id, seq, type, payload, recorded_at, hash)"
            " VALUES (1, 2, 'note', '{}', '2026-01-01', '')"
        )

    @pytest.mark.parametrize(
        "statement", ["DELETE FROM records_gamerecord", "UPDATE records_gamerecord SET id = 99"],
    )
    def test_sqlite_refuses_orphaning_events_with_foreign_keys_off(self, migrated_sqlite, statement):
        db = plain_sqlite_client(migrated_sqlite)
        with pytest.raises(sqlite3.IntegrityError, match="never deleted or renumbered"):
            db.execute(statement)
        assert db.execute("SELECT e.seq FROM records_event e JOIN records_gamerecord r ON r.id = e.record_id").fetchall() == [(1,)]
        # A record nothing was recorded in yet can still go, and a record keeps its other columns.
        db.execute(
            "INSERT INTO records_gamerecord (game_slug, ruleset_version, played_on, location, status,"
            " is_private, result_only, created_at, setup)"
            " VALUES ('y', '', '2026-01-01', '', 'in_progress', 0, 1, '2026-01-01', '{}')"
        )
        db.execute("DELETE FROM records_gamerecord WHERE game_slug = 'y'")
        db.execute("UPDATE records_gamerecord SET status = 'finished'")

    @pytest.mark.postgres
    @pytest.mark.django_db(transaction=True)
    def test_postgresql_refuses_deleting_a_record_with_events_from_a_plain_client(self, record):
        """PostgreSQL needs no trigger here: the events' foreign key refuses (checked at commit)."""
        append_nth(record, 0)
        with plain_postgresql_client() as client:
            with pytest.raises(psycopg.errors.ForeignKeyViolation):
                client.execute("DELETE FROM records_gamerecord WHERE id = %s", [record.pk])
            with pytest.raises(psycopg.errors.ForeignKeyViolation):
                client.execute("UPDATE records_gamerecord SET id = id + 1000 WHERE id = %s", [record.pk])
        assert Event.objects.filter(record_id=record.pk).count() == 1

    @pytest.mark.django_db(transaction=True)
    def test_the_test_flush_still_empties_the_tables_and_puts_the_guards_back(self):
        """The flush between transactional tests lifts the triggers for itself only."""
        record = seeded_record()
        stored = append_nth(record, 0)
        # As the runner flushes (pytest-django's TransactionTestCase teardown): the sequences and the
        # content types kept. A flush resetting them would leave this process's cached content
        # type ids pointing at nothing, and the next test's outbox message failing at commit.
        call_command("flush", interactive=False, verbosity=0, reset_sequences=False, inhibit_post_migrate=True)
        assert not Event.objects.exists() and not GameRecord.objects.exists()
        record = seeded_record()
        stored = append_nth(record, 0)
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("DELETE FROM records_event WHERE id = %s", [stored.pk])
        if connection.vendor == "sqlite":
            with pytest.raises(DatabaseError, match="never deleted"):
                with transaction.atomic(), connection.cursor() as cursor:
                    cursor.execute("DELETE FROM records_gamerecord WHERE id = %s", [record.pk])
        assert Event.objects.filter(pk=stored.pk).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
class TestConcurrentWriters:
    def _race(self, record_id: int, writers: int, work) -> list[object]:
        barrier = threading.Barrier(writers)
        outcomes: list[object] = [None] * writers

        def run(index: int) -> None:
            try:
                barrier.wait()
                outcomes[index] = work(GameRecord.objects.get(pk=record_id), index)
            except Exception as error:  # noqa: BLE001 - the outcome is what the test inspects
                outcomes[index] = error
            finally:
                connections.close_all()

        threads = [threading.Thread(target=run, args=(i,)) for i in range(writers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return outcomes

    def test_two_writers_on_the_same_seq_one_wins_one_gets_a_conflict(self):
        record = seeded_record()
        kind, payload = event(0)
        outcomes = self._race(record.pk, 2, lambda rec, i: append_event(rec, 0, kind, payload))
        winners = [o for o in outcomes if isinstance(o, Event)]
        conflicts = [o for o in outcomes if isinstance(o, SeqConflict)]
        assert len(winners) == 1 and len(conflicts) == 1, outcomes
        assert conflicts[0].details == {"current_seq": 1}
        assert list(Event.objects.filter(record=record).values_list("seq", flat=True)) == [1]

    def test_many_retrying_writers_leave_no_gap_and_no_duplicate(self):
        record = seeded_record()

        def append_until_stored(rec: GameRecord, index: int) -> int:
            """Each writer records the next action of the game, retrying on conflicts."""
            conflicts = 0
            while True:
                seen = Event.objects.filter(record=rec).count()
                kind, payload = event(seen)
                try:
                    append_event(rec, seen, kind, payload, idempotency_key=f"writer-{index}")
                    return conflicts
                except SeqConflict:
                    conflicts += 1

        outcomes = self._race(record.pk, 6, append_until_stored)
        assert all(isinstance(o, int) for o in outcomes), outcomes
        stored = list(Event.objects.filter(record=record).order_by("seq"))
        assert [e.seq for e in stored] == list(range(1, 7))
        assert sorted(e.idempotency_key for e in stored) == [f"writer-{i}" for i in range(6)]
        assert [(e.type, e.payload) for e in stored] == [event(i) for i in range(6)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_http_appends_answer_one_201_and_one_409():
    user = User.objects.create_user("keeper", password="pw")
    record = seeded_record(created_by=user)
    kind, payload = event(0)
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def post(index: int) -> None:
        client = APIClient()
        client.force_authenticate(user)
        barrier.wait()
        response = client.post(
            f"/api/records/{record.pk}/events/",
            {"expected_seq": 0, "type": kind, "payload": payload},
            format="json",
        )
        statuses.append(response.status_code)
        connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409]
    assert Event.objects.filter(record=record).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_snapshots_are_stored_as_json_text_and_read_back_as_written(settings):
    """Snapshot states go into a ``json`` column (written whole, read whole, never parsed into
    jsonb); the append path's single statement, the ORM and the replay's read all agree on it."""
    from records import replay
    from records.models import Snapshot

    settings.LUDOLOG_SNAPSHOT_EVERY = 3
    record = seeded_record()
    for index in range(7):
        append_nth(record, index)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_typeof(state)::text FROM records_snapshot WHERE record_id = %s LIMIT 1", [record.pk])
        assert cursor.fetchone() == ("json",)
    stored = dict(Snapshot.objects.filter(record=record).values_list("seq", "state"))
    assert sorted(stored) == [3, 6]
    engine = replay.engine_for(record)
    for seq, data in stored.items():
        replayed, _ = replay.state_at(record, seq, use_snapshots=False)
        assert data == engine.snapshot(replayed)
        # Read through the snapshot (the union of its json state and the jsonb payloads after it).
        through_snapshot, _ = replay.state_at(record, seq + 1)
        fresh, _ = replay.state_at(record, seq + 1, use_snapshots=False)
        assert engine.snapshot(through_snapshot) == engine.snapshot(fresh)
    # The ORM's path (rebuild) writes json too, and the same states.
    assert replay.rebuild_snapshots(GameRecord.objects.get(pk=record.pk)) == 2
    assert dict(Snapshot.objects.filter(record=record).values_list("seq", "state")) == stored
