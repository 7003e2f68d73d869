"""Tamper evidence for the event store: every event's hash chains it to the event before it.

The triggers of :mod:`records.immutability` stop clients; they cannot stop a database superuser
who switches them off (``SET session_replication_role = replica``) or someone editing the
database file. The chain does not prevent such an edit, it makes it visible: each event stores
the SHA-256 of its own content together with the hash of the previous event of its record, and
``python manage.py verify_events`` recomputes every link and names the events that no longer
match.

The canonical form (``ludolog-event/1``) of an event is one JSON object with these keys::

    {"format": "ludolog-event/1", "idempotency_key": <string or null>, "payload": <object>,
     "previous": <previous event's hash, or 64 zeros for seq 1>, "record": <record id>,
     "recorded_at": "YYYY-MM-DDTHH:MM:SS.ffffffZ" (UTC, microseconds),
     "recorded_by": <user id or null>, "seq": <int>, "type": <string>}

written with its keys sorted at every level, no whitespace (``,`` and ``:``), non-ASCII
characters as ``\\uXXXX`` escapes, and numbers as JSON reads them back from any database: an
integral number (``4.0``, ``1e2``) written as an integer, any other float in Python's shortest
round-trip form. The hash is the lowercase hex SHA-256 of that ASCII text. PostgreSQL's ``jsonb``
stores ``4.0`` and ``1e2`` differently from the text sent; the canonical form makes both read
back to the hash they were stored with.

A chain cannot show that a record's *last* events were removed (nothing after them links to
them): ``verify_events`` reports the count of events it checked, so a drop between two runs is
visible in its stored results.

Changing this form changes every hash: it would need a new format name and a migration.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import EventVerification

FORMAT = "ludolog-event/1"
GENESIS = "0" * 64
"""The "previous hash" of a record's first event."""


def canonical_number(value: float) -> int | float:
    """A float as every database reads it back: integral ones as integers, exactly."""
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("NaN and infinities are not JSON")
    if value.is_integer():
        # Through its decimal text, as the database kept it: 1e+300 is 10**300, not the binary
        # float's own integer value.
        return int(Decimal(repr(value)))
    return value


