"""Tamper evidence for the event store: what gives a record its meaning is chained and checkpointed.

The triggers of :mod:`records.immutability` stop clients from changing stored events; they cannot
stop a database superuser who switches them off (``SET session_replication_role = replica``) or
someone editing the database file, and the rows around the events (a record's seed, its seats)
are plain rows the application's own role may update. The hashes below do not prevent such
edits, they make them visible: ``python manage.py verify_events`` recomputes them and names each
record that no longer matches (the periodic task ``records.verify_events`` does the same).

The events' chain
-----------------
Each event stores the SHA-256 of its own content together with the hash of the previous event of
its record. The canonical form (``ludolog-event/1``) of an event is one JSON object with these keys::

    {"format": "ludolog-event/1", "idempotency_key": <string or null>, "payload": <object>,
     "previous": <previous event's hash; for seq 1 the record's header digest (below)>,
     "record": <record id>, "recorded_at": "YYYY-MM-DDTHH:MM:SS.ffffffZ" (UTC, microseconds),
     "recorded_by": <user id or null>, "seq": <int>, "type": <string>}

written with its keys sorted at every level, no whitespace (``,`` and ``:``), non-ASCII
characters as ``\\uXXXX`` escapes, and numbers as JSON reads them back from any database: an
integral number (``4.0``, ``1e2``) written as an integer, any other float in Python's shortest
round-trip form. The hash is the lowercase hex SHA-256 of that ASCII text. PostgreSQL's ``jsonb``
stores ``4.0`` and ``1e2`` differently from the text sent; the canonical form makes both read
back to the hash they were stored with. Every other form below is written the same way.

The record's header
-------------------
What a record's events mean depends on its game, the ruleset version it pinned at its start, its
seed, its set-up, whether it is result-only, and which player sits in which seat::

    {"format": "ludolog-record/1", "game": <slug>, "record": <id>, "result_only": <bool>,
     "ruleset": <the version pinned at the start>, "seats": [[<seat order>, <player id>], ...],
     "seed": <int or null>, "setup": <object>}

Its SHA-256, the *header digest*, is what the record's first event is chained to (its
``previous``), so changing any of these once the record has an event breaks that link. (A seat's
colour, the date, the place, privacy and the catalogue entry are not part of it: they may be
corrected at any time.) Records whose first event was stored before headers were chained link it
to 64 zeros (:data:`GENESIS`); their header is kept by their checkpoint instead, written by
migration 0017 (see below). A record cannot be passed off as one of those: its first event, which
nobody may update, says which kind it is.

What the application changes after the first event
---------------------------------------------------
is kept as append-only *moves*, each hashed with the hash of its record's previous move of the
same kind (the first with :data:`GENESIS`), and consulted by the check:

- a *seat move* (``ludolog-seat-move/1``: ``record``, ``seat``, ``from_player``, ``to_player``,
  ``reason``, ``moved_by``, ``moved_at``) each time a seated player changes: two players merged
  (``merge_players``) or a seat corrected in the admin. A record's seats are accepted as they
  stand, or as they stood before any number of its latest seat moves: its first event may have
  been chained before or after each of them.
- a *ruleset move* (``ludolog-ruleset-move/1``: ``record``, ``from_version``, ``to_version``,
  ``from_setup``, ``to_setup``, ``outcome``, ``scores_before``, ``scores_after``, ``moved_by``,
  ``moved_at``): ``migrate_ruleset`` judges the record by other rules from then on. The header
  keeps the ruleset and set-up pinned at the start; the moves say what changed since.

Checkpoints
-----------
A chain cannot show that its *last* links were removed: nothing after them points to them. So
each verification stores, for every record it finds intact, a checkpoint
(:class:`records.models.RecordCheckpoint`): its header digest, its last seq and that event's
hash, and the count and last hash of its ruleset and seat moves. A record is also checkpointed
when it finishes (after the response that finished it). The next verification checks that the
store still holds what the checkpoint saw: a deleted last event, an event moved to another
record (whose chain breaks too), a removed move are named. A record that fails keeps its last
good checkpoint with the problems found, and its pages and API answer 409 ``record_tampered``
instead of replaying it.

Someone who can rewrite the database can rewrite the stored checkpoints and every hash after an
edit as well. ``verify_events --export FILE`` writes the checkpoints to a file signed with an
HMAC (:mod:`records.checkpoint_file`) that the club keeps elsewhere, and
``verify_events --against FILE`` checks the store against it: each record that differs is named.

What stays out of reach: events or moves *added* after the last checkpoint with correctly
computed hashes look like the application's own; a record whose header was changed before its
first checkpoint (one chained before headers were, changed before migration 0017) has nothing to
be compared with.

Changing any of these forms changes every hash: it would need a new format name and a migration.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import groupby
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import EventVerification

FORMAT = "ludolog-event/1"
GENESIS = "0" * 64
"""The link of a record's first event stored before headers were chained, and of its first move."""


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


