"""Rebuilding positions from the event stream.

The events are the truth; a snapshot every ``LUDOLOG_SNAPSHOT_EVERY`` events is a cache that
bounds the work: any position costs one snapshot restore plus at most K event applies.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connections, router

from games.registry import UNDO, EngineAdapter, get_engine

from .models import Event, GameRecord, RulesetMove, Snapshot

logger = logging.getLogger(__name__)


class NoEngine(LookupError):
    reason = "no_engine"
    status_code = 409

    def __init__(self, record: GameRecord) -> None:
        message = f"no rules engine replays {record.game_slug!r}" + (
            " (a result-only record)" if record.result_only else ""
        )
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = {}


class PositionOutOfRange(ValueError):
    reason = "at_out_of_range"
    status_code = 400

    def __init__(self, at: int, last: int) -> None:
        message = f"at must be between 0 and {last}, not {at}"
        super().__init__(message)
        self.message = message
        self.details = {"field": "at", "last_seq": last}


def engine_for(record: GameRecord) -> EngineAdapter:
    engine = None if record.result_only else get_engine(record.game_slug)
    if engine is None:
        raise NoEngine(record)
    return engine


def snapshot_every() -> int:
    return max(1, int(getattr(settings, "LUDOLOG_SNAPSHOT_EVERY", 16)))


def ruleset_of(record: GameRecord) -> str:
    """The ruleset the record is judged by now: its latest :class:`RulesetMove`'s, else the one it
    pinned at its start. Read once per record object (the append path reads it with the record:
    ``records.selectors.AppendTarget.ruleset_version``)."""
    if not hasattr(record, "moved_ruleset"):
        record.moved_ruleset = (  # type: ignore[attr-defined]
            RulesetMove.objects.filter(record=record).order_by("-id").values_list("to_version", flat=True).first()
        )
    return judged_by(record, record.moved_ruleset)  # type: ignore[attr-defined]


def judged_by(record: GameRecord, moved: str | None) -> str:
    """The ruleset a record is judged by when its latest move went to ``moved`` (None: never
    moved): that one, else the one it pinned, else (a record from before rulesets, or a result)
    its engine's."""
    if moved:
        return str(moved)
    if record.ruleset_version or record.result_only:
        return record.ruleset_version
    return engine_for(record).ruleset_version


def setup_of(record: GameRecord) -> dict[str, Any]:
    """The set-up the record is played with now: its latest move's (which may change variants),
    else the one it pinned."""
    if ruleset_of(record) == record.ruleset_version and not record.moved_ruleset:  # type: ignore[attr-defined]
        return dict(record.setup)
    move = RulesetMove.objects.filter(record=record).order_by("-id").values_list("to_setup", flat=True).first()
    return dict(move if move is not None else record.setup)


def initial_state(record: GameRecord, engine: EngineAdapter, ruleset: str | None = None,
                  setup: dict[str, Any] | None = None) -> Any:
    """The position before the first event (``ruleset`` and ``setup``: those the record is judged
    by and played with now, when the caller knows them)."""
    ruleset = ruleset_of(record) if ruleset is None else ruleset
    return engine.new_state(record.seats.count(), record.seed, setup_of(record) if setup is None else setup, ruleset)


def apply_event(engine: EngineAdapter, state: Any, type: str, payload: Any) -> None:
    """One stored event applied to ``state``: checked when it was appended, so not again."""
    if type == UNDO:
        engine.undo(state)
    else:
        engine.apply(state, type, payload, validate=False)


def apply_events(engine: EngineAdapter, state: Any, events: Iterable[Event]) -> Any:
    for event in events:
        apply_event(engine, state, event.type, event.payload)
    return state


def state_at(
    record: GameRecord, at: int | None = None, *, use_snapshots: bool = True, last: int | None = None
) -> tuple[Any, int]:
    """The engine state after event ``at`` (default: the last) and the seq it stands at.

    ``last`` is the record's last seq when the caller already knows it (saves a query).
    """
    engine = engine_for(record)
    if last is None:
        last = Event.objects.filter(record=record).order_by("-seq").values_list("seq", flat=True).first() or 0
    target = last if at is None else at
    if not 0 <= target <= last:
        raise PositionOutOfRange(target, last)
    if use_snapshots:
        # One query: the latest snapshot at or before the target and the events after it.
        snapshot, rows = _snapshot_and_events(record, target)
        state, start = _restore_data(record, engine, snapshot)
        if snapshot is None or start == snapshot[0]:
            _apply_rows(engine, state, rows)
            return state, target
        # The snapshot could not be read: replay from the start.
    else:
        state, start = _restore(record, engine, None)
    events = Event.objects.filter(record=record, seq__gt=start, seq__lte=target).order_by("seq")
    return apply_events(engine, state, events.only("seq", "type", "payload")), target


