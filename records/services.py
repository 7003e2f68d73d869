"""Writes to the event store. Every event goes through :func:`append_event`.

The append
----------
Optimistic concurrency: the caller says which seq it last saw. If another writer took the next
place first, :class:`SeqConflict` carries the current last seq. A retry with the same
idempotency key returns the event already stored instead of writing it twice.

For a game with a rules engine the position is rebuilt and the engine must accept the action
(it raises ``IllegalAction``, a 422, and nothing is stored). When the engine says the game is
over the record is finished and, once committed, ``record_finished`` is sent.

Ending as a table ends: an ``end_game`` event (reason ``complete``, or ``missing_tile`` for an
unseeded tile game whose box lacks a tile: scored now as the rules score the end) finishes the
record; an ``abandon`` event (a reason in words) closes it as abandoned, kept and counting for
nothing. Either is the record's last event. The table recorder appends with ``hold_end``: the
move the rules end the game with leaves the record in progress, so that it can still be taken
back, until the scorekeeper confirms with ``end_game`` ``complete``. The API appends without it,
as before: the last move finishes the record (and ``end_game``/``abandon`` are open to it too). A result-only
record takes one ``result`` event with a score for every seat, and is then finished.

**One round trip** when this process holds the record's state at ``expected_seq``
(:mod:`records.state_cache`, left there by this process's previous append of the record):
nothing is read first. The event is chained to the cached head hash and the store writes it,
with the snapshot and the finished status when due, in one statement (:mod:`records.store`). If
another process appended meanwhile, the database's ``unique(record, seq)`` refuses the insert
and nothing is stored: the answer is then read (a retry's stored event, or the record's last seq
for a :class:`SeqConflict`). Events are numbered without gaps and a cached state is only ever
one of a committed seq, so an insert at ``expected_seq + 1`` that succeeds proves
``expected_seq`` was the last event. Otherwise (no cached state, or a client that saw events
this process did not) the position is caught up first: from the events the request's first
query brought (:class:`records.selectors.AppendTarget`), else from the latest snapshot.

A record holds at most :func:`max_events_per_record` events: the append past it is refused
(:class:`RecordFull`, 409 ``record_full``) and stores nothing.
"""

from __future__ import annotations

import contextvars
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.registry import ABANDON, RECORD_EVENT_SCHEMAS, RESULT, PayloadError, get_engine, validate_payload

from . import integrity, players, replay, state_cache
from .errors import IdempotencyKeyReused, InvalidSetup, RecordClosed, RecordError, SeqConflict, TooManySeats
from .models import Event, GameRecord, Player, Seat
from .selectors import AppendTarget
from .store import PlaceTaken, event_store
from .signals import record_finished, records_finished


class UnknownGame(RecordError):
    reason = "unknown_game"
    status_code = 400


class RecordFull(RecordError):
    """A record takes at most ``LUDOLOG_MAX_EVENTS_PER_RECORD`` events: what one record may cost
    to store, replay and verify is bounded, whatever a client sends."""

    reason = "record_full"
    status_code = 409


def max_events_per_record() -> int:
    return int(getattr(settings, "LUDOLOG_MAX_EVENTS_PER_RECORD", 5000))


MAX_SCORE = 1_000_000

RESULT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "scores": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
                "type": "object",
                # Bounded to what the projections store and add up: no board game scores a
                # million, and a score the database cannot hold would stop every recompute.
                "properties": {
                    "seat": {"type": "integer", "minimum": 0, "maximum": 99},
                    "score": {"type": "integer", "minimum": -MAX_SCORE, "maximum": MAX_SCORE},
                    "rank": {"type": "integer", "minimum": 1, "maximum": 100},
                    "tiebreak": {"type": "number", "minimum": -MAX_SCORE, "maximum": MAX_SCORE},
                },
                # A score, a place (rank), or both; a cooperative game's seats may give neither
                # (see check_result).
                "required": ["seat"],
                "additionalProperties": False,
            },
        },
        "cooperative": {"enum": ["won", "lost"],
                        "description": "a cooperative game's outcome: the players won or lost together"},
    },
    "required": ["scores"],
    "additionalProperties": False,
}


CORRECTION = "correct_result"
"""A finished result-only record's result corrected: the same scores as a result, and why."""
CORRECTION_SCHEMA: dict[str, Any] = {
    **RESULT_SCHEMA,
    "properties": {**RESULT_SCHEMA["properties"],
                   "reason": {"type": "string", "maxLength": 500, "description": "why the result was corrected"}},
}