# -- the record's header ---------------------------------------------------------------------------

HEADER_FORMAT = "ludolog-record/1"


@dataclass(frozen=True)
class RecordHeader:
    """What gives a record's events their meaning (see "The record's header" above)."""

    record_id: int
    game: str
    ruleset_version: str
    seed: int | None
    setup: Any
    result_only: bool
    seats: tuple[tuple[int, int], ...]
    """``(seat order, player id)`` pairs, by seat order."""

    @classmethod
    def of(cls, record: Any, seats: Iterable[tuple[int, int]]) -> RecordHeader:
        """The header of ``record`` (a :class:`~records.models.GameRecord`) seated as ``seats`` say,
        each value as the database gives it back (a seed given as ``"7"`` is stored as 7)."""
        return cls(int(record.pk), str(record.game_slug), str(record.ruleset_version),
                   None if record.seed is None else int(record.seed), record.setup, bool(record.result_only),
                   tuple(sorted((int(order), int(player)) for order, player in seats)))

    def canonical(self) -> str:
        return canonical_json({
            "format": HEADER_FORMAT, "game": self.game, "record": self.record_id, "result_only": self.result_only,
            "ruleset": self.ruleset_version, "seats": [list(seat) for seat in self.seats], "seed": self.seed,
            "setup": self.setup,
        })

    def digest(self) -> str:
        """The link of the record's first event.

        >>> RecordHeader(1, "carcassonne", "carcassonne@1", 7, {}, False, ((0, 3), (1, 4))).digest()[:16]
        '888a434e7731e1b5'
        """
        return hashlib.sha256(self.canonical().encode("ascii")).hexdigest()

    def seated(self, seats: dict[int, int]) -> RecordHeader:
        return replace(self, seats=tuple(sorted(seats.items())))


def header_digests(record_ids: Iterable[int], *, using: str = "default") -> dict[int, str]:
    """The header digest of each record as it stands now (two queries): the link a first event
    stored now gets."""
    headers = read_headers(list(record_ids), using=using)
    return {record_id: header.digest() for record_id, header in headers.items()}


def read_headers(record_ids: list[int], *, using: str = "default") -> dict[int, RecordHeader]:
    """The headers of the records (those that exist), read in two queries: the records, then
    their seats."""
    from .models import GameRecord, Seat

    records = GameRecord.objects.using(using).filter(pk__in=record_ids).only(
        "pk", "game_slug", "ruleset_version", "seed", "setup", "result_only")
    seats: dict[int, list[tuple[int, int]]] = {}
    found = list(records)
    for record_id, order, player_id in (Seat.objects.using(using).filter(record_id__in=record_ids)
                                        .values_list("record_id", "seat_order", "player_id")):
        seats.setdefault(record_id, []).append((order, player_id))
    return {record.pk: RecordHeader.of(record, seats.get(record.pk, ())) for record in found}


# -- moves -----------------------------------------------------------------------------------------

SEAT_MOVE_FORMAT = "ludolog-seat-move/1"
RULESET_MOVE_FORMAT = "ludolog-ruleset-move/1"


def seat_move_content(*, record_id: int, seat: int, from_player_id: int, to_player_id: int, reason: str,
                      moved_by_id: int | None, moved_at: dt.datetime) -> dict[str, Any]:
    return {"format": SEAT_MOVE_FORMAT, "record": record_id, "seat": seat, "from_player": from_player_id,
            "to_player": to_player_id, "reason": reason, "moved_by": moved_by_id, "moved_at": canonical_time(moved_at)}