def start_and_events(record: GameRecord, engine: EngineAdapter, start_by: int, until: int, *,
                     use_snapshots: bool = True) -> tuple[Any, int, list[tuple[int, str, Any]]]:
    """A state to replay from at or before event ``start_by`` (the latest snapshot there, else
    the first position), the seq it stands at, and the events ``(seq, type, payload)`` after it
    up to ``until``, in one query: a reader that wants several positions replays them in one
    pass from there."""
    if not use_snapshots:
        state, start = initial_state(record, engine), 0
        rows = Event.objects.filter(record=record, seq__gt=0, seq__lte=until).order_by("seq")
        return state, start, list(rows.values_list("seq", "type", "payload"))
    snapshot, rows = _snapshot_and_events(record, start_by, until)
    state, start = _restore_data(record, engine, snapshot)
    if snapshot is not None and start != snapshot[0]:
        # The snapshot could not be read: the events before it too.
        return start_and_events(record, engine, start_by, until, use_snapshots=False)
    return state, start, rows


def _snapshot_and_events(record: GameRecord, target: int, until: int | None = None
                         ) -> tuple[tuple[int, Any] | None, list[tuple[int, str, Any]]]:
    """The latest snapshot of the record's ruleset at or before ``target`` (``(seq, state)``, or
    None) and the events after it up to ``until`` (default: ``target``), in one query."""
    snapshots, events = Snapshot._meta.db_table, Event._meta.db_table
    latest = (f"(SELECT MAX(seq) FROM {snapshots} WHERE record_id = %s AND ruleset_version = %s AND seq <= %s)")
    # The state and the payloads in columns of their own: a snapshot's state is json, an
    # event's payload jsonb (see WholeJSONField), which one column could not hold uncast.
    sql = (
        f"SELECT 0, seq, '', state, NULL FROM {snapshots} WHERE record_id = %s AND ruleset_version = %s"
        f" AND seq = {latest}"
        f" UNION ALL SELECT 1, seq, type, NULL, payload FROM {events} WHERE record_id = %s AND seq <= %s"
        f" AND seq > COALESCE({latest}, 0)"
        " ORDER BY 1, 2"
    )
    ruleset = ruleset_of(record)
    key = (record.pk, ruleset, target)
    using = router.db_for_read(Event, instance=record)
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [record.pk, ruleset, *key, record.pk, target if until is None else until, *key])
        fetched = cursor.fetchall()
    snapshot = None
    rows = []
    for kind, seq, type, state, payload in fetched:
        data = state if kind == 0 else payload
        value = json.loads(data) if isinstance(data, (str, bytes)) else data
        if kind == 0:
            snapshot = (seq, value)
        else:
            rows.append((seq, type, value))
    return snapshot, rows


def _restore(record: GameRecord, engine: EngineAdapter, snapshot: Snapshot | None) -> tuple[Any, int]:
    """The snapshot's state, or the initial state when there is none or it cannot be read."""
    return _restore_data(record, engine, None if snapshot is None else (snapshot.seq, snapshot.state))


def _restore_data(record: GameRecord, engine: EngineAdapter, snapshot: tuple[int, Any] | None,
                  ruleset: str | None = None, setup: dict[str, Any] | None = None) -> tuple[Any, int]:
    if snapshot is not None:
        seq, data = snapshot
        try:
            return engine.restore(data), seq
        except ValueError:
            # An unreadable cache entry (an older snapshot layout) costs a replay, never an answer.
            logger.warning("ignoring unreadable snapshot %s of record %s", seq, record.pk)
    return initial_state(record, engine, ruleset, setup), 0


def _apply_rows(engine: EngineAdapter, state: Any, rows: Iterable[tuple[Any, ...]]) -> None:
    """Apply rows that start ``(seq, type, payload, …)``."""
    for _seq, type, payload, *_rest in rows:
        apply_event(engine, state, type, payload)


def catch_up_limit() -> int:
    """How many events a cached state may replay to catch up before a snapshot is cheaper."""
    return 2 * snapshot_every()


def current_state(
    record: GameRecord, *, cached: tuple[int, Any] | None = None, last: int | None = None
) -> tuple[Any, int]:
    """The state after the last event and that event's seq.

    ``cached`` is ``(seq, state)``, a state this process built after event ``seq`` (see
    :mod:`records.state_cache`); it is advanced in place by the events stored after ``seq``.
    ``last`` is the record's last seq as read from the database in this request, when the
    caller has it: a cached state already at ``last`` needs no further query.

    Otherwise two queries (latest snapshot, the events after it): the append path needs both
    the last seq (for the concurrency check) and the state, and the events after the latest
    snapshot give both without a separate ``MAX(seq)`` query. Rows are read as tuples, not
    model instances: nothing else of them is needed.
    """
    state, seq, _head = current_state_and_head(record, engine_for(record), ruleset_of(record), cached=cached, last=last)
    return state, seq


