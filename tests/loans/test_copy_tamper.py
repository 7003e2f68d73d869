"""The loans under the same tamper evidence as the game records (issue 37), as an attacker meets it.

Each copy's events are chained (loans.integrity) and checkpointed by every desk write: a loan's
only ``lent`` event deleted, a loan moved to another household, a late fee set from 0.60 to 0.00
are each named by ``verify_events`` (copy, seq, what) with exit 1; a copy's chain rewritten
together with its stored checkpoint passes the store alone but not the checkpoint file the beat
keeps. ``rebuild_copy_states`` refuses to fold a broken chain, naming the copy; the desk's copy
page and the API answer 409 ``copy_tampered``, never a 500. On SQLite the copy events have their
append-only triggers too. Migration 0010, which chains and checkpoints the copy events stored
before it, is tested in the SQLite file that takes the game records' events through theirs
(``tests/records/test_event_integrity.py``): one file migrated from nothing rather than two.

Every edit is made as an attacker with database access would: raw SQL with the triggers off (a
PostgreSQL superuser's replica mode, dropped SQLite triggers), rolled back with the test.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.test import override_settings

from loans import integrity, memberships, services
from loans.errors import CopyChainsBroken
from loans.immutability import TRIGGERS
from loans.models import CopyCheckpoint, CopyEvent, CopyState
from records import tasks as records_tasks

pytestmark = pytest.mark.django_db

LENT_ON = dt.date(2026, 12, 1)
BACK_LATE = dt.date(2026, 12, 25)
"""Due on 22 December (21 days): three days late at 0.20 a day, 0.60."""


def verify_command(*args: str) -> tuple[int, str]:
    """``verify_events`` in this process: its exit status and what it printed."""
    out = StringIO()
    try:
        call_command("verify_events", *args, stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


def copy_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("copy ")]


@contextmanager
def attacker() -> Iterator:
    """A cursor with the copy events' append-only guards off, as a PostgreSQL superuser (replica
    mode skips every trigger) or someone holding the SQLite file (who drops them) has it. The
    guards come back with the test's rollback."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            for trigger in TRIGGERS["sqlite"]:
                cursor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        else:
            cursor.execute("SET LOCAL session_replication_role = replica")
        yield cursor
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")


@pytest.fixture
def lent(copies, household, desk_user):
    """Copy 0 lent to the Martins (its only event, ``lent``, seq 1)."""
    services.lend(copies[0], household, desk_user, today=LENT_ON)
    return copies[0]


@pytest.fixture
def returned_late(copies, household, desk_user):
    """Copy 1 lent, then taken back three days late: seq 2 is ``returned`` with a fee of 0.60."""
    services.lend(copies[1], household, desk_user, today=LENT_ON)
    result = services.return_copy(copies[1], desk_user, today=BACK_LATE)
    assert result.late_fee == Decimal("0.60")
    # Paid at the desk: a household owing late fees borrows nothing more (issue 39's default rule).
    memberships.pay_late_fee(desk_user, household, amount=result.late_fee, method="cash", today=BACK_LATE)
    return copies[1]


@pytest.fixture
def untouched(copies, household, desk_user):
    services.lend(copies[2], household, desk_user, today=LENT_ON)
    services.return_copy(copies[2], desk_user, today=LENT_ON + dt.timedelta(days=5))
    return copies[2]


def set_payload(copy, seq: int, payload: dict) -> None:
    with attacker() as cursor:
        cursor.execute("UPDATE loans_copyevent SET payload = %s WHERE copy_id = %s AND seq = %s",
                       [json.dumps(payload), copy.pk, seq])


def rewrite_chain_from(copy, seq: int) -> None:
    """Recompute the hashes of the copy's events from ``seq`` on, and its stored checkpoint, as an
    attacker who read loans/integrity.py would after an edit: the store alone then verifies."""
    previous = CopyEvent.objects.get(copy=copy, seq=seq - 1).hash if seq > 1 else integrity.GENESIS
    with attacker() as cursor:
        for event in CopyEvent.objects.filter(copy=copy, seq__gte=seq).order_by("seq"):
            event.chain(previous)
            cursor.execute("UPDATE loans_copyevent SET hash = %s WHERE id = %s", [event.hash, event.pk])
            previous = event.hash
        cursor.execute("UPDATE loans_copycheckpoint SET head = %s WHERE copy_id = %s", [previous, copy.pk])


