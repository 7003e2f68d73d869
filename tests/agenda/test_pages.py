"""The agenda's pages: the public calendar and its iCal feed (read back with icalendar), the
registration page, and the staff's pages refused to those who are not staff."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from agenda import services
from agenda.models import DoorCount, Registration, Session

pytestmark = pytest.mark.django_db


@pytest.fixture
def week(library, librarian):
    """Opening hours every day 10:00–12:00 from today, an event tomorrow evening with 2 places,
    a cancelled game night, and a school's visit (not public)."""
    today = timezone.localdate()
    for weekday in range(7):
        services.add_opening_hours(library, librarian, weekday=weekday, starts=dt.time(10), ends=dt.time(12),
                                   valid_from=today, label="Accueil tout public")
    start = timezone.make_aware(dt.datetime.combine(today + dt.timedelta(days=1), dt.time(20)))
    event = services.plan_session(library, librarian, kind="event", title="Soirée enquête", capacity=2,
                                  registration=True, starts_at=start, ends_at=start + dt.timedelta(hours=3))
    night = services.plan_session(library, librarian, kind="game_night", title="Soirée jeux",
                                  starts_at=start + dt.timedelta(days=1), ends_at=start + dt.timedelta(days=1, hours=3))
    services.cancel_session(night, librarian, reason="Salle indisponible")
    services.plan_session(library, librarian, kind="group_visit", structure_kind="school", structure_name="École Zola",
                          starts_at=start - dt.timedelta(hours=10), ends_at=start - dt.timedelta(hours=9))
    return event


def test_the_public_calendar(client, library, week):
    page = client.get(f"/organisations/{library.slug}/calendar/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Soirée enquête" in text and "École Zola" not in text and "Salle indisponible" in text
    assert f"/organisations/{library.slug}/sessions/{week.pk}/register/" in text
    # An opening a day for eight weeks from today, the event and the cancelled night; not the school.
    assert text.count('data-testid="calendar-session"') == 8 * 7 + 2


def test_the_ical_feed_reads_back(client, library, week):
    response = client.get(f"/organisations/{library.slug}/calendar.ics")
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    events = {str(event["uid"]): event for event in calendar.walk("VEVENT")}
    night = Session.objects.get(kind="game_night")
    assert events[f"session-{week.pk}@{library.slug}.ludolog"]["summary"] == "Soirée enquête"
    assert events[f"session-{night.pk}@{library.slug}.ludolog"]["status"] == "CANCELLED"
    starts = events[f"session-{week.pk}@{library.slug}.ludolog"].decoded("dtstart")
    assert starts == week.starts_at and starts.utcoffset() == dt.timedelta(0)
    assert not any("École" in str(event["summary"]) for event in events.values())
    again = Calendar.from_ical(client.get(f"/organisations/{library.slug}/calendar.ics").content)
    assert {str(event["uid"]) for event in again.walk("VEVENT")} == set(events)


def test_an_openings_summary_is_in_the_organisations_language(client, library, librarian):
    library.language = "fr"
    library.save()
    start = timezone.now() + dt.timedelta(days=1)
    Session.objects.create(organisation=library, kind="opening", starts_at=start, ends_at=start + dt.timedelta(hours=1))
    calendar = Calendar.from_ical(client.get(f"/organisations/{library.slug}/calendar.ics").content)
    from django.utils import translation
    with translation.override("fr"):
        expected = str(Session.Kind.OPENING.label)
    assert [str(event["summary"]) for event in calendar.walk("VEVENT")] == [expected]


def test_registering_on_the_page_then_the_waiting_list(client, library, week):
    url = f"/organisations/{library.slug}/sessions/{week.pk}/register/"
    first = client.post(url, {"name": "Anne", "email": "", "places": 2})
    assert first.status_code == 201 and 'data-status="registered"' in first.content.decode()
    second = client.post(url, {"name": "Bruno", "email": "bruno@example.org", "places": 1})
    assert second.status_code == 201 and 'data-status="waiting"' in second.content.decode()
    assert client.post(url, {"name": "", "places": 0}).status_code == 400
    assert Registration.objects.count() == 2


@pytest.mark.parametrize("path", ["/agenda/", "/agenda/hours/", "/agenda/sessions/new/?kind=event"])
def test_the_staff_pages_are_refused_to_a_member(member, path):
    client = Client()
    client.force_login(member)
    assert client.get(path).status_code == 403


def test_the_door_counter_and_the_session_page_for_the_desk(library, desk_user, member, session_now):
    desk = Client()
    desk.force_login(desk_user)
    assert desk.get(f"/agenda/sessions/{session_now.pk}/door/").status_code == 200
    assert desk.get("/agenda/").status_code == 200
    page = desk.get(f"/agenda/sessions/{session_now.pk}/")
    assert page.status_code == 200 and 'data-testid="door-link"' in page.content.decode()
    # A desk volunteer counts but does not plan: no edit, no correction.
    refused = desk.post(f"/agenda/sessions/{session_now.pk}/", {"action": "correct_count", "public": "adult",
                                                                 "delta": "3", "reason": "x"})
    assert refused.status_code == 403 and not DoorCount.objects.exists()
    other = Client()
    other.force_login(member)
    assert other.get(f"/agenda/sessions/{session_now.pk}/door/").status_code == 403


def test_a_librarian_adds_hours_and_an_event_and_corrects_a_past_session_with_a_reason(library, librarian):
    client = Client()
    client.force_login(librarian)
    today = timezone.localdate()
    added = client.post("/agenda/hours/", {"action": "add_hours", "weekday": today.weekday(), "starts": "09:00",
                                           "ends": "08:00", "valid_from": today.isoformat()})
    assert added.status_code == 400 and 'data-for="ends"' in added.content.decode()
    client.post("/agenda/hours/", {"action": "add_hours", "weekday": today.weekday(), "starts": "23:00",
                                   "ends": "23:30", "valid_from": today.isoformat(), "public": "on"})
    assert Session.objects.filter(kind="opening").count() == 9
    made = client.post("/agenda/sessions/new/?kind=event", {"title": "Festival", "day": "2025-06-01",
                                                             "starts": "10:00", "ends": "18:00", "public": "on"})
    festival = Session.objects.get(title="Festival")
    assert made.status_code == 302
    fields = {"action": "edit", "title": "Festival", "day": "2025-06-01", "starts": "10:00", "ends": "19:00",
              "public": "on"}
    refused = client.post(f"/agenda/sessions/{festival.pk}/", fields)
    assert refused.status_code == 422 and "reason_required_for_past_session" in refused.content.decode()
    assert client.post(f"/agenda/sessions/{festival.pk}/", {**fields, "reason": "Fermé à 19 h"}).status_code == 302
    festival.refresh_from_db()
    assert timezone.localtime(festival.ends_at).hour == 19 and festival.changes.get().reason == "Fermé à 19 h"
