"""Tamper evidence and bounds of the event store.

* Every event's hash chains it to the event before it in its record (records.integrity), and
  ``verify_events`` names each record and seq that no longer matches: an event altered by a
  superuser with the triggers off (PostgreSQL) or by someone editing the file (SQLite) is found.
* Migration 0006 chains the events already stored, and every guard trigger is in place after
  the migrations. On SQLite one file goes through every migration that takes over what was
  stored before it (players' keys 0005, the chain 0006, the checkpoints 0017, the copy events'
  chain, loans 0010); on PostgreSQL the chain and the players' keys.
* A record takes at most ``LUDOLOG_MAX_EVENTS_PER_RECORD`` events: the next answers 409
  ``record_full`` and stores nothing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import uuid
from datetime import timedelta
from io import StringIO
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from records import integrity, state_cache
from records.files import import_document
from records.immutability import TRIGGERS
from records.integrity import GENESIS, StoredEvent, canonical_event, canonical_json, event_hash
from records.models import Event, EventVerification, GameRecord
from records.selectors import AppendTarget
from records.services import RecordFull, append_event
from tests.factories import (
    ROOT, VERIFIED_APPS, event, keeper_api, manage_py, plain_postgresql_client, post_event, seeded_record, simulated_document,
    sqlite_env,
)



def append_game(record: GameRecord, count: int, **kwargs) -> list[Event]:
    """The first ``count`` actions of the simulated game of the record's seed."""
    return [append_event(record, index, *event(index, seed=record.seed), **kwargs) for index in range(count)]


