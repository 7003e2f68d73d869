"""What the replay viewer shows of a record, read in one pass over its events.

A replay page shows the position after event N, the events listed around N in words (the web
layer's, said from the positions before and after each), every player's score after every event
and, for a game that is over, its final position. All of it comes from one replay: the events
are applied once each, in order, and the positions wanted are viewed on the way. (The page used
to replay the game up to four times on a cold cache, once for each of these: issue 34.)

What is the same at every step, the scores over the game and the final position, is kept in the
cache under the record's last event; the position after N under N, since an event never changes
once recorded. The caller's words for the events (``say``) are made during the pass, as each
event is applied, for those the caller has not ``told`` already (its own cache holds them).
Whatever is kept about a record's replay, here or by the pages, is kept under a key made by
:func:`cache_key`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
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
    """One event with the positions before and after it: what its words are said from."""

    game: str
    """The record's game (its slug)."""
    seq: int
    type: str
    payload: Mapping[str, Any]
    notation: str
    before: Position
    """The engine's view before the event."""
    after: Position
    """The engine's view after it."""


Seats = Sequence[Mapping[str, Any]]
Say = Callable[[Step, Seats], Any]
"""What the caller makes of an event (the web layer: its words), from its step and the record's
seats (``{"seat", "player", "colour"}``); called during the replay, as each event is applied,
so that no more than two positions are held for it at a time."""


@dataclass(frozen=True)
class ReplayRead:
    """Everything a replay page shows of its record at step ``at``."""

    at: int
    last: int
    document: dict[str, Any]
    """The position after event ``at``, as the state API gives it (``services.position``)."""
    lines: tuple[replay.HistoryLine, ...]
    """The events listed, in order, each with its notation and the undo that took it back."""
    said: Mapping[int, Any]
    """seq → what ``say`` made of each event listed and not told."""
    scores: tuple[tuple[int, ...], ...]
    """Seat by seat, the score after each event (index = event number, 0 the first position)."""
    end: Position | None
    """The position after the last event when the rules have ended the game, else ``None``."""


@dataclass(frozen=True)
class Listed:
    """The events listed around a step, as :func:`read_replay` gives them, and the seats."""

    seats: list[dict[str, Any]]
    lines: tuple[replay.HistoryLine, ...]
    said: Mapping[int, Any]


@dataclass(frozen=True)
class _Pass:
    viewed: dict[int, tuple[bool, Position]]
    """seq → (whether the game is over there, the engine's view), for the positions wanted."""
    said: dict[int, Any]
    totals: list[list[int]]
    """Each seat's total after each event, when the pass started from the first position."""
    kinds: list[tuple[int, str]] | None
    """``(seq, type)`` of every event, when the pass read them all."""


def read_replay(record: GameRecord, at: int, *, last: int, listed: range, told: Collection[int], say: Say
                ) -> ReplayRead:
    """The replay page of ``record`` at step ``at`` (``last``: its last seq, which the caller
    has checked ``at`` against), listing the events ``listed``, each said by ``say`` but those
    ``told`` (the caller has their words).

    On a cold cache the record is replayed once from its first position; with its scores kept,
    only from the snapshot before the first position wanted to the last one, if any is wanted.
    """
    engine = replay.engine_for(record)
    course_key, position_key = cache_key(record, "course", last), cache_key(record, "position", at)
    kept = cache.get_many([course_key, position_key])
    course, position = kept.get(course_key), kept.get(position_key)
    wanted: set[int] = set()
    if position is None:
        wanted.add(at)
    if course is None:
        wanted.add(last)
    seats = services.seating(record)
    passed = _replay(record, engine, wanted, _untold(listed, told), say, seats, every_score=course is None, last=last)
    new: dict[str, Any] = {}
    if course is None:
        is_over, view = passed.viewed[last]
        course = new[course_key] = {"scores": [list(column) for column in zip(*passed.totals)],
                                    "end": view if is_over else None}
    if position is None:
        position = new[position_key] = passed.viewed[at]
    if new:
        cache.set_many(new, KEPT_FOR)
    is_over, view = position
    document = services.viewed_position(engine, at, is_over, view, seats=seats,
                                        ruleset_version=replay.ruleset_of(record))
    return ReplayRead(at=at, last=last, document=document, lines=_lines(record, listed, passed, last),
                      said=passed.said, scores=tuple(tuple(column) for column in course["scores"]),
                      end=course["end"])