@dataclass(frozen=True)
class SeatSpec:
    player_name: str
    colour: str = ""


def last_seq(record: GameRecord) -> int:
    return Event.objects.filter(record=record).aggregate(last=Max("seq"))["last"] or 0


@transaction.atomic
def start_game(
    *,
    game_slug: str,
    seats: Sequence[SeatSpec],
    created_by: AbstractBaseUser | None = None,
    **fields: Any,
) -> GameRecord:
    """Create a record with its seats (each name finds the player ``created_by`` may see whatever
    its case and accents; a name nobody they may see has yet makes a new player).

    A game with a rules engine pins the engine's ruleset version and the set-up the engine
    checked and completed (``setup``: expansions, a map, variants; what the seed draws is written
    down); a game without one can only be logged as a result-only record.
    """
    engine = get_engine(game_slug)
    if engine is None and not fields.get("result_only"):
        raise UnknownGame(
            f"no rules engine replays {game_slug!r}: record it as a result-only game", field="game_slug"
        )
    if engine is not None and not fields.get("result_only"):
        if not engine.min_players <= len(seats) <= engine.max_players:
            raise UnknownGame(
                f"{engine.name} is for {engine.min_players} to {engine.max_players} players, not {len(seats)}",
                field="seats",
            )
        fields.setdefault("ruleset_version", engine.ruleset_version)
        if not fields.get("ruleset_version"):
            fields["ruleset_version"] = engine.ruleset_version
        try:
            fields["setup"] = engine.prepare_setup(len(seats), fields.get("seed"), fields.get("setup"),
                                               fields["ruleset_version"])
        except PayloadError as error:
            raise InvalidSetup(error.message, field=error.field) from None
    else:  # a result-only record (a game without an engine that is not one was refused above)
        _check_result_only_start(len(seats), fields)
    record = GameRecord.objects.create(game_slug=game_slug, created_by=created_by, **fields)
    seated = players.seat_players([seat.player_name for seat in seats], seen_by=created_by)
    # One statement for every seat (a bulk import makes thousands of records).
    Seat.objects.bulk_create([Seat(record=record, player=player, seat_order=order, colour=seat.colour)
                              for order, (seat, player) in enumerate(zip(seats, seated))])
    if created_by is not None:
        record.scorekeepers.add(created_by)
    if engine is not None and not record.result_only:
        # The first append of this process finds the position ready (seq 0), and the chain's
        # start: the record's header digest.
        record.moved_ruleset = None  # type: ignore[attr-defined]  (a new record has no move)
        header = integrity.RecordHeader.of(record, ((order, player.pk) for order, player in enumerate(seated)))
        with state_cache.held(record, record.ruleset_version) as held:
            held.keep(0, engine.new_state(len(seats), record.seed, dict(record.setup), record.ruleset_version),
                      header.digest())
    return record


def _check_result_only_start(seat_count: int, fields: dict[str, Any]) -> None:
    """What a result-only record's start refuses: a set-up to choose, more seats than a result lists."""
    if fields.get("setup"):
        raise InvalidSetup("setup: a result-only record has no set-up to choose", field="setup")
    most = RESULT_SCHEMA["properties"]["scores"]["maxItems"]
    if seat_count > most:
        raise TooManySeats(f"a result lists at most {most} scores: a result-only record has at most {most} seats, "
                           f"not {seat_count}", field="seats", limit=most)


@dataclass(frozen=True)
class LoggedResult:
    """One result-only record for :func:`log_results`: what :func:`start_game` takes for it, and
    its ``result`` event's payload."""

    game_slug: str
    seats: Sequence[SeatSpec]
    payload: dict[str, Any]
    fields: dict[str, Any] = field(default_factory=dict)
    """The record's other fields (``played_on``, ``source``…), as :func:`start_game` takes them."""


BULK_BATCH = 1000
"""Rows a bulk insert of :func:`log_results` sends in one statement."""