def verify_command(*args: str) -> tuple[int, str]:
    """``verify_events`` in this process: its exit status and what it printed."""
    out = StringIO()
    try:
        call_command("verify_events", *args, stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


class TestCanonicalForm:
    CONTENT = dict(
        record_id=7, seq=2, type="place_tile",
        payload={"tile": "L17", "x": 1, "y": -1, "rotation": 90.0, "figure": "hunter", "note": "Chloé"},
        recorded_at=dt.datetime(2026, 3, 1, 21, 15, 30, 250000, tzinfo=dt.timezone(timedelta(hours=1))),
        recorded_by_id=3, idempotency_key="tap-42", previous="ab" * 32,
    )

    def test_the_documented_form_and_its_hash_are_pinned(self):
        """Changing either changes every stored hash: it needs a new format name and a migration."""
        text = (
            '{"format":"ludolog-event/1","idempotency_key":"tap-42","payload":{"figure":"hunter",'
            '"note":"Chlo\\u00e9","rotation":90,"tile":"L17","x":1,"y":-1},"previous":"' + "ab" * 32 + '",'
            '"record":7,"recorded_at":"2026-03-01T20:15:30.250000Z","recorded_by":3,"seq":2,"type":"place_tile"}'
        )
        assert canonical_event(**self.CONTENT) == text
        assert event_hash(**self.CONTENT) == hashlib.sha256(text.encode("ascii")).hexdigest()
        assert event_hash(**self.CONTENT) == "6f4da764b83ec6b00f91bd790e6cd0f6a9d7de5f3565d0a3be02b25df40c8df8"

    def test_numbers_hash_alike_however_a_database_gives_them_back(self):
        """PostgreSQL's jsonb gives 1e2 back as 100 and keeps 4.0; SQLite keeps the text."""
        assert canonical_json({"a": 4.0, "b": 1e2, "c": 1e20}) == canonical_json({"a": 4, "b": 100, "c": 10**20})
        assert canonical_json([0.1, 1.5e-10, True, None]) == "[0.1,1.5e-10,true,null]"
        with pytest.raises(ValueError):
            canonical_json({"a": float("nan")})

    @pytest.mark.parametrize(
        "field, value",
        [("record_id", 8), ("seq", 3), ("type", "discard"), ("payload", {"tile": "L18"}),
         ("recorded_at", dt.datetime(2026, 3, 1, 20, 15, 31, tzinfo=dt.timezone.utc)), ("recorded_by_id", None),
         ("idempotency_key", None), ("previous", GENESIS)],
    )
    def test_each_part_of_the_content_changes_the_hash(self, field, value):
        assert event_hash(**{**self.CONTENT, field: value}) != event_hash(**self.CONTENT)


def chain(*payloads: dict, record_id: int = 1) -> list[StoredEvent]:
    """Events of one record, hashed as append_event would."""
    events, previous = [], GENESIS
    at = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    for seq, payload in enumerate(payloads, start=1):
        digest = event_hash(record_id=record_id, seq=seq, type="note", payload=payload, recorded_at=at,
                            recorded_by_id=None, idempotency_key=None, previous=previous)
        events.append(StoredEvent(record_id, seq, "note", payload, at, None, None, digest))
        previous = digest
    return events


class TestVerification:
    def test_intact_chains_verify(self):
        result = integrity.verify([*chain({"n": 1}, {"n": 2}), *chain({"n": 1}, record_id=2)])
        assert (result.ok, result.records, result.events) == (True, 2, 3)

    def test_an_altered_event_is_named_and_its_successor_still_links(self):
        events = chain({"n": 1}, {"n": 2}, {"n": 3})
        events[1] = StoredEvent(**{**events[1].__dict__, "payload": {"n": 20}})
        assert [str(m) for m in integrity.verify(events).mismatches] == [f"record 1 seq 2: {integrity.ALTERED}"]

    def test_an_altered_event_whose_hash_was_rewritten_breaks_the_next_link(self):
        events = chain({"n": 1}, {"n": 2}, {"n": 3})
        forged = StoredEvent(**{**events[1].__dict__, "payload": {"n": 20}})
        events[1] = StoredEvent(**{**forged.__dict__, "hash": forged.expected_hash(events[0].hash)})
        assert [(m.record_id, m.seq) for m in integrity.verify(events).mismatches] == [(1, 3)]

    def test_a_missing_event_is_named(self):
        events = chain({"n": 1}, {"n": 2}, {"n": 3}, {"n": 4})
        del events[1:3]
        assert [str(m) for m in integrity.verify(events).mismatches] == [
            "record 1 seq 2: events 2 to 3 are missing", f"record 1 seq 4: {integrity.ALTERED}",
        ]


@pytest.mark.django_db
class TestChainedWrites:
    def test_appended_events_are_chained_from_the_start(self):
        """The first to the record's header (its game, ruleset, seed, set-up and seats)."""
        record = seeded_record()
        stored = append_game(record, 5, idempotency_key=None)
        previous = integrity.header_digests([record.pk])[record.pk]
        assert previous != GENESIS
        for stored_event in Event.objects.filter(record=record).order_by("seq"):
            assert stored_event.hash == StoredEvent(
                record.pk, stored_event.seq, stored_event.type, stored_event.payload, stored_event.recorded_at,
                stored_event.recorded_by_id, stored_event.idempotency_key, "",
            ).expected_hash(previous)
            previous = stored_event.hash
        assert [e.hash for e in stored] == list(Event.objects.filter(record=record).values_list("hash", flat=True))

    def test_appends_with_keys_users_and_a_cold_cache_chain_too(self, django_user_model):
        user = django_user_model.objects.create_user("keeper")
        record = seeded_record()
        append_game(record, 3, recorded_by=user)
        state_cache.clear()  # another process, or this one after its cache lost the record
        append_event(record, 3, *event(3), idempotency_key="tap-4", recorded_by=user)
        assert integrity.verify_store(record.pk).ok

    def test_an_imported_record_file_is_chained(self):
        record = import_document(simulated_document("hunters-gatherers", 3, 4))
        result = integrity.verify_store(record.pk)
        assert result.ok and result.events == record.events.count() > 30

    def test_an_event_saved_by_another_writer_is_chained_to_the_stored_one(self):
        record = seeded_record()
        append_game(record, 2)
        Event.objects.create(record=record, seq=3, type="note", payload={})
        assert integrity.verify_store(record.pk).ok

    def test_verify_events_prints_the_count_and_stores_the_result_when_every_hash_matches(self):
        append_game(seeded_record(), 4)
        append_game(seeded_record(seed=2), 2)
        status, output = verify_command()
        assert status == 0 and output.strip() == "6 events in 2 records checked: every hash matches"
        last = EventVerification.objects.get()
        assert (last.only_record_id, last.records_checked, last.events_checked, last.mismatch_count) == (None, 2, 6, 0)

    def test_verify_events_checks_one_record_and_refuses_an_unknown_one(self):
        record = seeded_record()
        append_game(record, 3)
        append_game(seeded_record(seed=2), 2)
        assert verify_command("--record", str(record.pk)) == (0, "3 events in 1 record checked: every hash matches\n")
        with pytest.raises(CommandError, match="no record"):
            call_command("verify_events", "--record", str(record.pk + 1000))

    def test_an_event_edited_with_the_guard_trigger_off_is_named(self):
        """On the suite's own database, whichever it is: someone who may turn the append-only
        trigger off (the table's owner) edits an event; the chain names it. The trigger comes
        back with the test's rollback."""
        record = seeded_record()
        append_game(record, 4)
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("DROP TRIGGER records_event_no_update")
            else:  # the deferred foreign keys checked first: a table with pending checks cannot be altered
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute("ALTER TABLE records_event DISABLE TRIGGER records_event_append_only")
            cursor.execute("UPDATE records_event SET payload = %s WHERE record_id = %s AND seq = 2",
                           [json.dumps({**event(1)[1], "x": 40}), record.pk])
        status, output = verify_command()
        assert status == 1
        assert f"record {record.pk} seq 2: {integrity.ALTERED}" in output.splitlines()
        assert "1 mismatch in 1 record (4 events in 1 record checked)" in output
        assert EventVerification.objects.get().mismatches == [f"record {record.pk} seq 2: {integrity.ALTERED}"]


def run_manage(database: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=sqlite_env(database),
                          capture_output=True, text=True)


def test_verify_events_names_an_event_edited_in_the_sqlite_file(migrated_sqlite, tmp_path):
    """Someone with the file: drops the trigger with the sqlite3 module and edits an event."""
    game = tmp_path / "game.json"
    game.write_text(json.dumps(simulated_document("hunters-gatherers", 2, 5)))
    intact = manage_py(sqlite_env(migrated_sqlite), ["import_record", str(game)], ["verify_events"])
    assert intact.returncode == 0, intact.stderr
    imported, checked = intact.stdout.splitlines()[-2:]  # the record's id, then what verify_events found
    record_id = int(imported)
    assert checked.endswith("in 1 record checked: every hash matches")

    db = sqlite3.connect(migrated_sqlite)
    db.execute("DROP TRIGGER records_event_no_update")
    db.execute("UPDATE records_event SET recorded_by_id = 1 WHERE record_id = ? AND seq = 7", [record_id])
    db.execute("UPDATE records_event SET type = 'discard' WHERE record_id = ? AND seq = 9", [record_id])
    db.commit()
    tampered = run_manage(migrated_sqlite, "verify_events")
    assert tampered.returncode == 1
    assert tampered.stdout.splitlines() == [
        f"record {record_id} seq 7: {integrity.ALTERED}", f"record {record_id} seq 9: {integrity.ALTERED}",
    ]
    assert "2 mismatches in 1 record" in tampered.stderr


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_verify_events_names_an_event_a_superuser_edited_with_the_triggers_off():
    record = seeded_record()
    append_game(record, 5)
    other = seeded_record(seed=2)
    append_game(other, 3)
    with plain_postgresql_client() as superuser:
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="append-only"):
            superuser.execute("UPDATE records_event SET payload = '{}' WHERE record_id = %s", [record.pk])
        superuser.execute("SET session_replication_role = replica")
        superuser.execute(
            "UPDATE records_event SET payload = jsonb_set(payload, '{x}', '40') WHERE record_id = %s AND seq = 3",
            [record.pk],
        )
    status, output = verify_command()
    assert status == 1
    assert output.splitlines()[0] == f"record {record.pk} seq 3: {integrity.ALTERED}"
    assert "1 mismatch in 1 record (8 events in 2 records checked)" in output
    assert verify_command("--record", str(other.pk))[0] == 0


