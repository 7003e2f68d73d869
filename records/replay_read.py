"""What the replay viewer shows of a record, read in one pass over its events.

A replay page shows the position after event N, the events listed around N with the positions
before and after each (the web layer says them in words), every player's score after every event
and, for a game that is over, its final position. All of it comes from one replay: the events
are applied once each, in order, and the positions wanted are viewed on the way. (The page used
to replay the game up to four times on a cold cache, once for each of these: issue 34.)

What is the same at every step, the scores over the game and the final position, is kept in the
cache under the record's last event; the position after N under N, since an event never changes
once recorded. The events whose words the caller has already are said to :func:`read_replay` as
``told``: no position is viewed for them. Whatever is kept about a record's replay, here or by
the pages, is kept under a key made by :func:`cache_key`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from games.registry import EngineAdapter

from . import replay, selectors, services
from .models import GameRecord

Position = Mapping[str, Any]
"""An engine's view of a position (``adapter.view(state)``)."""

KEPT_FOR = 24 * 3600
"""Seconds a record's scores over the game, final position and positions stay in the cache."""


def cache_key(record: GameRecord, *parts: object) -> str:
    """Where something worked out from a record's events is kept: under the record (and when it
    was created: a test database gives ids again), the ruleset it is judged by (a move replays
    it otherwise), and ``parts``, what it is (``"said", seq, language``).

    Anything that depends on which event is the last names that seq among its ``parts``.
    """
    created = record.created_at.timestamp() if record.created_at else ""
    return ":".join(("ludolog:replay", str(record.pk), str(created), replay.ruleset_of(record), *map(str, parts)))


@dataclass(frozen=True)
class Step:
    """One event listed, with the positions its words are said from."""

    line: replay.HistoryLine
    """The event, its notation and the undo that took it back, if any."""
    before: Position | None
    """The engine's view before the event; ``None`` for an event the caller has words for."""
    after: Position | None
    """The engine's view after it; ``None`` likewise."""


@dataclass(frozen=True)
class ReplayRead:
    """Everything a replay page shows of its record at step ``at``."""

    at: int
    last: int
    document: dict[str, Any]
    """The position after event ``at``, as the state API gives it (``services.position``)."""
    steps: tuple[Step, ...]
    """The events listed, in order."""
    scores: tuple[tuple[int, ...], ...]
    """Seat by seat, the score after each event (index = event number, 0 the first position)."""
    end: Position | None
    """The position after the last event when the rules have ended the game, else ``None``."""


@dataclass(frozen=True)
class _Pass:
    viewed: dict[int, tuple[bool, Position]]
    """seq → (whether the game is over there, the engine's view)."""
    totals: list[list[int]]
    """Each seat's total after each event, when the pass started from the first position."""
    kinds: list[tuple[int, str]] | None
    """``(seq, type)`` of every event, when the pass read them all."""


def read_replay(record: GameRecord, at: int, *, last: int, listed: range, told: Collection[int] = ()) -> ReplayRead:
    """The replay page of ``record`` at step ``at`` (``last``: its last seq, which the caller
    has checked ``at`` against), listing the events ``listed``; ``told``: those of them whose
    words the caller has, for which no position is viewed.

    On a cold cache the record is replayed once from its first position; with its scores kept,
    only from the snapshot before the first position wanted to the last one, if any is wanted.
    """
    engine = replay.engine_for(record)
    course_key, position_key = cache_key(record, "course", last), cache_key(record, "position", at)
    kept = cache.get_many([course_key, position_key])
    course, position = kept.get(course_key), kept.get(position_key)
    wanted = _around(listed, told)
    if position is None:
        wanted.add(at)
    if course is None:
        wanted.add(last)
    passed = _replay(record, engine, wanted, every_score=course is None, last=last)
    new = {}
    if course is None:
        is_over, view = passed.viewed[last]
        course = new[course_key] = {"scores": [list(column) for column in zip(*passed.totals)],
                                    "end": view if is_over else None}
    if position is None:
        position = new[position_key] = passed.viewed[at]
    if new:
        cache.set_many(new, KEPT_FOR)
    is_over, view = position
    document = services.viewed_position(engine, at, is_over, view, seats=services.seating(record),
                                        ruleset_version=replay.ruleset_of(record))
    return ReplayRead(at=at, last=last, document=document,
                      steps=_steps(record, listed, told, passed, last),
                      scores=tuple(tuple(column) for column in course["scores"]), end=course["end"])


def read_steps(record: GameRecord, listed: range, *, last: int, told: Collection[int] = ()) -> tuple[Step, ...]:
    """The events ``listed`` alone, as :func:`read_replay` gives them (``last``: the record's
    last seq): the list the viewer fetches around a step its page does not list."""
    passed = _replay(record, replay.engine_for(record), _around(listed, told), every_score=False, last=last)
    return _steps(record, listed, told, passed, last)


def _around(listed: range, told: Collection[int]) -> set[int]:
    """The positions the words of the events ``listed`` but not ``told`` are said from."""
    return {seq for event in listed if event not in told for seq in (event - 1, event)}


def _replay(record: GameRecord, engine: EngineAdapter, wanted: set[int], *, every_score: bool, last: int) -> _Pass:
    """One pass over the events, each applied once: from the first position with every score,
    else from the latest snapshot at or before the first position ``wanted``; up to the last
    position wanted, each viewed on the way."""
    if not wanted and not every_score:
        return _Pass({}, [], None)
    until = last if every_score else max(wanted)
    state, start, rows = replay.start_and_events(record, engine, min(wanted, default=0), until,
                                                 use_snapshots=not every_score)
    viewed: dict[int, tuple[bool, Position]] = {}
    totals = [engine.totals(state)] if every_score else []
    if start in wanted:
        viewed[start] = (engine.is_over(state), engine.view(state))
    for seq, kind, payload in rows:
        replay.apply_event(engine, state, kind, payload)
        if every_score:
            totals.append(engine.totals(state))
        if seq in wanted:
            viewed[seq] = (engine.is_over(state), engine.view(state))
    return _Pass(viewed, totals, [(seq, kind) for seq, kind, _payload in rows] if every_score else None)


def _steps(record: GameRecord, listed: range, told: Collection[int], passed: _Pass, last: int) -> tuple[Step, ...]:
    if not listed:
        return ()
    events = selectors.events_between(record, listed.start, listed.stop - 1)
    if passed.kinds is not None:
        retracted = replay.retractions(passed.kinds)
    elif listed.start == 1 and listed.stop - 1 == last:
        retracted = replay.retractions((event.seq, event.type) for event in events)
    else:
        retracted = selectors.retracted(record)
    return tuple(
        Step(line, *((None, None) if line.event.seq in told else
                     (passed.viewed[line.event.seq - 1][1], passed.viewed[line.event.seq][1])))
        for line in replay.history_lines(record, events, retracted)
    )