@transaction.atomic
def log_results(results: Sequence[LoggedResult], *, created_by: AbstractBaseUser | None = None) -> list[GameRecord]:
    """Result-only records, each made as :func:`start_game` (``result_only=True``) and then
    :func:`append_event` of its ``result`` at seq 0 make one, all at once: a bulk import's path
    (``import_plays``). Returns the records, finished.

    Each record is checked as those two check it, in the same order, and nothing is written
    until every record has passed: a set-up or too many seats, a name that shows nothing, one
    player in two seats, a full record, a result that does not fit the seats. Their players are
    found as :func:`start_game` finds them (:class:`records.players.Seating`); each event is
    built as the append builds it (:func:`new_event`), chained to its record's header digest,
    and stored by the event store with its record's finished status
    (:meth:`~records.store.EventStore.insert_many`); each record is then announced finished as
    the append announces it (together, inside :func:`finishing_together`). What the bulk saves is
    the round trips of one record at a time: the names are looked up once, and the players,
    records, seats, scorekeepers and events go in a few statements each. The two paths store the
    same rows and the same hashes (``tests/records/test_logging_results_together.py``).
    """
    if not results:
        return []
    seating = players.Seating((seat.player_name for result in results for seat in result.seats), seen_by=created_by)
    seated_each: list[list[Player]] = []
    for result in results:
        _check_result_only_start(len(result.seats), result.fields)
        seated = seating.seat([seat.player_name for seat in result.seats])
        _check_place(0, 0)
        check_result(range(len(seated)), RESULT, result.payload,
                     cooperative=bool(result.fields.get("is_cooperative")))
        seated_each.append(seated)
    seating.save_new_players()
    records = GameRecord.objects.bulk_create(
        [GameRecord(game_slug=result.game_slug, created_by=created_by, result_only=True, **result.fields)
         for result in results], batch_size=BULK_BATCH)
    Seat.objects.bulk_create(
        [Seat(record=record, player=player, seat_order=order, colour=seat.colour)
         for record, result, seated in zip(records, results, seated_each)
         for order, (seat, player) in enumerate(zip(result.seats, seated))], batch_size=BULK_BATCH)
    if created_by is not None:
        keeper = GameRecord.scorekeepers.through
        keeper.objects.bulk_create([keeper(gamerecord_id=record.pk, user_id=created_by.pk) for record in records],
                                   batch_size=BULK_BATCH)
    events = []
    for record, result, seated in zip(records, results, seated_each):
        event = new_event(record, 1, RESULT, result.payload, created_by, Request.of(RESULT, result.payload, None))
        event.chain_to(stored_hash(record, 0, seats=((order, player.pk) for order, player in enumerate(seated))))
        events.append(event)
    event_store().insert_many(events, finish=True)
    for record in records:
        _finished(record)
    return records


def append_event(target: GameRecord | AppendTarget, expected_seq: int, type: str, payload: dict[str, Any], *,
                 recorded_by: AbstractBaseUser | None = None, idempotency_key: str | None = None,
                 hold_end: bool = False) -> Event:
    """Append one event at ``expected_seq + 1`` to the record ``target`` (as
    :func:`records.selectors.append_target` read it, or a record the code itself hands over);
    never overwrite, never leave a gap. See "The append" above for what is checked and read.

    A retry (the same idempotency key and request) gets the event its first try stored, in every
    interleaving: its first try may commit between the look for it and the check of the place,
    which then finds the place taken — by the retry's own event, looked for once more.

    ``hold_end``: the move that ends the game by the rules leaves the record in progress, to be
    confirmed (``end_game``) or taken back (see "Ending as a table ends" above)."""
    target = target if isinstance(target, AppendTarget) else AppendTarget.of(target)
    request = Request.of(type, payload, idempotency_key or None)
    try:
        if target.record.result_only:
            return _append_result(target, expected_seq, request, recorded_by)
        return _append_move(target, expected_seq, request, recorded_by, hold_end)
    except SeqConflict:
        retry = _find_retry(target.record, request)
        if retry is None:
            raise
        return retry


@dataclass(frozen=True)
class Request:
    """An append as the client asked for it, before the rules engine completes its payload."""

    type: str
    payload: dict[str, Any]
    idempotency_key: str | None
    digest: str | None
    """What a retry's request is compared with, stored with the event when it has a key."""

    @classmethod
    def of(cls, type: str, payload: dict[str, Any], idempotency_key: str | None) -> Request:
        digest = None if idempotency_key is None else hashlib.sha256(
            integrity.canonical_json({"type": type, "payload": payload}).encode("ascii")).hexdigest()
        return cls(type, payload, idempotency_key, digest)