@pytest.mark.slow(seconds=25)
def test_the_migrations_chain_and_checkpoint_what_was_stored_before_them_on_sqlite(tmp_path):
    """One SQLite file through the migrations that take over what was stored before them, as a
    club's file of then would go: players before records 0005 (their name keys), events before
    0006 (their hash chain), records before 0017 (their checkpoints), a desk's copy events before
    loans 0010 (their chain and checkpoints). Each is its own migration test's worth, and each
    migrated the file from nothing again (four files, fifteen processes; now one file, four).

    The file is migrated as far as records 0007 and taken back to 0004 (0007 to 0005 reversed
    alone: reversing 0006 puts the triggers back), then only as far as each stage needs."""
    database = tmp_path / "ledger.sqlite3"
    env = sqlite_env(database)
    back = manage_py(env, ["migrate", "records", "0007", "-v0"], ["migrate", "records", "0004", "-v0"])
    assert back.returncode == 0, back.stderr
    db = sqlite3.connect(database)
    assert {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")} == {
        "records_event_no_update", "records_event_no_delete",
    }
    insert_legacy_players(db, "?")
    insert_legacy_events(db, "?")
    db.commit()
    db.close()
    # loans 0009 takes records as far as 0021: 0005, 0006 and 0017 have run.
    up_to_loans_0009 = manage_py(env, ["migrate", "loans", "0009", "-v0"])
    assert up_to_loans_0009.returncode == 0, up_to_loans_0009.stderr
    with sqlite3.connect(database) as db:
        copies = insert_legacy_copy_events(db)
    verified = manage_py(env, *(["migrate", app, "-v0"] for app in VERIFIED_APPS), ["verify_events"])
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout == f"3 events in 2 records, {copies[0]} events in {copies[1]} copies checked: every hash matches\n"

    db = sqlite3.connect(database)
    assert_player_keys(db)
    # The event store's own triggers; the copy events' (loans 0011) below.
    assert {name for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name LIKE 'records%'")} == set(
        TRIGGERS["sqlite"]
    )
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE records_event SET hash = ''")
    assert db.execute("SELECT COUNT(*) FROM loans_copyevent WHERE hash = ''").fetchone() == (0,)
    assert db.execute("SELECT COUNT(*) FROM loans_copycheckpoint").fetchone() == (copies[1],)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM loans_copyevent")
    # 0017 kept each stored record's header in its checkpoint: a seed changed since is found.
    record_id = db.execute("SELECT min(id) FROM records_gamerecord").fetchone()[0]
    db.execute("UPDATE records_gamerecord SET seed = 5 WHERE id = ?", [record_id])
    db.commit()
    db.close()
    tampered = run_manage(database, "verify_events")
    assert tampered.returncode == 1 and f"record {record_id}" in tampered.stdout, tampered.stdout