def ruleset_move_content(*, record_id: int, from_version: str, to_version: str, from_setup: Any, to_setup: Any,
                         outcome: str, scores_before: Any, scores_after: Any, moved_by_id: int | None,
                         moved_at: dt.datetime) -> dict[str, Any]:
    return {"format": RULESET_MOVE_FORMAT, "record": record_id, "from_version": from_version,
            "to_version": to_version, "from_setup": from_setup, "to_setup": to_setup, "outcome": outcome,
            "scores_before": scores_before, "scores_after": scores_after, "moved_by": moved_by_id,
            "moved_at": canonical_time(moved_at)}


def move_hash(content: dict[str, Any], previous: str) -> str:
    """The hash of a move (``content`` from :func:`seat_move_content` or
    :func:`ruleset_move_content`) chained to ``previous``, its record's move before it."""
    return hashlib.sha256(canonical_json({**content, "previous": previous}).encode("ascii")).hexdigest()


@dataclass(frozen=True)
class StoredMove:
    """One move as read back from the database, with the hash stored beside it."""

    content: dict[str, Any]
    hash: str

    def expected_hash(self, previous: str) -> str:
        return move_hash(self.content, previous)


def header_links(header: RecordHeader, seat_moves: list[StoredMove]) -> list[str]:
    """The links a record's first event may have: the digest of its header with its seats as they
    stand, then as they stood before each of its latest seat moves in turn, newest first."""
    links = [header.digest()]
    seats = dict(header.seats)
    for move in reversed(seat_moves):
        seat, before, after = move.content["seat"], move.content["from_player"], move.content["to_player"]
        if seats.get(seat) != after:
            break  # the moves before this one do not lead to the seats as they stand
        seats[seat] = before
        links.append(header.seated(seats).digest())
    return links


# -- verification ----------------------------------------------------------------------------------


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
class Checkpoint:
    """What a verification found intact of one record (see "Checkpoints" above); empty strings
    and zeros where it found nothing (no event yet, no move)."""

    record_id: int
    header: str = ""
    last_seq: int = 0
    head: str = ""
    ruleset_moves: int = 0
    ruleset_moves_head: str = ""
    seat_moves: int = 0
    seat_moves_head: str = ""
    checked_at: dt.datetime | None = None

    def saw_something(self) -> bool:
        return bool(self.header or self.last_seq or self.ruleset_moves or self.seat_moves)

    def positions(self) -> dict[str, Any]:
        """What is compared and exported (not when it was checked)."""
        return {"header": self.header, "last_seq": self.last_seq, "head": self.head,
                "ruleset_moves": self.ruleset_moves, "ruleset_moves_head": self.ruleset_moves_head,
                "seat_moves": self.seat_moves, "seat_moves_head": self.seat_moves_head}


@dataclass
class StoredRecord:
    """Everything the check reads of one record."""

    record_id: int
    header: RecordHeader | None
    """None: the record's row is gone."""
    events: list[StoredEvent] = field(default_factory=list)
    ruleset_moves: list[StoredMove] = field(default_factory=list)
    seat_moves: list[StoredMove] = field(default_factory=list)


@dataclass(frozen=True)
class Mismatch:
    record_id: int
    seq: int | None
    problem: str

    def __str__(self) -> str:
        where = f"record {self.record_id}" if self.seq is None else f"record {self.record_id} seq {self.seq}"
        return f"{where}: {self.problem}"


@dataclass(frozen=True)
class RecordCheck:
    """One record's verification: what no longer matches, and what it found (its next checkpoint
    when nothing is wrong)."""

    record_id: int
    mismatches: list[Mismatch]
    found: Checkpoint
    events: int

    @property
    def ok(self) -> bool:
        return not self.mismatches


@dataclass
class Verification:
    records: int = 0
    events: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    others: list[tuple[Stream, StreamVerification]] = field(default_factory=list)
    """The other streams' verifications (see "Other streams" below), when the whole store was checked."""

    @property
    def ok(self) -> bool:
        return not self.mismatches and all(verification.ok for _stream, verification in self.others)

    def sentences(self) -> list[str]:
        """Every problem found, the records' then each stream's, as ``verify_events`` prints them."""
        return [str(mismatch) for mismatch in self.mismatches] + [
            problem for _stream, verification in self.others for problem in verification.mismatches]

    def add(self, check: RecordCheck) -> None:
        if check.events or check.found.saw_something() or check.mismatches:
            self.records += 1
        self.events += check.events
        self.mismatches.extend(check.mismatches)


