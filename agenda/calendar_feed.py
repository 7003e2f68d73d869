"""An organisation's public sessions as an iCalendar feed (RFC 5545), written by the icalendar
library: each session one VEVENT with a UID that stays its own, its times in UTC, its summary in
the organisation's language, a cancelled session kept as STATUS:CANCELLED (so that a calendar
that had it takes it off)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.conf import settings
from django.utils import timezone, translation
from icalendar import Calendar, Event

from .models import Session


def uid_of(session: Session) -> str:
    return f"session-{session.pk}@{session.organisation.slug}.ludolog"


def feed(organisation: object, sessions: Iterable[Session], *, name: str) -> bytes:
    """The iCalendar file of ``sessions`` of ``organisation`` (calendar name ``name``)."""
    language = getattr(organisation, "language", "") or settings.LANGUAGE_CODE
    calendar = Calendar()
    calendar.add("prodid", "-//Ludolog//agenda//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    with translation.override(language):
        for session in sessions:
            event = Event()
            event.add("uid", uid_of(session))
            event.add("dtstamp", session.created_at.astimezone(dt.timezone.utc))
            event.add("dtstart", session.starts_at.astimezone(dt.timezone.utc))
            event.add("dtend", session.ends_at.astimezone(dt.timezone.utc))
            event.add("summary", session.name)
            address = ", ".join(part for part in (getattr(organisation, "address", ""),
                                                  getattr(organisation, "town", "")) if part)
            if address:
                event.add("location", address)
            if session.cancelled:
                event.add("status", "CANCELLED")
                if session.cancel_reason:
                    event.add("description", session.cancel_reason)
            else:
                event.add("status", "CONFIRMED")
            calendar.add_component(event)
    return calendar.to_ical()


def feed_range(today: dt.date | None = None) -> tuple[dt.datetime, dt.datetime]:
    """What the feed holds: the last month's sessions and the coming year's."""
    today = today or timezone.localdate()
    start = timezone.make_aware(dt.datetime.combine(today - dt.timedelta(days=31), dt.time.min))
    return start, start + dt.timedelta(days=31 + 366)