def insert_legacy_players(db, mark: str) -> None:
    """Players as a store before records 0005 held them (no name key)."""
    for name in ("Chloé", " Gaspard  LE Roux"):
        db.execute(f"INSERT INTO records_player (display_name) VALUES ({mark})", [name])


def assert_player_keys(db) -> None:
    """Records 0005 gave the players stored before it their keys."""
    assert dict(db.execute("SELECT display_name, name_key FROM records_player").fetchall()) == {
        "Chloé": "chloe", " Gaspard  LE Roux": "gaspard le roux",
    }


def insert_legacy_copy_events(db) -> tuple[int, int]:
    """A desk's day as the desk before loans 0010 wrote it: two copies, three copy events (no
    hash). Returns how many events and copies."""
    db.execute("INSERT INTO games_cataloguerecord (id, title, document_type, contents, summary, notes, engine_slug,"
               " created_at, updated_at, cover, added_with_a_result) VALUES (1, 'Azul', '', '', '', '', '',"
               " '2026-01-01 00:00:00', '2026-01-01 00:00:00', '', 0)")
    db.executemany("INSERT INTO games_copy (id, barcode, shelf_location, status, missing_pieces, record_id)"
                   " VALUES (?, ?, '', 'available', '', 1)", [(1, "OLD-1"), (2, "OLD-2")])
    db.execute("INSERT INTO loans_household (id, name, card_number, fee_paid, deposit_held, loan_limit, notes, email,"
               " address, phone, postcode, town) VALUES (1, 'Martin', 'C-1', 1, 0, 3, '', '', '', '', '', '')")
    db.executemany("INSERT INTO loans_copyevent (copy_id, seq, type, payload, recorded_at, household_id)"
                   " VALUES (?, ?, ?, ?, ?, 1)", [
                       (1, 1, "lent", '{"lent_on": "2026-12-01", "due_on": "2026-12-22"}', "2026-12-01 10:00:00"),
                       (1, 2, "returned", '{"returned_on": "2026-12-25", "days_late": 3, "late_fee": "0.60"}',
                        "2026-12-25 10:00:00.123456"),
                       (2, 1, "lent", '{"lent_on": "2026-12-02", "due_on": "2026-12-23"}', "2026-12-02 10:00:00")])
    return db.execute("SELECT COUNT(*), COUNT(DISTINCT copy_id) FROM loans_copyevent").fetchone()