ALTERED = "its hash does not match its content and the previous event's hash"
FIRST_ALTERED = ("its hash does not match its content and the record's header (game, ruleset, seed, set-up, "
                 "seats): one of them was changed")
HEADER = "its header (game, ruleset, seed, set-up or seats)"


def _chain(events: Iterable[StoredEvent], first_links: list[str]) -> tuple[list[Mismatch], str | None]:
    """Check every link of one record's events (ordered by seq); also returns which of
    ``first_links`` its first event is chained to (None: it is missing or matches none).

    Each event is checked against the hash *stored* for the event before it, so an edited event
    is named itself (its successor still links to the stored hash); an edit whose author also
    rewrote that event's hash is named at the next event, whose link then breaks. A missing
    event is named as such, and the event after the gap fails its link too.
    """
    found: list[Mismatch] = []
    first_link: str | None = None
    previous, next_seq = GENESIS, 1
    for event in events:
        if event.seq != next_seq:
            missing = f"event {next_seq} is missing" if event.seq == next_seq + 1 else (
                f"events {next_seq} to {event.seq - 1} are missing"
            )
            found.append(Mismatch(event.record_id, next_seq, missing))
        if event.seq == 1:
            first_link = next((link for link in first_links if event.hash == event.expected_hash(link)), None)
            if first_link is None:
                found.append(Mismatch(event.record_id, 1, FIRST_ALTERED if first_links != [GENESIS] else ALTERED))
        elif event.hash != event.expected_hash(previous):
            found.append(Mismatch(event.record_id, event.seq, ALTERED))
        previous, next_seq = event.hash, event.seq + 1
    return found, first_link


def verify(events: Iterable[StoredEvent]) -> Verification:
    """Check the events' chains alone (ordered by record, then seq), each first event chained to
    :data:`GENESIS`, as every record's was before headers were chained. :func:`verify_store`
    checks the records of the database whole."""
    result = Verification()
    for record_id, chain in groupby(events, key=lambda event: event.record_id):
        record_events = list(chain)
        found, _first_link = _chain(record_events, [GENESIS])
        result.add(RecordCheck(record_id, found, Checkpoint(record_id), len(record_events)))
    return result


def _moves(record_id: int, kind: str, moves: list[StoredMove]) -> list[Mismatch]:
    found, previous = [], GENESIS
    for number, move in enumerate(moves, start=1):
        if move.hash != move.expected_hash(previous):
            found.append(Mismatch(record_id, None,
                                  f"{kind} {number}: its hash does not match its content and the previous move's hash"))
        previous = move.hash
    return found


def _missing(first: int, last: int, what: str, source: str) -> str:
    if first == last:
        return f"{what} {last} is missing: {source} saw it"
    return f"{what}s {first} to {last} are missing: {source} saw them"