def _append_move(target: AppendTarget, expected_seq: int, request: Request,
                 recorded_by: AbstractBaseUser | None, hold_end: bool = False) -> Event:
    """An action of a game with a rules engine, checked against the position."""
    record, engine = target.record, replay.engine_for(target.record)
    with state_cache.held(record, target.ruleset_version) as held:
        if not (record.status == GameRecord.Status.IN_PROGRESS and held.seq == expected_seq
                and held.head is not None and target.last_seq in (None, expected_seq)):
            retry = _find_retry(record, request)
            if retry is not None:
                return retry
            _check_open(record)
            held.caught_up(*replay.current_state_and_head(
                record, engine, target.ruleset_version, setup=target.setup, cached=held.taken(), last=target.last_seq,
                after=target.events_after))
            _check_place(expected_seq, held.seq)
        held.forget()  # the state is about to stand for an event not stored yet
        # A refusal raises and stores nothing; the payload stored is the engine's, completed.
        payload = engine.apply(held.state, request.type, request.payload)
        event = new_event(record, expected_seq + 1, request.type, payload, recorded_by, request)
        event.chain_to(held.head if held.head is not None else stored_hash(record, held.seq))
        closes = request.type in RECORD_EVENT_SCHEMAS
        finished = closes or (engine.is_over(held.state) and not hold_end)
        status = GameRecord.Status.ABANDONED if request.type == ABANDON else GameRecord.Status.FINISHED
        # No snapshot of a closing event: it is the record's last, and nothing replays past it.
        snapshot = (None if closes or event.seq % replay.snapshot_every() != 0
                    else (target.ruleset_version, engine.snapshot(held.state)))
        try:
            event_store().insert(event, snapshot=snapshot, finish=finished, status=status)
        except PlaceTaken:
            return _lost_race(record, event, request)
        if finished:
            _finished(record, status)  # a closed record takes no more events: its state is not kept
        else:
            held.keep(event.seq, held.state, event.hash)
    return event


def _check_open(record: GameRecord) -> None:
    if record.status != GameRecord.Status.IN_PROGRESS:
        raise RecordClosed(f"the record is {record.status}: no more events", status=record.status)


def _check_place(expected_seq: int, current: int) -> None:
    """The client saw the last event, and the record has room for one more."""
    if expected_seq != current:
        raise SeqConflict(f"expected_seq is {expected_seq} but the last event is {current}", current_seq=current)
    limit = max_events_per_record()
    if current >= limit:
        raise RecordFull(f"the record already holds {limit} events, the most a record may hold", limit=limit)


def _lost_race(record: GameRecord, event: Event, request: Request) -> Event:
    """Another writer stored an event at this one's place first: it was this client's own first
    try (its stored event is the answer), or the client is told where the record stands now."""
    retry = _find_retry(record, request)
    if retry is not None:
        return retry
    current = last_seq(record)
    raise SeqConflict(f"another event took seq {event.seq}; the last event is now {current}", current_seq=current)


def _append_result(target: AppendTarget, expected_seq: int, request: Request,
                   recorded_by: AbstractBaseUser | None) -> Event:
    """A result-only record takes one result event, every seat's final score; it is then finished.
    A finished one takes corrections (:data:`CORRECTION`): the latest says the final scores."""
    record = target.record
    retry = _find_retry(record, request)
    if retry is not None:
        return retry
    if request.type == CORRECTION:
        return _append_correction(target, expected_seq, request, recorded_by)
    _check_open(record)
    _check_place(expected_seq, last_seq(record) if target.last_seq is None else target.last_seq)
    seats = list(record.seats.values_list("seat_order", "player_id"))
    check_result((order for order, _player in seats), request.type, request.payload,
                 cooperative=record.is_cooperative)
    event = new_event(record, expected_seq + 1, request.type, request.payload, recorded_by, request)
    event.chain_to(stored_hash(record, expected_seq, seats=seats))
    try:
        event_store().insert(event, finish=True)
    except PlaceTaken:
        return _lost_race(record, event, request)
    _finished(record)
    return event


def _append_correction(target: AppendTarget, expected_seq: int, request: Request,
                       recorded_by: AbstractBaseUser | None) -> Event:
    """A correction of a finished result-only record's result: a new event, never an edit. The
    record stays finished; once committed it is scored again (standings and ratings follow), and
    what moved is kept as the correction's impact (scoring)."""
    record = target.record
    if record.status != GameRecord.Status.FINISHED:
        raise RecordClosed(f"only a finished result can be corrected; the record is {record.status}",
                           status=record.status)
    _check_place(expected_seq, last_seq(record) if target.last_seq is None else target.last_seq)
    seats = list(record.seats.values_list("seat_order", "player_id"))
    check_result((order for order, _player in seats), request.type, request.payload,
                 cooperative=record.is_cooperative)
    event = new_event(record, expected_seq + 1, request.type, request.payload, recorded_by, request)
    event.chain_to(stored_hash(record, expected_seq, seats=seats))
    try:
        event_store().insert(event)
    except PlaceTaken:
        return _lost_race(record, event, request)
    record_id = record.pk
    transaction.on_commit(lambda: record_finished.send(sender=GameRecord, record_id=record_id))
    return event