def insert_legacy_events(db, mark: str) -> None:
    """Two records and three events as a store before 0006 held them (no hash column)."""
    for slug in ("x", "y"):
        db.execute(
            "INSERT INTO records_gamerecord (game_slug, ruleset_version, played_on, location, status,"
            " is_private, result_only, created_at)"
            f" VALUES ({mark}, '', '2026-01-01', '', 'in_progress', false, true, '2026-01-01')", [slug]
        )
    for record_id, seq, key in ((1, 1, None), (1, 2, "k-2"), (2, 1, None)):
        db.execute(
            "INSERT INTO records_event (record_id, seq, type, payload, recorded_at, idempotency_key)"
            f" VALUES ((SELECT min(id) FROM records_gamerecord) + {record_id - 1}, {mark}, 'note',"
            f" '{{\"n\": 4.0, \"é\": [1e2]}}', '2026-01-01 20:15:30.25', {mark})",
            [seq, key],
        )


@pytest.mark.slow(seconds=18)
@pytest.mark.postgres
def test_migration_0006_chains_the_events_already_stored_on_postgresql():
    """In a throwaway database: the update trigger is lifted for the migration only. Migrated
    as far as 0004, it holds players stored before 0005 too, which gives them their name keys
    (the suite's database kind for that migration, without a scenario of its own)."""
    name = f"ludolog_c_migration_{uuid.uuid4().hex[:8]}"
    server = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    env = dict(os.environ, DATABASE_URL=f"{server}/{name}")
    env.pop("CELERY_BROKER_URL", None)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        migrated = manage_py(env, ["migrate", "records", "0004", "-v0"])
        assert migrated.returncode == 0, migrated.stderr
        with psycopg.connect(env["DATABASE_URL"], autocommit=True) as db:
            insert_legacy_players(db, "%s")
            insert_legacy_events(db, "%s")
        verified = manage_py(env, *(["migrate", app, "-v0"] for app in VERIFIED_APPS), ["verify_events"])
        assert verified.stdout == "3 events in 2 records checked: every hash matches\n", verified.stderr
        with psycopg.connect(env["DATABASE_URL"], autocommit=True) as db:
            assert_player_keys(db)
            enabled = dict(db.execute(
                "SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'records_event'::regclass AND NOT tgisinternal"
            ).fetchall())
            assert enabled == {name: "O" for name in TRIGGERS["postgresql"]}
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="append-only"):
                db.execute("UPDATE records_event SET hash = ''")
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.mark.django_db
def test_every_guard_trigger_is_installed_after_the_migrations():
    """A migration that rebuilds a table on SQLite drops its triggers: this notices."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'O'")
        installed = {name for (name,) in cursor.fetchall()}
    assert set(TRIGGERS[connection.vendor]) <= installed


@pytest.mark.django_db
class TestHealthAndSchedule:
    def test_health_reports_the_last_verification(self, client):
        append_game(seeded_record(), 3)
        integrity.verify_and_store()
        answer = client.get("/health/")
        assert answer.status_code == 200 and answer.json()["status"] == "ok"
        chains = answer.json()["event_chains"]
        assert (chains["records"], chains["events"], chains["mismatches"]) == (1, 3, 0)
        assert timezone.now() - dt.datetime.fromisoformat(chains["verified_at"]) < timedelta(minutes=1)

    def test_an_old_result_with_mismatches_does_not_fail_health(self, client):
        long_ago = timezone.now() - timedelta(days=400)
        EventVerification.objects.create(
            started_at=long_ago, finished_at=long_ago, records_checked=9, events_checked=90, mismatch_count=2,
            mismatches=["record 1 seq 2: …", "record 1 seq 3: …"],
        )
        answer = client.get("/health/")
        assert answer.status_code == 200 and answer.json()["status"] == "ok"
        assert answer.json()["event_chains"] == {
            "verified_at": long_ago.isoformat(), "records": 9, "events": 90, "mismatches": 2,
        }

    def test_one_record_s_verification_is_not_reported_as_the_store_s(self, client):
        record = seeded_record()
        append_game(record, 2)
        integrity.verify_and_store(record.pk)
        assert "event_chains" not in client.get("/health/").json()

    def test_the_beat_schedule_runs_the_verification_task(self):
        from ludolog.celery import app
        from records import tasks

        entry = settings.CELERY_BEAT_SCHEDULE["records-verify-events"]
        assert entry["task"] == "records.verify_events" and entry["schedule"] == settings.LUDOLOG_VERIFY_EVENTS_SECONDS
        app.loader.import_default_modules()
        assert "records.verify_events" in app.tasks
        append_game(seeded_record(), 2)
        assert tasks.verify_events.apply().get() == 0  # run here, whatever broker is configured
        assert EventVerification.objects.get().events_checked == 2

    def test_only_the_latest_results_are_kept(self):
        for _ in range(integrity.KEPT_RESULTS + 3):
            integrity.verify_and_store()
        assert EventVerification.objects.count() == integrity.KEPT_RESULTS


@pytest.mark.django_db
class TestEventCap:
    @pytest.fixture(autouse=True)
    def cap_of_three(self, settings):
        settings.LUDOLOG_MAX_EVENTS_PER_RECORD = 3

    def test_the_append_past_the_cap_answers_409_record_full_and_stores_nothing(self, django_user_model):
        api = keeper_api()
        record = seeded_record(created_by=django_user_model.objects.get(username="keeper"))
        for index in range(3):
            assert post_event(api, record.pk, index, *event(index)).status_code == 201
        refused = post_event(api, record.pk, 3, *event(3))
        assert refused.status_code == 409
        assert refused.json() == {
            "reason": "record_full", "detail": "the record already holds 3 events, the most a record may hold",
            "limit": 3,
        }
        assert Event.objects.filter(record=record).count() == 3

    def test_the_cap_is_checked_after_retries_and_conflicts_and_keeps_the_cache_usable(self):
        record = seeded_record()
        stored = [append_event(record, i, *event(i), idempotency_key=f"k-{i}") for i in range(3)]
        assert append_event(record, 2, *event(2), idempotency_key="k-2").pk == stored[2].pk  # a retry
        with pytest.raises(RecordFull) as full:
            append_event(record, 3, *event(3))
        assert (full.value.status_code, full.value.details) == (409, {"limit": 3})
        with override_settings(LUDOLOG_MAX_EVENTS_PER_RECORD=4):
            assert append_event(record, 3, *event(3)).seq == 4
        assert integrity.verify_store(record.pk).ok


@pytest.mark.django_db(transaction=True)
def test_a_warm_append_still_reads_no_hash_from_the_database(django_assert_num_queries):
    """The previous hash travels with the cached state: the append is its insert alone."""
    state_cache.clear()
    record = seeded_record()
    append_game(record, 2)
    target = AppendTarget(record, 2, record.ruleset_version, dict(record.setup), may_append=True, may_read=True)
    with django_assert_num_queries(1):
        append_event(target, 2, *event(2))
    state_cache.clear()
    assert integrity.verify_store(record.pk).ok