def verify_record(stored: StoredRecord, against: Iterable[tuple[str, Checkpoint]] = ()) -> RecordCheck:
    """Verify one record whole: its events' chain from its header, its moves, and that it still
    holds what each checkpoint of ``against`` saw (``(source, checkpoint)`` pairs, the source
    as the sentences name it: "its checkpoint of …", "the checkpoint file")."""
    record_id, events, against = stored.record_id, stored.events, list(against)
    found: list[Mismatch] = []
    if stored.header is None:
        if events or any(checkpoint.saw_something() for _source, checkpoint in against):
            found.append(Mismatch(record_id, None, "the record itself is missing"))
        headers: list[str] = []
    else:
        headers = header_links(stored.header, stored.seat_moves)
    chain, first_link = _chain(events, [*headers, GENESIS])
    found += chain
    found += _moves(record_id, "ruleset move", stored.ruleset_moves)
    found += _moves(record_id, "seat move", stored.seat_moves)
    first = events[0] if events and events[0].seq == 1 else None
    pinned = [(source, checkpoint.header) for source, checkpoint in against if checkpoint.header]
    if first is not None and first_link is None:
        # The first event's link is broken: is it intact and chained to a header a checkpoint saw?
        seen = next((source for source, header in pinned if first.hash == first.expected_hash(header)), None)
        if seen is not None:
            found = [m for m in found if (m.seq, m.problem) != (1, FIRST_ALTERED)]
            found.append(Mismatch(record_id, None, f"{HEADER} changed: its first event is chained to the header {seen} saw"))
    header = ""
    if first_link == GENESIS:
        # Chained before headers were: its checkpoints keep its header.
        for source, digest in pinned:
            if digest not in headers:
                found.append(Mismatch(record_id, None, f"{HEADER} is not the one {source} saw"))
        header = pinned[0][1] if pinned and pinned[0][1] in headers else (headers[-1] if headers else "")
    elif first_link is not None:
        header = first_link
        for source, digest in pinned:
            if digest != first_link:
                found.append(Mismatch(record_id, None, f"{HEADER} is not the one {source} saw"))
    hashes = {event.seq: event.hash for event in events}
    last = events[-1].seq if events else 0
    for source, checkpoint in against:
        if checkpoint.last_seq > last:
            found.append(Mismatch(record_id, last + 1, _missing(last + 1, checkpoint.last_seq, "event", source)))
        elif checkpoint.last_seq in hashes and hashes[checkpoint.last_seq] != checkpoint.head:
            found.append(Mismatch(record_id, checkpoint.last_seq, f"it is not the event {source} saw"))
        for kind, moves, count, head in (
            ("ruleset move", stored.ruleset_moves, checkpoint.ruleset_moves, checkpoint.ruleset_moves_head),
            ("seat move", stored.seat_moves, checkpoint.seat_moves, checkpoint.seat_moves_head),
        ):
            if count > len(moves):
                found.append(Mismatch(record_id, None, _missing(len(moves) + 1, count, kind, source)))
            elif count and moves[count - 1].hash != head:
                found.append(Mismatch(record_id, None, f"{kind} {count} is not the one {source} saw"))
    seen_now = Checkpoint(
        record_id, header=header, last_seq=last, head=hashes.get(last, ""),
        ruleset_moves=len(stored.ruleset_moves),
        ruleset_moves_head=stored.ruleset_moves[-1].hash if stored.ruleset_moves else "",
        seat_moves=len(stored.seat_moves), seat_moves_head=stored.seat_moves[-1].hash if stored.seat_moves else "",
    )
    return RecordCheck(record_id, found, seen_now, len(events))


# -- other streams ---------------------------------------------------------------------------------
#
# Other apps keep append-only events under the same evidence (the loans desk's copy events:
# loans.integrity): they chain them with the canonical form above and register here what
# ``verify_events``, its beat task and the checkpoint file need of them. The event store itself
# imports none of them.


@dataclass
class StreamVerification:
    """One stream's verification: how many streams (copies…) and events were checked, and each
    problem as a sentence naming its stream and seq (``copy 12 (LUD-0003) seq 4: …``)."""

    streams: int = 0
    events: int = 0
    mismatches: list[str] = field(default_factory=list)
    """Names each stream that failed, once or more."""
    failed: set[int] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not self.mismatches


@dataclass(frozen=True)
class Stream:
    section: str
    """Its key in a checkpoint file (``"copies"``)."""
    word: str
    words: str
    """How the command counts them (``"copy"``, ``"copies"``)."""
    verify: Callable[[Any], StreamVerification]
    """Verify every stream and store their checkpoints; given the checkpoint file's section as
    :attr:`parse` read it (None: no file)."""
    export: Callable[[str], list[dict[str, Any]]]
    """The lines of the checkpoint file's section (given the database alias)."""
    parse: Callable[[list[Any]], Any]
    """The section's lines read back; ``ValueError`` for a line that is no checkpoint."""


STREAMS: dict[str, Stream] = {}


def register_stream(stream: Stream) -> None:
    """Have ``verify_events`` (the command and the beat task) and the checkpoint files cover
    ``stream`` too (an app's ``ready()`` registers it)."""
    STREAMS[stream.section] = stream


# -- the store -------------------------------------------------------------------------------------

RECORDS_AT_ONCE = 500
"""Records read and checked together: a handful of queries each time, whatever the store's size."""


def stored_events(record_id: int | None = None, *, using: str = "default") -> Iterator[StoredEvent]:
    """The stored events (of one record, or all), ordered by record then seq, read in chunks."""
    return _events(None if record_id is None else [record_id], using=using)


