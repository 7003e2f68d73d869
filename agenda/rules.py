"""The agenda's rules as pure functions: the standard library and the age bands only.

Who is counted at the door, when a session may still be counted, when an edit is a correction,
which days an organisation's opening hours open on, and who of a waiting list gets the places a
cancellation frees.

>>> from datetime import date, time
>>> hours = [Hours(id=1, weekday=2, starts=time(14), ends=time(18), valid_from=date(2026, 1, 1), valid_until=None)]
>>> [slot.day.isoformat() for slot in opening_slots(hours, [(date(2026, 1, 14), date(2026, 1, 14))],
...                                                  date(2026, 1, 5), date(2026, 1, 25))]
['2026-01-07', '2026-01-21']
>>> promoted(3, [(10, 2), (11, 2), (12, 1)])
[10, 12]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from loans.ages import AgeBand


class Public(StrEnum):
    """Who a tap at the door counts: a family arriving (a unit, beside its people), a person of
    an age band, or a person of a booked group."""

    FAMILY = "family"
    CHILD_0_2 = AgeBand.CHILD_0_2.value
    CHILD_3_5 = AgeBand.CHILD_3_5.value
    CHILD_6_11 = AgeBand.CHILD_6_11.value
    CHILD_12_17 = AgeBand.CHILD_12_17.value
    ADULT = AgeBand.ADULT.value
    SENIOR = AgeBand.SENIOR.value
    GROUP_CHILD = "group_child"
    GROUP_ADULT = "group_adult"


PERSONS = tuple(public for public in Public if public is not Public.FAMILY)
"""The publics that are people: attendance is their sum (a family is counted beside its people)."""
GROUP_PUBLICS = (Public.GROUP_CHILD, Public.GROUP_ADULT)

EARLY_COUNTING = dt.timedelta(hours=1)
"""Counting opens this long before a session starts: the first families wait at the door."""
COUNTING_DAYS_AFTER = dt.timedelta(days=7)
"""Taps are taken until this long after a session ends: a phone offline the whole afternoon
catches up the next days. Later, a count is changed by a correction with its reason."""
CORRECTION_AFTER = dt.timedelta(days=1)
"""An edit of a session that ended longer ago than this is a correction: it needs a reason."""


def counting_refusal(now: dt.datetime, starts_at: dt.datetime, ends_at: dt.datetime, cancelled: bool) -> str | None:
    """Why a tap at ``now`` is not taken for a session (a reason code), or None when it is.

    >>> start = dt.datetime(2026, 3, 4, 14, tzinfo=dt.timezone.utc)
    >>> end = start + dt.timedelta(hours=4)
    >>> counting_refusal(start, start, end, False) is None, counting_refusal(end + dt.timedelta(days=8), start, end, False)
    (True, 'session_closed_for_counting')
    """
    if cancelled:
        return "session_cancelled"
    if now < starts_at - EARLY_COUNTING:
        return "session_not_started"
    if now > ends_at + COUNTING_DAYS_AFTER:
        return "session_closed_for_counting"
    return None


def is_correction(ends_at: dt.datetime, now: dt.datetime) -> bool:
    """Whether an edit at ``now`` of a session ending at ``ends_at`` corrects the past (needs a reason)."""
    return now - ends_at > CORRECTION_AFTER


@dataclass(frozen=True)
class Hours:
    """One line of an organisation's opening hours: a weekday (0 Monday), from ``starts`` to
    ``ends``, valid from a day until a day (None: until further notice)."""

    id: int
    weekday: int
    starts: dt.time
    ends: dt.time
    valid_from: dt.date
    valid_until: dt.date | None


@dataclass(frozen=True)
class Slot:
    day: dt.date
    starts: dt.time
    ends: dt.time
    hours_id: int


def days(first_day: dt.date, last_day: dt.date) -> Iterable[dt.date]:
    day = first_day
    while day <= last_day:
        yield day
        day += dt.timedelta(days=1)


def closed_on(day: dt.date, closures: Sequence[tuple[dt.date, dt.date]]) -> bool:
    return any(first <= day <= last for first, last in closures)


def opening_slots(hours: Sequence[Hours], closures: Sequence[tuple[dt.date, dt.date]], first_day: dt.date,
                  last_day: dt.date) -> list[Slot]:
    """The openings the ``hours`` make from ``first_day`` to ``last_day`` (both included), none
    on a day of a closure (first and last day included), in order of day and time."""
    slots = [Slot(day, line.starts, line.ends, line.id)
             for day in days(first_day, last_day) if not closed_on(day, closures)
             for line in hours
             if line.weekday == day.weekday() and line.valid_from <= day
             and (line.valid_until is None or day <= line.valid_until)]
    return sorted(slots, key=lambda slot: (slot.day, slot.starts, slot.hours_id))


def registers(capacity: int | None, places_taken: int, places: int, anyone_waiting: bool) -> bool:
    """Whether a registration for ``places`` gets them (else it waits): there is room, and nobody
    waits already (who came first is served first).

    >>> registers(10, 8, 2, False), registers(10, 8, 3, False), registers(10, 0, 1, True), registers(None, 99, 5, False)
    (True, False, False, True)
    """
    if capacity is None:
        return True
    return not anyone_waiting and places_taken + places <= capacity


def promoted(free_places: int | None, waiting: Sequence[tuple[int, int]]) -> list[int]:
    """Of the ``waiting`` registrations ((id, places), in the order they came), those that get
    places when ``free_places`` are free (None: no limit): each in turn that fits, so that a large
    family at the head of the list does not keep a single place empty."""
    chosen: list[int] = []
    for registration, places in waiting:
        if free_places is None or places <= free_places:
            chosen.append(registration)
            if free_places is not None:
                free_places -= places
    return chosen