class TestWhatVerifyEventsFinds:
    def test_an_untouched_desk_verifies_and_every_desk_write_checkpoints_its_copy(self, lent, returned_late,
                                                                                    untouched):
        assert CopyCheckpoint.objects.get(copy=returned_late).last_seq == 2
        assert CopyCheckpoint.objects.get(copy=returned_late).head == CopyEvent.objects.get(
            copy=returned_late, seq=2).hash
        status, output = verify_command()
        assert status == 0, output
        assert "5 events in 3 copies" in output and "every hash matches" in output

    def test_a_loan_s_only_lent_event_deleted_is_named(self, lent, untouched):
        with attacker() as cursor:
            cursor.execute("DELETE FROM loans_copyevent WHERE copy_id = %s", [lent.pk])
        status, output = verify_command()
        assert status == 1
        assert copy_lines(output) == [f"copy {lent.pk} ({lent.barcode}) seq 1: event 1 is missing: its checkpoint "
                                      f"of {CopyCheckpoint.objects.get(copy=lent).checked_at:%Y-%m-%d %H:%M} UTC saw it"]
        assert "1 mismatch in 1 copy" in output

    def test_an_event_in_the_middle_deleted_is_named(self, returned_late, desk_user, household):
        services.lend(returned_late, household, desk_user, today=BACK_LATE)
        with attacker() as cursor:
            cursor.execute("DELETE FROM loans_copyevent WHERE copy_id = %s AND seq = 2", [returned_late.pk])
        status, output = verify_command()
        assert status == 1
        assert f"copy {returned_late.pk} ({returned_late.barcode}) seq 2: event 2 is missing" in output

    def test_a_loan_moved_to_another_household_is_named(self, lent, other_household, untouched):
        with attacker() as cursor:
            cursor.execute("UPDATE loans_copyevent SET household_id = %s WHERE copy_id = %s AND seq = 1",
                           [other_household.pk, lent.pk])
        status, output = verify_command()
        assert status == 1
        assert copy_lines(output) == [f"copy {lent.pk} ({lent.barcode}) seq 1: {integrity.ALTERED}"]

    def test_a_late_fee_set_to_nothing_is_named(self, returned_late, untouched):
        payload = CopyEvent.objects.get(copy=returned_late, seq=2).payload
        assert payload["late_fee"] == "0.60"
        set_payload(returned_late, 2, {**payload, "late_fee": "0.00"})
        status, output = verify_command()
        assert status == 1
        assert copy_lines(output) == [f"copy {returned_late.pk} ({returned_late.barcode}) seq 2: {integrity.ALTERED}"]

    def test_a_failed_copy_keeps_its_last_good_checkpoint_and_is_cleared_once_repaired(self, returned_late):
        good = CopyCheckpoint.objects.get(copy=returned_late)
        payload = CopyEvent.objects.get(copy=returned_late, seq=2).payload
        set_payload(returned_late, 2, {**payload, "late_fee": "0.00"})
        assert verify_command()[0] == 1
        failed = CopyCheckpoint.objects.get(copy=returned_late)
        assert (failed.last_seq, failed.head, failed.failed_at is not None) == (good.last_seq, good.head, True)
        assert failed.problems and "seq 2" in failed.problems[0]
        set_payload(returned_late, 2, payload)
        assert verify_command()[0] == 0
        assert CopyCheckpoint.objects.get(copy=returned_late).failed_at is None


class TestTheCheckpointFile:
    def test_a_chain_rewritten_with_its_checkpoint_is_caught_by_the_exported_file(self, returned_late, untouched,
                                                                                   tmp_path):
        path = tmp_path / "checkpoints.json"
        assert verify_command("--export", str(path))[0] == 0
        assert {line["copy"] for line in json.loads(path.read_text())["copies"]} == {returned_late.pk, untouched.pk}
        payload = CopyEvent.objects.get(copy=returned_late, seq=2).payload
        set_payload(returned_late, 2, {**payload, "late_fee": "0.00"})
        rewrite_chain_from(returned_late, 2)
        assert verify_command()[0] == 0, "the store alone no longer sees the edit"
        status, output = verify_command("--against", str(path))
        assert status == 1
        assert copy_lines(output) == [f"copy {returned_late.pk} ({returned_late.barcode}) seq 2: it is not the event "
                                      "the checkpoint file saw"]

    def test_the_beat_keeps_the_file_and_verify_events_reads_it_without_being_told_where(self, returned_late,
                                                                                        untouched, tmp_path):
        path = tmp_path / "var" / "checkpoints.json"
        with override_settings(LUDOLOG_CHECKPOINT_EXPORT=str(path)):
            assert records_tasks.verify_events() == 0
            assert path.exists(), "the beat's task writes the file where the setting says"
            payload = CopyEvent.objects.get(copy=returned_late, seq=2).payload
            set_payload(returned_late, 2, {**payload, "late_fee": "0.00"})
            rewrite_chain_from(returned_late, 2)
            written = path.read_text()
            assert records_tasks.verify_events() == 1
            assert path.read_text() == written, "a run that finds a problem leaves the file as it was"
            status, output = verify_command("--against")
        assert status == 1
        assert copy_lines(output) == [f"copy {returned_late.pk} ({returned_late.barcode}) seq 2: it is not the event "
                                      "the checkpoint file saw"]

    def test_the_beat_schedules_the_verification_and_a_place_for_the_file_is_configured(self):
        from django.conf import settings

        from ludolog import settings as project_settings

        assert settings.CELERY_BEAT_SCHEDULE["records-verify-events"]["task"] == "records.verify_events"
        assert project_settings.LUDOLOG_CHECKPOINT_EXPORT.endswith("checkpoints.json")

    def test_a_file_without_a_copies_section_checks_no_copy(self, returned_late, tmp_path):
        path = tmp_path / "checkpoints.json"
        assert verify_command("--export", str(path))[0] == 0
        with override_settings():
            from records import checkpoint_file

            document = json.loads(path.read_text())
            del document["copies"], document["hmac"]
            path.write_text(json.dumps({**document, "hmac": checkpoint_file.signature(document)}))
        assert verify_command("--against", str(path))[0] == 0