def _events(record_ids: list[int] | None, *, using: str) -> Iterator[StoredEvent]:
    from .models import Event  # models chain new events with this module's functions

    events = Event.objects.using(using).order_by("record_id", "seq")
    if record_ids is not None:
        events = events.filter(record_id__in=record_ids)
    columns = ("record_id", "seq", "type", "payload", "recorded_at", "recorded_by_id", "idempotency_key", "hash")
    for row in events.values_list(*columns).iterator(chunk_size=2000):
        yield StoredEvent(*row)


def _stored_moves(model: Any, record_ids: list[int], content: Any, *, using: str) -> dict[int, list[StoredMove]]:
    moves: dict[int, list[StoredMove]] = {}
    for move in model.objects.using(using).filter(record_id__in=record_ids).order_by("record_id", "id"):
        moves.setdefault(move.record_id, []).append(StoredMove(content(move), move.hash))
    return moves


def _checkpoint(row: Any) -> Checkpoint:
    return Checkpoint(row.record_id, row.header, row.last_seq, row.head, row.ruleset_moves, row.ruleset_moves_head,
                      row.seat_moves, row.seat_moves_head, row.checked_at)


@contextmanager
def one_snapshot(using: str) -> Iterator[None]:
    """The reads of one batch in one transaction that sees one state of the database (PostgreSQL:
    repeatable read; SQLite's transactions already do): an append, a merge or a verification
    committed meanwhile cannot make a record look as if it failed."""
    from django.db import connections, transaction

    connection = connections[using]
    outermost = not connection.in_atomic_block
    with transaction.atomic(using=using):
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def stored_records(record_ids: list[int], *, using: str = "default") -> Iterator[tuple[StoredRecord, Checkpoint | None]]:
    """The records ``record_ids`` as the store holds them, with their stored checkpoints, read a
    batch of :data:`RECORDS_AT_ONCE` at a time."""
    from .models import RecordCheckpoint, RulesetMove, SeatMove

    for start in range(0, len(record_ids), RECORDS_AT_ONCE):
        batch = record_ids[start:start + RECORDS_AT_ONCE]
        with one_snapshot(using):
            checkpoints = {row.record_id: _checkpoint(row)
                           for row in RecordCheckpoint.objects.using(using).filter(record_id__in=batch)}
            headers = read_headers(batch, using=using)
            seat_moves = _stored_moves(SeatMove, batch, SeatMove.content, using=using)
            ruleset_moves = _stored_moves(RulesetMove, batch, RulesetMove.content, using=using)
            events = {record_id: list(chain) for record_id, chain in
                      groupby(_events(batch, using=using), key=lambda event: event.record_id)}
        for record_id in batch:
            yield StoredRecord(record_id, headers.get(record_id), events.get(record_id, []),
                               ruleset_moves.get(record_id, []), seat_moves.get(record_id, [])), checkpoints.get(record_id)


def _record_ids(record_id: int | None, against: dict[int, Checkpoint] | None, *, using: str) -> list[int]:
    from .models import GameRecord, RecordCheckpoint

    if record_id is not None:
        return [record_id]
    ids = set(GameRecord.objects.using(using).values_list("pk", flat=True))
    ids |= set(RecordCheckpoint.objects.using(using).values_list("record_id", flat=True))
    return sorted(ids | set(against or ()))


def stored_checkpoint_source(checkpoint: Checkpoint) -> str:
    when = "" if checkpoint.checked_at is None else f" of {checkpoint.checked_at:%Y-%m-%d %H:%M} UTC"
    return f"its checkpoint{when}"


FILE_SOURCE = "the checkpoint file"


def check_records(record_ids: list[int], *, against: dict[int, Checkpoint] | None = None,
                  using: str = "default") -> Iterator[tuple[RecordCheck, Checkpoint | None]]:
    """Each record verified against its stored checkpoint and, with ``against`` (a checkpoint
    file's, by record), that one too; with the stored checkpoint it was checked against."""
    for stored, checkpoint in stored_records(record_ids, using=using):
        sources = [] if checkpoint is None else [(stored_checkpoint_source(checkpoint), checkpoint)]
        if against and stored.record_id in against:
            sources.append((FILE_SOURCE, against[stored.record_id]))
        yield verify_record(stored, sources), checkpoint