def _canonical_value(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return canonical_number(value)
    if isinstance(value, dict):
        return {str(key): _canonical_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical_value(item) for item in value]
    raise TypeError(f"not JSON: {type(value).__name__}")


def canonical_json(value: Any) -> str:
    """The canonical JSON text of ``value`` (see the module's docstring).

    >>> canonical_json({"b": [1.0, 0.5], "a": "é"})
    '{"a":"\\\\u00e9","b":[1,0.5]}'
    """
    return json.dumps(
        _canonical_value(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )


def canonical_time(value: dt.datetime) -> str:
    """UTC with microseconds; a naive time (a project without time zones) is written as it is."""
    if value.tzinfo is not None:
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return value.strftime("%Y-%m-%dT%H:%M:%S.%f")


def canonical_event(
    *,
    record_id: int,
    seq: int,
    type: str,
    payload: Any,
    recorded_at: dt.datetime,
    recorded_by_id: int | None,
    idempotency_key: str | None,
    previous: str,
) -> str:
    return canonical_json({
        "format": FORMAT,
        "idempotency_key": idempotency_key,
        "payload": payload,
        "previous": previous,
        "record": record_id,
        "recorded_at": canonical_time(recorded_at),
        "recorded_by": recorded_by_id,
        "seq": seq,
        "type": type,
    })


def event_hash(**content: Any) -> str:
    """The hash of an event (the keyword arguments of :func:`canonical_event`).

    >>> import datetime as dt
    >>> event_hash(record_id=1, seq=1, type="note", payload={}, idempotency_key=None,
    ...            recorded_at=dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc), recorded_by_id=None,
    ...            previous=GENESIS)[:16]
    '536e1d42e99d0b3b'
    """
    return hashlib.sha256(canonical_event(**content).encode("ascii")).hexdigest()


@dataclass(frozen=True)
class StoredEvent:
    """One event as read back from the database, with the hash stored beside it."""

    record_id: int
    seq: int
    type: str
    payload: Any
    recorded_at: dt.datetime
    recorded_by_id: int | None
    idempotency_key: str | None
    hash: str

    def expected_hash(self, previous: str) -> str:
        return event_hash(
            record_id=self.record_id, seq=self.seq, type=self.type, payload=self.payload,
            recorded_at=self.recorded_at, recorded_by_id=self.recorded_by_id,
            idempotency_key=self.idempotency_key, previous=previous,
        )


@dataclass(frozen=True)
class Mismatch:
    record_id: int
    seq: int
    problem: str

    def __str__(self) -> str:
        return f"record {self.record_id} seq {self.seq}: {self.problem}"


@dataclass
class Verification:
    records: int = 0
    events: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


ALTERED = "its hash does not match its content and the previous event's hash"


def verify(events: Iterable[StoredEvent]) -> Verification:
    """Check every link of the chains of ``events``, ordered by record, then seq.

    Each event is checked against the hash *stored* for the event before it, so an edited event
    is named itself (its successor still links to the stored hash); an edit whose author also
    rewrote that event's hash is named at the next event, whose link then breaks. A missing
    event is named as such, and the event after the gap fails its link too.
    """
    result = Verification()
    record_id: int | None = None
    previous, next_seq = GENESIS, 1
    for event in events:
        if event.record_id != record_id:
            record_id, previous, next_seq = event.record_id, GENESIS, 1
            result.records += 1
        result.events += 1
        if event.seq != next_seq:
            missing = f"event {next_seq} is missing" if event.seq == next_seq + 1 else (
                f"events {next_seq} to {event.seq - 1} are missing"
            )
            result.mismatches.append(Mismatch(event.record_id, next_seq, missing))
        if event.hash != event.expected_hash(previous):
            result.mismatches.append(Mismatch(event.record_id, event.seq, ALTERED))
        previous, next_seq = event.hash, event.seq + 1
    return result


def stored_events(record_id: int | None = None, *, using: str = "default") -> Iterator[StoredEvent]:
    """The stored events (of one record, or all), ordered by record then seq, read in chunks."""
    from .models import Event  # models chain new events with this module's functions

    events = Event.objects.using(using).order_by("record_id", "seq")
    if record_id is not None:
        events = events.filter(record_id=record_id)
    columns = ("record_id", "seq", "type", "payload", "recorded_at", "recorded_by_id", "idempotency_key", "hash")
    for row in events.values_list(*columns).iterator(chunk_size=2000):
        yield StoredEvent(*row)


def verify_store(record_id: int | None = None, *, using: str = "default") -> Verification:
    return verify(stored_events(record_id, using=using))


KEPT_MISMATCHES = 100
"""How many mismatches a stored result lists (its count is always exact)."""
KEPT_RESULTS = 100
"""How many past results are kept."""


def verify_and_store(record_id: int | None = None) -> Verification:
    """Verify the chains (of one record, or all) and store the result for ``/health/``."""
    from django.utils import timezone

    from .models import EventVerification

    started_at = timezone.now()
    result = verify_store(record_id)
    EventVerification.objects.create(
        started_at=started_at,
        only_record_id=record_id,
        records_checked=result.records,
        events_checked=result.events,
        mismatch_count=len(result.mismatches),
        mismatches=[str(mismatch) for mismatch in result.mismatches[:KEPT_MISMATCHES]],
    )
    stale = EventVerification.objects.order_by("-finished_at", "-id").values_list("id", flat=True)[KEPT_RESULTS:]
    EventVerification.objects.filter(id__in=list(stale)).delete()
    return result


def last_full_verification() -> EventVerification | None:
    """The latest stored result of a whole-store verification, or None."""
    from .models import EventVerification

    return EventVerification.objects.filter(only_record_id__isnull=True).first()