class TestTheDesk:
    def test_rebuild_copy_states_refuses_to_fold_a_broken_chain_and_names_the_copy(self, lent, untouched):
        states = list(CopyState.objects.order_by("copy_id").values())
        with attacker() as cursor:
            cursor.execute("DELETE FROM loans_copyevent WHERE copy_id = %s", [lent.pk])
        with pytest.raises(CopyChainsBroken) as refused:
            services.rebuild_copy_states()
        assert refused.value.copy_ids == [lent.pk]
        out = StringIO()
        with pytest.raises(CommandError) as failed:
            call_command("rebuild_copy_states", stdout=out)
        assert failed.value.returncode == 1 and f"copy {lent.pk}" in str(failed.value)
        assert f"copy {lent.pk} ({lent.barcode}) seq 1: event 1 is missing" in out.getvalue()
        assert list(CopyState.objects.order_by("copy_id").values()) == states, "the loan has not vanished"

    def test_the_copy_page_answers_409_the_moment_it_opens_on_a_tampered_copy(self, desk, lent, other_household):
        with attacker() as cursor:
            cursor.execute("UPDATE loans_copyevent SET household_id = %s WHERE copy_id = %s",
                           [other_household.pk, lent.pk])
        page = desk.get(f"/desk/copies/{lent.barcode}/")
        assert page.status_code == 409
        assert b'data-reason="copy_tampered"' in page.content and f"seq 1".encode() in page.content
        assert CopyCheckpoint.objects.get(copy=lent).failed_at is not None, "the verdict is kept"
        taken_back = desk.post(f"/desk/copies/{lent.barcode}/", {"action": "return"})
        assert taken_back.status_code == 409 and b"copy_tampered" in taken_back.content
        assert CopyEvent.objects.filter(copy=lent).count() == 1, "nothing is added to a broken chain"

    def test_the_api_answers_409_copy_tampered_once_verified(self, desk_api, lent, returned_late, household):
        set_payload(returned_late, 2, {"returned_on": BACK_LATE.isoformat(), "days_late": 3, "late_fee": "0.00"})
        assert verify_command()[0] == 1
        read = desk_api.get(f"/api/loans/copies/{returned_late.barcode}/")
        assert read.status_code == 409
        assert read.json()["reason"] == "copy_tampered" and "seq 2" in read.json()["problems"][0]
        lend = desk_api.post("/api/loans/lend/", {"copy": returned_late.barcode, "household": household.card_number},
                             format="json")
        assert lend.status_code == 409 and lend.json()["reason"] == "copy_tampered"
        assert desk_api.get(f"/api/loans/copies/{lent.barcode}/").status_code == 200, "other copies answer as before"

    def test_anyone_else_learns_only_that_the_copy_cannot_be_trusted(self, client, returned_late):
        set_payload(returned_late, 2, {"returned_on": BACK_LATE.isoformat(), "days_late": 3, "late_fee": "0.00"})
        assert verify_command()[0] == 1
        read = client.get(f"/api/loans/copies/{returned_late.barcode}/")
        assert read.status_code == 409 and read.json()["reason"] == "copy_tampered"
        assert read.json()["problems"] == []


class TestTheTriggers:
    def test_every_copy_event_trigger_is_installed_after_the_migrations(self):
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            else:
                cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
            installed = {row[0] for row in cursor.fetchall()}
        assert set(TRIGGERS[connection.vendor]) <= installed

    @pytest.mark.parametrize("statement", [
        "UPDATE loans_copyevent SET household_id = NULL",
        "DELETE FROM loans_copyevent",
    ])
    def test_the_database_refuses_any_client_changing_or_deleting_a_copy_event(self, lent, statement):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
        assert CopyEvent.objects.get(copy=lent).household_id is not None


def test_the_documented_form_is_pinned():
    """The form loans/integrity.py documents, hashed as its docstring says: changing it changes
    every stored hash."""
    text = integrity.canonical_copy_event(
        copy_id=3, seq=2, type="returned", payload={"late_fee": "0.60", "days_late": 3.0}, household_id=7,
        recorded_by_id=None, recorded_at=dt.datetime(2026, 12, 25, 9, 30, tzinfo=dt.timezone.utc), previous="ab" * 32)
    assert text == ('{"copy":3,"format":"ludolog-copy-event/1","household":7,"payload":{"days_late":3,'
                    '"late_fee":"0.60"},"previous":"' + "ab" * 32 + '","recorded_at":"2026-12-25T09:30:00.000000Z",'
                    '"recorded_by":null,"seq":2,"type":"returned"}')