def verify_store(record_id: int | None = None, *, against: dict[int, Checkpoint] | None = None,
                 using: str = "default") -> Verification:
    """Verify the records (one, or all) and store nothing."""
    result = Verification()
    for check, _stored in check_records(_record_ids(record_id, against, using=using), against=against, using=using):
        result.add(check)
    return result


KEPT_MISMATCHES = 100
"""How many mismatches a stored result lists (its count is always exact)."""
KEPT_RESULTS = 100
"""How many past results are kept."""


def checkpoint_records(record_ids: list[int], *, against: dict[int, Checkpoint] | None = None,
                       using: str = "default") -> Verification:
    """Verify the records and store what was found: a new checkpoint for each one intact, the
    problems (beside its last good checkpoint) for each one that is not."""
    from django.utils import timezone

    result = Verification()
    batch: list[tuple[RecordCheck, Checkpoint | None]] = []
    for check, stored in check_records(record_ids, against=against, using=using):
        result.add(check)
        batch.append((check, stored))
        if len(batch) == RECORDS_AT_ONCE:
            _store_checkpoints(batch, timezone.now(), using=using)
            batch = []
    _store_checkpoints(batch, timezone.now(), using=using)
    return result


def _store_checkpoints(checks: list[tuple[RecordCheck, Checkpoint | None]], now: dt.datetime, *, using: str) -> None:
    from .models import RecordCheckpoint

    rows = []
    for check, stored in checks:
        if check.ok and not check.found.saw_something() and stored is None:
            continue  # a record without events or moves yet: nothing to keep
        if check.ok:
            kept, checked_at, failed_at, problems = check.found, now, None, []
        else:
            kept = stored or Checkpoint(check.record_id)
            checked_at, failed_at = kept.checked_at, now
            problems = [str(mismatch) for mismatch in check.mismatches[:KEPT_MISMATCHES]]
        rows.append(RecordCheckpoint(record_id=check.record_id, **kept.positions(), checked_at=checked_at,
                                     failed_at=failed_at, problems=problems))
    if rows:
        fields = [f.name for f in RecordCheckpoint._meta.concrete_fields if not f.primary_key]
        RecordCheckpoint.objects.using(using).bulk_create(rows, update_conflicts=True, unique_fields=["record"],
                                                          update_fields=fields)


def verify_and_store(record_id: int | None = None, *, against: dict[int, Checkpoint] | None = None,
                     others_against: dict[str, Any] | None = None) -> Verification:
    """Verify the records (one, or all; with ``against``, also against a checkpoint file's),
    store their checkpoints, and store the result for ``/health/``. The whole store's
    verification covers the registered streams too (:data:`STREAMS`; ``others_against``: the
    checkpoint file's sections, by stream)."""
    from django.utils import timezone

    from .models import EventVerification

    started_at = timezone.now()
    result = checkpoint_records(_record_ids(record_id, against, using="default"), against=against)
    if record_id is None:
        for stream in STREAMS.values():
            section = None if others_against is None else others_against.get(stream.section)
            result.others.append((stream, stream.verify(section)))
    problems = result.sentences()
    EventVerification.objects.create(
        started_at=started_at,
        only_record_id=record_id,
        records_checked=result.records,
        events_checked=result.events + sum(verification.events for _stream, verification in result.others),
        mismatch_count=len(problems),
        mismatches=problems[:KEPT_MISMATCHES],
    )
    stale = EventVerification.objects.order_by("-finished_at", "-id").values_list("id", flat=True)[KEPT_RESULTS:]
    EventVerification.objects.filter(id__in=list(stale)).delete()
    return result


def last_full_verification() -> EventVerification | None:
    """The latest stored result of a whole-store verification, or None."""
    from .models import EventVerification

    return EventVerification.objects.filter(only_record_id__isnull=True).first()


# -- what pages and the API ask --------------------------------------------------------------------


def known_tampering(record_id: int) -> list[str] | None:
    """What the last verification of the record found wrong with it; None when nothing was (one
    query by key)."""
    from .models import RecordCheckpoint

    problems = (RecordCheckpoint.objects.filter(record_id=record_id, failed_at__isnull=False)
                .values_list("problems", flat=True).first())
    return None if problems is None else [str(problem) for problem in problems] or ["the record failed verification"]