def current_state_and_head(
    record: GameRecord, engine: EngineAdapter, ruleset: str, *, setup: dict[str, Any] | None = None,
    cached: tuple[int, Any] | None = None, last: int | None = None,
    after: tuple[int, Sequence[tuple[int, str, Any, str]]] | None = None,
) -> tuple[Any, int, str | None]:
    """:func:`current_state`, and the hash of that last event when the events read bring it
    (``None`` when none was read: a cached state already current, or no event after the
    snapshot). The append chains its event to that hash: a process whose cached state is a few
    events behind (another worker took the record's last appends) then needs no query of its own
    for it.

    ``after`` is ``(seq, rows)``: the events after ``seq`` as the request's first query read
    them, with ``last`` (``records.selectors.AppendTarget.events_after``). When they are exactly
    the events from the cached state's seq to ``last``, nothing is read. ``ruleset`` is the one
    the record is judged by (its snapshots are that ruleset's), ``setup`` the set-up it is played
    with now (read when None and the game has to start from its first position)."""
    if cached is not None:
        seq, state = cached
        if last is not None and last == seq:
            return state, seq, None
        if (after is not None and last is not None and after[0] == seq and len(after[1]) == last - seq
                and [row[0] for row in after[1]] == list(range(seq + 1, last + 1))):
            _apply_rows(engine, state, after[1])
            return state, last, after[1][-1][3] or None
        limit = catch_up_limit()
        if last is None or last - seq <= limit:
            rows = list(
                Event.objects.filter(record=record, seq__gt=seq).order_by("seq")
                .values_list("seq", "type", "payload", "hash")[: limit + 1]
            )
            if len(rows) <= limit:
                _apply_rows(engine, state, rows)
                return (state, rows[-1][0], rows[-1][3] or None) if rows else (state, seq, None)
        # Too far behind: the latest snapshot plus a few events is cheaper than this catch-up.
    snapshot = (
        Snapshot.objects.filter(record=record, ruleset_version=ruleset)
        .order_by("-seq").values_list("seq", "state").first()
    )
    state, start = _restore_data(record, engine, snapshot, ruleset, setup)
    rows = list(
        Event.objects.filter(record=record, seq__gt=start).order_by("seq")
        .values_list("seq", "type", "payload", "hash")
    )
    _apply_rows(engine, state, rows)
    return (state, rows[-1][0], rows[-1][3] or None) if rows else (state, start, None)


def save_snapshot(record: GameRecord, engine: EngineAdapter, state: Any, seq: int) -> None:
    # One INSERT … ON CONFLICT DO NOTHING: a snapshot already stored for this place is kept,
    # as get_or_create would, without its SELECT and savepoint round trips.
    Snapshot.objects.bulk_create(
        [Snapshot(record=record, seq=seq, ruleset_version=ruleset_of(record), state=engine.snapshot(state))],
        ignore_conflicts=True,
    )



def store_snapshots(record: GameRecord, engine: EngineAdapter, snapshots: Iterable[tuple[int, Any]]) -> int:
    """Store snapshots already taken (``(seq, engine.snapshot(state))`` pairs); returns how many."""
    rows = [
        Snapshot(record=record, seq=seq, ruleset_version=ruleset_of(record), state=data)
        for seq, data in snapshots
    ]
    Snapshot.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def rebuild_snapshots(record: GameRecord) -> int:
    """Drop a record's snapshots and write them again from its events; returns how many."""
    Snapshot.objects.filter(record=record).delete()
    engine = engine_for(record)
    state = initial_state(record, engine)
    every = snapshot_every()
    written = 0
    for event in Event.objects.filter(record=record).order_by("seq"):
        apply_events(engine, state, [event])
        if event.seq % every == 0:
            save_snapshot(record, engine, state, event.seq)
            written += 1
    return written


@dataclass(frozen=True)
class HistoryLine:
    event: Event
    notation: str
    retracted_by: int | None
    """The seq of the undo event that took this action back, if any."""


def retractions(kinds: Iterable[tuple[int, str]]) -> dict[int, int]:
    """The seq of each action an undo took back → the seq of that undo, from (seq, type) pairs
    in order (an undo takes back the last action not taken back yet)."""
    retracted: dict[int, int] = {}
    effective: list[int] = []
    for seq, kind in kinds:
        if kind == UNDO:
            if effective:
                retracted[effective.pop()] = seq
        else:
            effective.append(seq)
    return retracted


def history(record: GameRecord, events: Sequence[Event] | None = None) -> list[HistoryLine]:
    """Every event with its notation and, for retracted actions, the undo that retracted it."""
    events = list(events if events is not None else record.events.select_related("recorded_by"))
    return history_lines(record, events, retractions((event.seq, event.type) for event in events))


def history_page(record: GameRecord, events: Sequence[Event]) -> list[HistoryLine]:
    """:func:`history` for some of a record's events (a page of a long record): which of them an
    undo took back is read from the seqs and types of all events, not their payloads."""
    kinds = Event.objects.filter(record=record).order_by("seq").values_list("seq", "type")
    return history_lines(record, events, retractions(kinds.iterator(chunk_size=5000)))


def history_lines(record: GameRecord, events: Sequence[Event], retracted: dict[int, int]) -> list[HistoryLine]:
    engine = None if record.result_only else get_engine(record.game_slug)
    return [
        HistoryLine(
            event=event,
            notation=engine.notation(event.type, event.payload) if engine else event.type,
            retracted_by=retracted.get(event.seq),
        )
        for event in events
    ]
