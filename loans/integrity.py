"""Tamper evidence for the loans desk: each copy's events chained and checkpointed, as the game
records' events are (:mod:`records.integrity`, whose canonical encoding this module uses).

The append-only triggers (PostgreSQL: migration 0002, SQLite: migration 0011) stop clients from
changing stored copy events; they cannot stop a database superuser who switches them off, or
someone editing the database file. A deleted ``lent`` event makes a loan vanish, a household
changed in one moves a loan to another family, a late fee set to 0.00 in a ``returned`` event's
payload forgives it. The hashes do not prevent such edits, they make them visible.

The chain
---------
Each copy event stores the SHA-256 of its content together with the hash of the copy's previous
event (for seq 1: :data:`~records.integrity.GENESIS`, 64 zeros). Its canonical form,
``ludolog-copy-event/1``, is one JSON object::

    {"copy": <copy id>, "format": "ludolog-copy-event/1", "household": <id or null>,
     "payload": <object>, "previous": <previous event's hash>,
     "recorded_at": "YYYY-MM-DDTHH:MM:SS.ffffffZ", "recorded_by": <user id or null>,
     "seq": <int>, "type": <string>}

written as :func:`records.integrity.canonical_json` writes every form of the event store (keys
sorted, no whitespace, ``\\uXXXX`` escapes, numbers as any database reads them back), hashed as
lowercase hex SHA-256 of that ASCII text. Changing it changes every hash: it would need a new
format name and a migration.

Checkpoints
-----------
A chain cannot show that its last links were removed. So each copy has a checkpoint
(:class:`loans.models.CopyCheckpoint`): its last seq and that event's hash, written in the same
transaction as every desk write (the head it just appended) and by every verification that
finds the copy intact. A verification checks that the store still holds what the checkpoint saw:
a deleted last event (the loan's only ``lent``) is named. A copy that fails keeps its last good
checkpoint with the problems found; the desk's page, its writes and the API answer 409
``copy_tampered`` for it, and ``rebuild_copy_states`` refuses to fold it.

Someone who can rewrite the database can rewrite the checkpoint and every hash after an edit as
well: the checkpoint file (:mod:`records.checkpoint_file`, section ``copies``), written by the
beat to ``LUDOLOG_CHECKPOINT_EXPORT`` and read by ``verify_events --against``, names each copy
that no longer holds what the file saw.

What stays out of reach, as for the records: events appended after the last checkpoint with
correctly computed hashes look like the desk's own.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from records.integrity import GENESIS, Stream, StreamVerification, canonical_json, canonical_time, one_snapshot

FORMAT = "ludolog-copy-event/1"
SECTION = "copies"
"""The copies' section of a checkpoint file."""


def canonical_copy_event(*, copy_id: int, seq: int, type: str, payload: Any, household_id: int | None,
                         recorded_by_id: int | None, recorded_at: dt.datetime, previous: str) -> str:
    return canonical_json({
        "copy": copy_id, "format": FORMAT, "household": household_id, "payload": payload, "previous": previous,
        "recorded_at": canonical_time(recorded_at), "recorded_by": recorded_by_id, "seq": seq, "type": type,
    })


def copy_event_hash(**content: Any) -> str:
    """The hash of a copy event (the keyword arguments of :func:`canonical_copy_event`).

    >>> copy_event_hash(copy_id=1, seq=1, type="lent", payload={"lent_on": "2026-12-01", "due_on": "2026-12-22"},
    ...                 household_id=7, recorded_by_id=None, previous=GENESIS,
    ...                 recorded_at=dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc))[:16]
    '9ce53900e7af58aa'
    """
    return hashlib.sha256(canonical_copy_event(**content).encode("ascii")).hexdigest()


@dataclass(frozen=True)
class StoredCopyEvent:
    """One copy event as read back from the database, with the hash stored beside it."""

    copy_id: int
    seq: int
    type: str
    payload: Any
    household_id: int | None
    recorded_by_id: int | None
    recorded_at: dt.datetime
    hash: str

    def expected_hash(self, previous: str) -> str:
        return copy_event_hash(copy_id=self.copy_id, seq=self.seq, type=self.type, payload=self.payload,
                               household_id=self.household_id, recorded_by_id=self.recorded_by_id,
                               recorded_at=self.recorded_at, previous=previous)


COLUMNS = ("copy_id", "seq", "type", "payload", "household_id", "recorded_by_id", "recorded_at", "hash")


@dataclass(frozen=True)
class Head:
    """What a checkpoint saw of a copy: its last seq and that event's hash (0 and "": none)."""

    copy_id: int
    last_seq: int = 0
    head: str = ""
    checked_at: dt.datetime | None = None


@dataclass(frozen=True)
class CopyMismatch:
    copy_id: int
    barcode: str | None
    seq: int | None
    problem: str

    def __str__(self) -> str:
        copy = f"copy {self.copy_id}" + (f" ({self.barcode})" if self.barcode else "")
        return f"{copy}: {self.problem}" if self.seq is None else f"{copy} seq {self.seq}: {self.problem}"