def new_event(record: GameRecord, seq: int, type: str, payload: dict[str, Any],
              recorded_by: AbstractBaseUser | None, request: Request) -> Event:
    """An unsaved event, built as ``Model.from_db`` builds one (positional values: a fraction of
    what keyword arguments cost), its record and author already in place (no query to read them)."""
    values = {"id": None, "record_id": record.pk, "seq": seq, "type": type, "payload": payload,
              "recorded_by_id": None if recorded_by is None else recorded_by.pk,
              "recorded_at": timezone.now(), "idempotency_key": request.idempotency_key,
              "request_digest": request.digest, "recorded_by_per_file": None, "hash": ""}
    event = Event(*(values[name] for name in _EVENT_ATTNAMES))
    event._state.fields_cache["record"] = record
    if recorded_by is not None:
        event._state.fields_cache["recorded_by"] = recorded_by
    return event


_EVENT_ATTNAMES = tuple(field.attname for field in Event._meta.concrete_fields)


def stored_hash(record: GameRecord, seq: int, *, seats: Iterable[tuple[int, int]] | None = None) -> str:
    """The hash of the record's event ``seq``; for seq 0 the chain's start, the record's header
    digest (with ``seats``, its ``(seat order, player id)`` pairs, when the caller read them)."""
    if seq == 0:
        if seats is None:
            seats = Seat.objects.filter(record=record).values_list("seat_order", "player_id")
        return integrity.RecordHeader.of(record, seats).digest()
    stored = Event.objects.filter(record=record, seq=seq).values_list("hash", flat=True).first()
    # No event there would be a gap in the stream: the link says so, verify_events reports it.
    return stored or integrity.GENESIS


def check_result(seat_orders: Iterable[int], type: str, payload: dict[str, Any], *, cooperative: bool = False) -> None:
    """A result-only record takes one result event with a line for every seat, then corrections
    of it (the same lines, and why). A line gives the seat's score, its place (``rank``: 1 won),
    or both; without every score, every place. A cooperative game's result says instead whether
    the players won or lost together (``cooperative``), with their scores if the game has one.

    The same check for an event appended through the API and for a record file being imported.
    """
    if type not in (RESULT, CORRECTION):
        raise PayloadError("type", f"a result-only record takes one {RESULT!r} event and {CORRECTION!r} events, "
                                   f"not {type!r}")
    validate_payload({RESULT: RESULT_SCHEMA, CORRECTION: CORRECTION_SCHEMA}, type, payload)
    seats = sorted(seat_orders)
    given = sorted(line["seat"] for line in payload["scores"])
    if given != seats:
        raise PayloadError("payload.scores", f"payload.scores: give one score per seat {seats}, not {given}")
    if cooperative:
        if "cooperative" not in payload:
            raise PayloadError("payload.cooperative", "a cooperative game's result says whether the players won or "
                                                      "lost together: 'won' or 'lost'")
        placed = [line["seat"] for line in payload["scores"] if "rank" in line]
        if placed:
            raise PayloadError("payload.scores", f"payload.scores: a cooperative game has no places; seats {placed} "
                                                 "give one")
        return
    if "cooperative" in payload:
        raise PayloadError("payload.cooperative", "this record is not a cooperative game: give each seat's score "
                                                  "or place")
    lines = payload["scores"]
    if any("score" not in line for line in lines):
        unplaced = sorted(line["seat"] for line in lines if "rank" not in line)
        if unplaced:
            raise PayloadError("payload.scores", f"payload.scores: without every score, give every seat's place "
                                                 f"(rank); seats {unplaced} have none")


def finish(record: GameRecord, status: str = GameRecord.Status.FINISHED) -> None:
    GameRecord.objects.filter(pk=record.pk).update(status=status)
    _finished(record, status)


_finished_together: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("finished_together", default=None)