def read_listed(record: GameRecord, listed: range, *, last: int, told: Collection[int], say: Say) -> Listed:
    """The events ``listed`` alone, as :func:`read_replay` gives them (``last``: the record's
    last seq): the list the viewer fetches around a step its page does not list."""
    seats = services.seating(record)
    passed = _replay(record, replay.engine_for(record), set(), _untold(listed, told), say, seats,
                     every_score=False, last=last)
    return Listed(seats, _lines(record, listed, passed, last), passed.said)


def read_said(record: GameRecord, seqs: range, *, told: Collection[int], say: Say, seats: Seats) -> dict[int, Any]:
    """What ``say`` makes of each of the events ``seqs`` but those ``told``, by seq (``seats``:
    the record's, as the caller read them): the table recorder's last moves."""
    passed = _replay(record, replay.engine_for(record), set(), _untold(seqs, told), say, seats,
                     every_score=False, last=seqs.stop - 1)
    return passed.said


def _untold(listed: range, told: Collection[int]) -> list[int]:
    return [seq for seq in listed if seq not in told]


def _replay(record: GameRecord, engine: EngineAdapter, wanted: set[int], untold: list[int], say: Say, seats: Seats,
            *, every_score: bool, last: int) -> _Pass:
    """One pass over the events, each applied once: from the first position with every score,
    else from the latest snapshot at or before the first position wanted; up to the last
    position wanted. The positions ``wanted`` are kept, the events ``untold`` said on the way."""
    if not (wanted or untold or every_score):
        return _Pass({}, {}, [], None)
    saying = set(untold)
    first = min(wanted | {seq - 1 for seq in untold})
    until = last if every_score else max(wanted | saying)
    state, start, rows = replay.start_and_events(record, engine, first, until, use_snapshots=not every_score)
    viewed: dict[int, tuple[bool, Position]] = {}
    said: dict[int, Any] = {}
    totals = [engine.totals(state)] if every_score else []
    # A position is viewed once, and held only while something still needs it: a view is large,
    # and a hundred held at once made the garbage collector's passes cost more than the replay.
    view = engine.view(state) if start in wanted or start + 1 in saying else None
    if start in wanted:
        viewed[start] = (engine.is_over(state), view)
    for seq, kind, payload in rows:
        before = view
        replay.apply_event(engine, state, kind, payload)
        if every_score:
            totals.append(engine.totals(state))
        view = engine.view(state) if seq in wanted or seq in saying or seq + 1 in saying else None
        if seq in saying:
            said[seq] = say(Step(record.game_slug, seq, kind, payload, engine.notation(kind, payload), before, view),
                            seats)
        if seq in wanted:
            viewed[seq] = (engine.is_over(state), view)
    return _Pass(viewed, said, totals, [(seq, kind) for seq, kind, _payload in rows] if every_score else None)


def _lines(record: GameRecord, listed: range, passed: _Pass, last: int) -> tuple[replay.HistoryLine, ...]:
    if not listed:
        return ()
    events = selectors.events_between(record, listed.start, listed.stop - 1)
    if passed.kinds is not None:
        retracted = replay.retractions(passed.kinds)
    elif listed.start == 1 and listed.stop - 1 == last:
        retracted = replay.retractions((event.seq, event.type) for event in events)
    else:
        retracted = selectors.retracted(record)
    return tuple(replay.history_lines(record, events, retracted))