@dataclass(frozen=True)
class CopyCheck:
    copy_id: int
    mismatches: list[CopyMismatch]
    found: Head
    events: int

    @property
    def ok(self) -> bool:
        return not self.mismatches


ALTERED = ("its hash does not match its content (type, household, payload, who, when) and the previous "
           "event's hash")
FILE_SOURCE = "the checkpoint file"


def _missing(first: int, last: int, source: str) -> str:
    if first == last:
        return f"event {last} is missing: {source} saw it"
    return f"events {first} to {last} are missing: {source} saw them"


def verify_copy(copy_id: int, barcode: str | None, events: list[StoredCopyEvent],
                against: Iterable[tuple[str, Head]] = ()) -> CopyCheck:
    """Verify one copy's events (ordered by seq): every link of its chain, and that it still holds
    what each checkpoint of ``against`` saw (``(source, head)`` pairs, the source as the sentences
    name it). Each event is checked against the hash stored for the one before it, so an edited
    event is named itself; an edit whose author also rewrote its hash is named at the next."""
    found: list[CopyMismatch] = []
    previous, next_seq = GENESIS, 1
    for event in events:
        if event.seq != next_seq:
            gap = (f"event {next_seq} is missing" if event.seq == next_seq + 1
                   else f"events {next_seq} to {event.seq - 1} are missing")
            found.append(CopyMismatch(copy_id, barcode, next_seq, gap))
        if event.hash != event.expected_hash(GENESIS if event.seq == 1 else previous):
            found.append(CopyMismatch(copy_id, barcode, event.seq, ALTERED))
        previous, next_seq = event.hash, event.seq + 1
    hashes = {event.seq: event.hash for event in events}
    last = events[-1].seq if events else 0
    for source, head in against:
        if head.last_seq > last:
            found.append(CopyMismatch(copy_id, barcode, last + 1, _missing(last + 1, head.last_seq, source)))
        elif head.last_seq in hashes and hashes[head.last_seq] != head.head:
            found.append(CopyMismatch(copy_id, barcode, head.last_seq, f"it is not the event {source} saw"))
    return CopyCheck(copy_id, found, Head(copy_id, last, hashes.get(last, "")), len(events))


# -- the store -------------------------------------------------------------------------------------

COPIES_AT_ONCE = 500


def _stored_checkpoint_source(head: Head) -> str:
    when = "" if head.checked_at is None else f" of {head.checked_at:%Y-%m-%d %H:%M} UTC"
    return f"its checkpoint{when}"


def copy_ids(*, against: dict[int, Head] | None = None, using: str = "default") -> list[int]:
    """Every copy that has events or a checkpoint (or a line in ``against``)."""
    from .models import CopyCheckpoint, CopyEvent

    ids = set(CopyEvent.objects.using(using).order_by().values_list("copy_id", flat=True).distinct())
    ids |= set(CopyCheckpoint.objects.using(using).values_list("copy_id", flat=True))
    return sorted(ids | set(against or ()))


def check_copies(ids: list[int], *, against: dict[int, Head] | None = None,
                 using: str = "default") -> Iterator[tuple[CopyCheck, Head | None]]:
    """Each copy verified against its stored checkpoint and, with ``against`` (a checkpoint
    file's, by copy), that one too; with the stored checkpoint it was checked against."""
    from games.models import Copy

    from .models import CopyCheckpoint, CopyEvent

    for start in range(0, len(ids), COPIES_AT_ONCE):
        batch = ids[start:start + COPIES_AT_ONCE]
        with one_snapshot(using):
            stored = {row.copy_id: Head(row.copy_id, row.last_seq, row.head, row.checked_at)
                      for row in CopyCheckpoint.objects.using(using).filter(copy_id__in=batch)}
            barcodes = dict(Copy.objects.using(using).filter(pk__in=batch).values_list("pk", "barcode"))
            rows = (CopyEvent.objects.using(using).filter(copy_id__in=batch).order_by("copy_id", "seq")
                    .values_list(*COLUMNS).iterator(chunk_size=2000))
            events = {copy_id: list(chain) for copy_id, chain in
                      groupby((StoredCopyEvent(*row) for row in rows), key=lambda event: event.copy_id)}
        for copy_id in batch:
            head = stored.get(copy_id)
            sources = [] if head is None else [(_stored_checkpoint_source(head), head)]
            if against and copy_id in against:
                sources.append((FILE_SOURCE, against[copy_id]))
            yield verify_copy(copy_id, barcodes.get(copy_id), events.get(copy_id, []), sources), head


@dataclass
class CopiesVerification(StreamVerification):
    def add(self, check: CopyCheck) -> None:
        self.streams += 1
        self.events += check.events
        self.mismatches.extend(str(mismatch) for mismatch in check.mismatches)
        if not check.ok:
            self.failed.add(check.copy_id)


def verify_copies(ids: list[int] | None = None, *, against: dict[int, Head] | None = None,
                  using: str = "default") -> CopiesVerification:
    """Verify the copies (these, or all) and store nothing."""
    result = CopiesVerification()
    for check, _stored in check_copies(copy_ids(against=against, using=using) if ids is None else ids,
                                       against=against, using=using):
        result.add(check)
    return result