@contextmanager
def finishing_together() -> Iterator[list[int]]:
    """Records finished in this block are announced once, together, when the transaction commits
    (``records_finished``): a bulk import has their checkpoints written and their scoring queued
    in batches, not one at a time. Yields the ids gathered."""
    gathered: list[int] = []
    token = _finished_together.set(gathered)
    try:
        yield gathered
    finally:
        _finished_together.reset(token)
    if gathered:
        transaction.on_commit(lambda: records_finished.send(sender=GameRecord, record_ids=list(gathered)))


def _finished(record: GameRecord, status: str = GameRecord.Status.FINISHED) -> None:
    """The record's status is ``status`` (finished, or abandoned) in the database (in this
    transaction): say so once committed (an abandoned record is checkpointed too; scoring reads
    finished records only)."""
    record.status = status
    record_id = record.pk
    gathered = _finished_together.get()
    if gathered is not None:
        gathered.append(record_id)
        return
    transaction.on_commit(lambda: record_finished.send(sender=GameRecord, record_id=record_id))


def _find_retry(record: GameRecord, request: Request) -> Event | None:
    """The event stored under the request's idempotency key, when the request is the same as
    the one that stored it; :class:`IdempotencyKeyReused` when the key came with another."""
    key = request.idempotency_key
    if not key:
        return None
    existing = Event.objects.filter(record=record, idempotency_key=key).first()
    if existing is None:
        return None
    if existing.request_digest is not None:
        same = existing.request_digest == request.digest
    else:  # stored before requests were kept (or imported): the stored event is the request
        same = existing.type == request.type and existing.payload == request.payload
    if not same:
        raise IdempotencyKeyReused(
            f"idempotency key {key!r} was already used for a different event (seq {existing.seq})",
            seq=existing.seq,
        )
    return existing


def notation(record: GameRecord, event: Event) -> str:
    engine = None if record.result_only else get_engine(record.game_slug)
    return engine.notation(event.type, event.payload) if engine else event.type


def position(record: GameRecord, at: int | None = None, *, last: int | None = None) -> dict[str, Any]:
    """The position after event ``at`` as the state endpoint and ``replay --json`` give it
    (``last``: the record's last seq, when the caller read it with the record)."""
    return position_and_state(record, at, last=last)[0]


def position_and_state(record: GameRecord, at: int | None = None, *,
                       last: int | None = None) -> tuple[dict[str, Any], Any]:
    """:func:`position` and the engine state it describes (for a page that asks the engine more)."""
    engine = replay.engine_for(record)
    state, seq = replay.state_at(record, at, last=last)
    return position_document(engine, state, seq, seats=seating(record), ruleset_version=replay.ruleset_of(record)), state


def seating(record: GameRecord) -> list[dict[str, Any]]:
    """The record's seats as a position document lists them: ``{"seat", "player", "colour"}``."""
    return [
        {"seat": seat.seat_order, "player": seat.player.display_name, "colour": seat.colour}
        for seat in record.seats.select_related("player")
    ]


def recording_options(record: GameRecord, tile: str | None = None, **chosen: Any) -> dict[str, Any]:
    """What may be recorded next, from the engine (see ``options`` of the game's adapter), with
    the seq it applies after: the table recorder's menu, for any client. ``chosen`` narrows it
    as the game's adapter allows (Carcassonne Maps: ``island`` and ``stack``)."""
    engine = replay.engine_for(record)
    if chosen and not getattr(engine, "has_islands", False):
        raise PayloadError("island", f"island: {engine.name} has no islands")
    state, seq = replay.state_at(record)
    return {"seq": seq, "status": record.status, **engine.options(state, tile, **chosen)}


def position_document(engine: Any, state: Any, seq: int, *, seats: list[dict[str, Any]],
                      ruleset_version: str | None = None) -> dict[str, Any]:
    """One JSON shape for a position, whether it comes from the database or from a file
    (``ruleset_version``: the one it was judged by, the engine's newest by default)."""
    return viewed_position(engine, seq, engine.is_over(state), engine.view(state), seats=seats,
                           ruleset_version=ruleset_version)


def viewed_position(engine: Any, seq: int, is_over: bool, view: dict[str, Any], *, seats: list[dict[str, Any]],
                    ruleset_version: str | None = None) -> dict[str, Any]:
    """:func:`position_document` of a position already viewed (a replay that viewed it on its way)."""
    return {
        "game": engine.slug,
        "ruleset_version": ruleset_version or engine.ruleset_version,
        "at": seq,
        "seats": seats,
        "is_over": is_over,
        "position": view,
    }
