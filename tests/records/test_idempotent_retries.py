"""An idempotent retry always gets its event.

A client whose answer was lost sends the identical request again (same idempotency key, same
``expected_seq``), often at once, while its first try may still be in flight. Whatever the
interleaving, the retry is answered with the event the first try stored: never a
``seq_conflict`` naming the seq its own first try took, never ``idempotency_key_reused``
because the engine completed the stored payload (the drawn tile of a seeded game).

The two races are forced deterministically on PostgreSQL with real connections, one per
thread: the test holds the first try's transaction open until the retry has reached the point
the race is about.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from rest_framework.test import APIClient

from records import replay
from records.errors import IdempotencyKeyReused
from records.models import Event
from records.services import append_event
from tests.factories import event, seeded_record

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 20.0
"""Seconds a thread waits for the other before the test fails (never reached when all is well)."""


def _first_move_without_its_tile() -> tuple[str, dict[str, Any]]:
    kind, payload = event(0)
    del payload["tile"]  # a seeded game: the engine draws it, and the stored payload names it
    return kind, payload


def test_an_identical_retry_of_an_append_the_engine_completed_gets_the_stored_event():
    record = seeded_record()
    kind, request = _first_move_without_its_tile()
    first = append_event(record, 0, kind, dict(request), idempotency_key="move-1")
    assert first.payload["tile"] == event(0)[1]["tile"]
    retry = append_event(record, 0, kind, dict(request), idempotency_key="move-1")
    assert (retry.pk, retry.seq, retry.payload) == (first.pk, 1, first.payload)
    assert Event.objects.filter(record=record).count() == 1


def test_the_same_key_with_another_request_is_still_refused():
    record = seeded_record()
    kind, request = _first_move_without_its_tile()
    append_event(record, 0, kind, dict(request), idempotency_key="move-1")
    other = dict(request, rotation=(request["rotation"] + 90) % 360)
    with pytest.raises(IdempotencyKeyReused):
        append_event(record, 0, kind, other, idempotency_key="move-1")
    # The completed payload sent back as a request is another request than the one first sent.
    with pytest.raises(IdempotencyKeyReused):
        append_event(record, 0, kind, dict(event(0)[1], tile="L01"), idempotency_key="move-1")


def test_an_identical_retry_over_the_api_answers_the_stored_event():
    record = seeded_record()
    user = User.objects.create_user("keeper")
    record.scorekeepers.add(user)
    api = APIClient()
    api.force_authenticate(user)
    kind, request = _first_move_without_its_tile()
    body = {"expected_seq": 0, "type": kind, "payload": request, "idempotency_key": "move-1"}
    first = api.post(f"/api/records/{record.pk}/events/", body, format="json")
    retry = api.post(f"/api/records/{record.pk}/events/", body, format="json")
    assert first.status_code == 201, first.content
    assert retry.status_code in (200, 201), retry.content
    assert retry.json() == first.json()


class Race:
    """A first try and its retry in two threads, each on its own database connection."""

    def __init__(self) -> None:
        self.record = seeded_record()
        self.kind, self.request = _first_move_without_its_tile()
        self.first_stored = threading.Event()  # inserted, not committed
        self.first_committed = threading.Event()
        self.results: dict[str, Any] = {}

    def append(self) -> Event:
        return append_event(self.record, 0, self.kind, dict(self.request), idempotency_key="move-1")

    def run(self, commit_when: Callable[[], None], retry_before: Callable[[], None] | None = None) -> None:
        def first() -> None:
            try:
                with transaction.atomic():
                    self.results["first"] = self.append()
                    self.first_stored.set()
                    commit_when()
                self.first_committed.set()
            except BaseException as error:  # reported by the test below, not lost in the thread
                self.results["first"] = error
                self.first_stored.set()
                self.first_committed.set()
            finally:
                connection.close()

        def retry() -> None:
            try:
                assert self.first_stored.wait(WAIT)
                self.results["retry_pid"] = connection.cursor().connection.info.backend_pid
                if retry_before is not None:
                    retry_before()
                self.results["retry"] = self.append()
            except BaseException as error:
                self.results["retry"] = error
            finally:
                connection.close()

        threads = [threading.Thread(target=first, name="first"), threading.Thread(target=retry, name="retry")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 2)
        assert not any(thread.is_alive() for thread in threads)


def _waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


@pytest.mark.postgres
def test_a_retry_whose_insert_meets_the_first_try_in_flight_gets_the_first_try_s_event():
    """The retry found nothing stored and inserts; the first try's row, not yet committed,
    holds the place: the retry's insert waits on the unique index until the first try commits,
    is refused, and the retry reads the event by its key."""
    race = Race()

    def commit_once_the_retry_waits_on_our_row() -> None:
        deadline = time.monotonic() + WAIT
        while "retry_pid" not in race.results or not _waiting_on_a_lock(race.results["retry_pid"]):
            assert time.monotonic() < deadline, "the retry never waited on the first try's row"
            time.sleep(0.01)

    race.run(commit_once_the_retry_waits_on_our_row)
    first, retry = race.results["first"], race.results["retry"]
    assert isinstance(first, Event), first
    assert isinstance(retry, Event), retry
    assert (retry.pk, retry.seq, retry.payload) == (first.pk, 1, first.payload)
    assert Event.objects.filter(record=race.record).count() == 1


@pytest.mark.postgres
def test_a_retry_that_finds_its_place_taken_by_its_own_first_try_gets_that_event(monkeypatch):
    """The retry looked for its key before the first try committed (nothing there), then the
    first try commits, then the retry reads where the record stands: its place is taken — by
    itself. It must answer the stored event, not a seq conflict."""
    race = Race()
    retry_looked = threading.Event()
    catch_up = replay.current_state_and_head

    def catch_up_after_the_first_try_committed(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == "retry":
            retry_looked.set()
            assert race.first_committed.wait(WAIT)
        return catch_up(*args, **kwargs)

    monkeypatch.setattr(replay, "current_state_and_head", catch_up_after_the_first_try_committed)
    race.run(lambda: retry_looked.wait(WAIT))
    first, retry = race.results["first"], race.results["retry"]
    assert retry_looked.is_set(), "the retry never read where the record stands: the race did not happen"
    assert isinstance(first, Event), first
    assert isinstance(retry, Event), retry
    assert (retry.pk, retry.seq, retry.payload) == (first.pk, 1, first.payload)
    assert Event.objects.filter(record=race.record).count() == 1