KEPT_MISMATCHES = 100


def checkpoint_copies(ids: list[int] | None = None, *, against: dict[int, Head] | None = None,
                      using: str = "default") -> CopiesVerification:
    """Verify the copies (these, or all) and store what was found: a new checkpoint for each one
    intact, the problems (beside its last good checkpoint) for each one that is not."""
    from django.utils import timezone

    from .models import CopyCheckpoint

    result = CopiesVerification()
    rows = []
    for check, stored in check_copies(copy_ids(against=against, using=using) if ids is None else ids,
                                      against=against, using=using):
        result.add(check)
        now = timezone.now()
        if check.ok:
            if not check.events and stored is None:
                continue
            rows.append(CopyCheckpoint(copy_id=check.copy_id, last_seq=check.found.last_seq, head=check.found.head,
                                       checked_at=now, failed_at=None, problems=[]))
        else:
            kept = stored or Head(check.copy_id)
            rows.append(CopyCheckpoint(copy_id=check.copy_id, last_seq=kept.last_seq, head=kept.head,
                                       checked_at=kept.checked_at, failed_at=now,
                                       problems=[str(m) for m in check.mismatches[:KEPT_MISMATCHES]]))
    if rows:
        CopyCheckpoint.objects.using(using).bulk_create(
            rows, batch_size=COPIES_AT_ONCE, update_conflicts=True, unique_fields=["copy"],
            update_fields=["last_seq", "head", "checked_at", "failed_at", "problems"])
    return result


# -- the desk --------------------------------------------------------------------------------------


def checkpoint_head(copy_id: int, last_seq: int, head: str, *, using: str = "default") -> None:
    """The desk's write just appended up to ``last_seq`` (its hash ``head``): checkpointed in the
    same transaction (one statement), so that deleting it is found from then on. A copy that
    failed verification keeps its last good checkpoint."""
    from django.db import connections
    from django.utils import timezone

    from .models import CopyCheckpoint

    table = CopyCheckpoint._meta.db_table
    sql = (f"INSERT INTO {table} (copy_id, last_seq, head, checked_at, failed_at, problems)"
           f" VALUES (%s, %s, %s, %s, NULL, '[]')"
           f" ON CONFLICT (copy_id) DO UPDATE SET last_seq = excluded.last_seq, head = excluded.head,"
           f" checked_at = excluded.checked_at"
           f" WHERE {table}.failed_at IS NULL AND {table}.last_seq <= excluded.last_seq")
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [copy_id, last_seq, head, timezone.now()])


def known_tampering(copy_id: int) -> list[str] | None:
    """What the last verification of the copy found wrong with it; None when nothing was (one
    query by key)."""
    from .models import CopyCheckpoint

    problems = (CopyCheckpoint.objects.filter(copy_id=copy_id, failed_at__isnull=False)
                .values_list("problems", flat=True).first())
    return None if problems is None else [str(problem) for problem in problems] or ["the copy failed verification"]


def tampering_found_now(copy_id: int) -> list[str] | None:
    """Verify the copy now and store the verdict; what is wrong with it, or None when it is
    intact or cannot be verified now (the caller's own error then stands)."""
    import logging

    try:
        result = checkpoint_copies([copy_id])
    except Exception:  # the database is gone, the request's transaction is broken: the first error stands
        logging.getLogger(__name__).exception("copy %s could not be verified", copy_id)
        return None
    return result.mismatches or None


def problems_now(copy_id: int) -> list[str] | None:
    """Verify the copy now (the desk's copy page asks, as it opens): what is wrong with it, the
    verdict stored; None when it is intact (nothing written)."""
    if verify_copies([copy_id]).ok:
        return None
    return tampering_found_now(copy_id)


def refuse_tampered(copy: Any) -> None:
    """Raise :class:`~loans.errors.CopyTampered` when the copy's last verification failed."""
    from .errors import CopyTampered

    problems = known_tampering(copy.pk)
    if problems is not None:
        raise CopyTampered.of(copy, problems)


# -- the checkpoint file ---------------------------------------------------------------------------


def export_lines(using: str = "default") -> list[dict[str, Any]]:
    """The copies' section of a checkpoint file: each stored checkpoint (a copy that failed: its
    last good one)."""
    from .models import CopyCheckpoint

    return [{"copy": copy_id, "last_seq": last_seq, "head": head} for copy_id, last_seq, head in
            CopyCheckpoint.objects.using(using).filter(last_seq__gt=0).order_by("copy_id")
            .values_list("copy_id", "last_seq", "head")]


def parse_lines(lines: list[Any]) -> dict[int, Head]:
    heads: dict[int, Head] = {}
    for line in lines:
        if not isinstance(line, dict):
            raise ValueError(f"{line!r}")
        heads[int(line["copy"])] = Head(int(line["copy"]), int(line["last_seq"]), str(line["head"]))
    return heads


STREAM = Stream(section=SECTION, word="copy", words="copies", verify=lambda section: checkpoint_copies(against=section),
                export=export_lines, parse=parse_lines)
"""What ``verify_events`` and the checkpoint files know of the copies (registered by the app)."""