def tampering_found_now(record_id: int) -> list[str] | None:
    """Verify the record now (a page that could not replay it asks) and store the verdict; what
    is wrong with it, or None when it is intact, or when it cannot be verified now (the page's
    own error then stands)."""
    import logging

    try:
        result = checkpoint_records([record_id])
    except Exception:  # the database is gone, the request's transaction is broken: the first error stands
        logging.getLogger(__name__).exception("record %s could not be verified", record_id)
        return None
    return [str(mismatch) for mismatch in result.mismatches] or None


def refuse_tampered(record_id: int) -> None:
    """Raise :class:`~records.errors.RecordTampered` when the record's last verification failed."""
    from .errors import RecordTampered

    problems = known_tampering(record_id)
    if problems is not None:
        raise RecordTampered.of(record_id, problems)


def checkpoint_head(record_id: int, *, using: str = "default") -> None:
    """Checkpoint the record's last event as the store holds it now, without verifying anything
    (one statement): what a record that just finished, through the application, ends with. The
    next verification checks the rest and completes the checkpoint; one that failed is left as
    it is."""
    from django.db import connections
    from django.utils import timezone

    from .models import Event, RecordCheckpoint

    checkpoints, events = RecordCheckpoint._meta.db_table, Event._meta.db_table
    sql = (
        f"INSERT INTO {checkpoints} (record_id, header, last_seq, head, ruleset_moves, ruleset_moves_head,"
        f" seat_moves, seat_moves_head, checked_at, failed_at, problems)"
        f" SELECT record_id, '', seq, hash, 0, '', 0, '', %s, NULL, '[]' FROM {events}"
        f" WHERE record_id = %s AND seq = (SELECT MAX(seq) FROM {events} WHERE record_id = %s)"
        f" ON CONFLICT (record_id) DO UPDATE SET last_seq = excluded.last_seq, head = excluded.head,"
        f" checked_at = excluded.checked_at"
        f" WHERE {checkpoints}.failed_at IS NULL AND {checkpoints}.last_seq <= excluded.last_seq"
    )
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [timezone.now(), record_id, record_id])


def checkpoint_heads(record_ids: list[int], *, using: str = "default") -> None:
    """:func:`checkpoint_head` of many records, a few hundred to a statement."""
    from django.db import connections
    from django.utils import timezone

    from .models import Event, RecordCheckpoint

    checkpoints, events = RecordCheckpoint._meta.db_table, Event._meta.db_table
    for start in range(0, len(record_ids), 400):
        chunk = record_ids[start:start + 400]
        marks = ", ".join(["%s"] * len(chunk))
        sql = (
            f"INSERT INTO {checkpoints} (record_id, header, last_seq, head, ruleset_moves, ruleset_moves_head,"
            f" seat_moves, seat_moves_head, checked_at, failed_at, problems)"
            f" SELECT e.record_id, '', e.seq, e.hash, 0, '', 0, '', %s, NULL, '[]' FROM {events} e"
            f" WHERE e.record_id IN ({marks})"
            f" AND e.seq = (SELECT MAX(seq) FROM {events} WHERE record_id = e.record_id)"
            f" ON CONFLICT (record_id) DO UPDATE SET last_seq = excluded.last_seq, head = excluded.head,"
            f" checked_at = excluded.checked_at"
            f" WHERE {checkpoints}.failed_at IS NULL AND {checkpoints}.last_seq <= excluded.last_seq"
        )
        with connections[using].cursor() as cursor:
            cursor.execute(sql, [timezone.now(), *chunk])


def checkpoint_finished_records(sender: Any = None, *, record_ids: list[int], **kwargs: Any) -> None:
    """``records_finished``'s receiver: every record's last event checkpointed, in batches."""
    from .after_response import defer

    defer(lambda: checkpoint_heads(list(record_ids)))


def checkpoint_finished_record(sender: Any = None, *, record_id: int, **kwargs: Any) -> None:
    """``record_finished``'s receiver: the record's last event is checkpointed (after the response
    that finished it, in a request), so that deleting it is found from then on."""
    from .after_response import defer

    defer(lambda: checkpoint_head(record_id))
