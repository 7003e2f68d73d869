"""The agenda's services: openings made from the hours (once, none in a closure), the waiting
list and its promotion by mail, the door's counts (never below zero, a key stored once, a
counting window), corrections needing a reason, and the events kept append-only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from agenda import services
from agenda.errors import (
    CheckInClosed, CountBelowZero, CountingClosed, HoursInUse, InvalidFields, NotRegistered, ReasonRequired,
    RegistrationClosed,
)
from agenda.models import DoorCount, ImmutableAgendaEventError, PlayTally, Registration, Session, SessionChange
from games.models import CatalogueRecord
from outbox.models import Message

from .conftest import at

pytestmark = pytest.mark.django_db


def test_openings_are_made_once_and_none_in_a_closure(library, librarian):
    """Wednesdays 14:00–18:00 in January 2025 (1, 8, 15, 22, 29), closed 13–19 January: four
    openings; made again, none more."""
    services.add_opening_hours(library, librarian, weekday=2, starts=dt.time(14), ends=dt.time(18),
                               valid_from=dt.date(2025, 1, 1), label="Accueil tout public")
    services.add_closure(library, librarian, first_day=dt.date(2025, 1, 13), last_day=dt.date(2025, 1, 19),
                         reason="Inventaire")
    assert services.generate_openings(library, dt.date(2025, 1, 1), dt.date(2025, 1, 31)) == 4
    assert services.generate_openings(library, dt.date(2025, 1, 1), dt.date(2025, 1, 31)) == 0
    openings = Session.objects.filter(organisation=library, kind="opening", starts_at__year=2025)
    assert [timezone.localtime(s.starts_at).day for s in openings] == [1, 8, 22, 29]
    assert {(timezone.localtime(s.starts_at).hour, timezone.localtime(s.ends_at).hour) for s in openings} == {(14, 18)}
    assert {s.title for s in openings} == {"Accueil tout public"}


def test_saving_hours_makes_the_coming_openings_and_ending_them_removes_the_later_ones(library, librarian):
    today = timezone.localdate()
    hours = services.add_opening_hours(library, librarian, weekday=today.weekday(), starts=dt.time(23, 0),
                                       ends=dt.time(23, 30), valid_from=today - dt.timedelta(days=30))
    coming = Session.objects.filter(opening_hours=hours)
    assert coming.count() == services.GENERATION_DAYS // 7 + 1  # today's and the next eight weeks'
    services.end_opening_hours(hours, today + dt.timedelta(days=7))
    assert coming.count() == 2
    with pytest.raises(HoursInUse):
        services.remove_opening_hours(hours)


def test_a_future_hours_line_is_removed_with_its_openings(library, librarian):
    start = timezone.localdate() + dt.timedelta(days=10)
    hours = services.add_opening_hours(library, librarian, weekday=start.weekday(), starts=dt.time(10),
                                       ends=dt.time(12), valid_from=start)
    assert Session.objects.filter(opening_hours=hours).exists()
    services.remove_opening_hours(hours)
    assert not Session.objects.filter(organisation=library, kind="opening").exists()


def test_hours_that_close_before_they_open_are_refused_in_words(library, librarian):
    with pytest.raises(InvalidFields) as refused:
        services.add_opening_hours(library, librarian, weekday=1, starts=dt.time(18), ends=dt.time(14),
                                   valid_from=dt.date(2025, 1, 1))
    assert refused.value.reason == "invalid_opening_hours" and "ends" in refused.value.details["errors"]
    with pytest.raises(InvalidFields) as refused:
        services.plan_session(library, librarian, kind="event", title="Soirée", starts_at=at("2025-03-01", "20:00"),
                              ends_at=at("2025-03-01", "19:00"), capacity=0)
    assert set(refused.value.details["errors"]) == {"ends_at", "capacity"}
    assert not Session.objects.exists()


def event(library, librarian, capacity=4) -> Session:
    start = timezone.now() + dt.timedelta(days=3)
    return services.plan_session(library, librarian, kind="event", title="Soirée jeux", starts_at=start,
                                 ends_at=start + dt.timedelta(hours=3), capacity=capacity, registration=True)


def test_over_capacity_waits_and_a_cancellation_gives_the_places_to_the_first_that_fit_by_mail(library, librarian):
    """Four places: Anne takes 2, Bruno 2; Chloé (3) and David (1) wait, 1st and 2nd. Bruno
    cancels: Chloé's three do not fit in two, David's one does: he is told, in Dutch."""
    soiree = event(library, librarian)
    anne = services.register(soiree, name="Anne", email="anne@example.org", places=2, language="fr")
    bruno = services.register(soiree, name="Bruno", places=2)
    chloe = services.register(soiree, name="Chloé", email="chloe@example.org", places=3, language="fr")
    david = services.register(soiree, name="David", email="david@example.org", places=1, language="nl")
    assert (anne.position, bruno.position, chloe.position, david.position) == (None, None, 1, 2)
    assert david.registration.status == Registration.Status.WAITING  # the event had no room for three, and one waits

    promoted = services.cancel_registration(bruno.registration)

    assert [entry.name for entry in promoted] == ["David"]
    assert services.waiting_position(Registration.objects.get(pk=chloe.registration.pk)) == 1
    mail = Message.objects.get()
    assert mail.recipient_list == ["david@example.org"] and mail.language == "nl"
    assert "Soirée jeux" in mail.subject and "David" in mail.body


def test_more_capacity_promotes_the_waiting_list(library, librarian):
    soiree = event(library, librarian, capacity=1)
    services.register(soiree, name="Anne")
    waiting = services.register(soiree, name="Bruno", email="bruno@example.org")
    services.edit_session(soiree, librarian, {"capacity": 2})
    assert Registration.objects.get(pk=waiting.registration.pk).status == Registration.Status.REGISTERED
    assert Message.objects.count() == 1


def test_no_registration_for_a_session_that_takes_none_and_bad_places(library, librarian, session_now):
    with pytest.raises(RegistrationClosed):
        services.register(session_now, name="Anne")
    with pytest.raises(InvalidFields) as refused:
        services.register(event(library, librarian), name="", places=0)
    assert set(refused.value.details["errors"]) == {"name", "places"}
    assert not Registration.objects.exists()


def test_check_in_during_the_session_and_undo(library, librarian):
    soiree = event(library, librarian)
    anne = services.register(soiree, name="Anne", places=2).registration
    waiting = services.register(soiree, name="Zoé", places=5).registration
    during = soiree.starts_at + dt.timedelta(minutes=10)
    with pytest.raises(CheckInClosed):
        services.check_in(anne, librarian, now=soiree.starts_at - dt.timedelta(hours=2))
    assert services.check_in(anne, librarian, now=during).checked_in_at == during
    assert services.undo_check_in(anne, librarian, now=during).checked_in_at is None
    with pytest.raises(NotRegistered):
        services.check_in(waiting, librarian, now=during)
    with pytest.raises(CheckInClosed):
        services.undo_check_in(anne, librarian, now=soiree.ends_at + dt.timedelta(minutes=1))


def test_a_count_below_zero_is_refused_and_nothing_stored(session_now, librarian):
    services.count_at_the_door(session_now, librarian, public="adult", delta=1, key="k1")
    services.count_at_the_door(session_now, librarian, public="adult", delta=-1, key="k2")
    with pytest.raises(CountBelowZero) as refused:
        services.count_at_the_door(session_now, librarian, public="adult", delta=-1, key="k3")
    assert refused.value.status_code == 422
    assert DoorCount.objects.count() == 2


def test_a_tap_sent_twice_is_stored_once(session_now, librarian):
    first = services.count_at_the_door(session_now, librarian, public="family", delta=1, key="tap-1")
    again = services.count_at_the_door(session_now, librarian, public="family", delta=1, key="tap-1")
    assert (first.created, again.created) == (True, False)
    assert first.totals == again.totals and first.totals["family"] == 1
    assert DoorCount.objects.count() == 1


def test_counting_is_open_during_the_session_and_a_week_after(session_now, librarian):
    ended = session_now.ends_at
    services.count_at_the_door(session_now, librarian, public="adult", delta=1, key="late",
                               now=ended + dt.timedelta(days=6))
    with pytest.raises(CountingClosed) as refused:
        services.count_at_the_door(session_now, librarian, public="adult", delta=1, key="later",
                                   now=ended + dt.timedelta(days=8))
    assert (refused.value.status_code, refused.value.reason) == (409, "session_closed_for_counting")
    with pytest.raises(CountingClosed):
        services.count_at_the_door(session_now, librarian, public="adult", delta=1, key="early",
                                   now=session_now.starts_at - dt.timedelta(hours=2))
    # After the window, a count is corrected on the session's page, with a reason.
    with pytest.raises(ReasonRequired):
        services.correct_door_count(session_now, librarian, public="adult", delta=2, reason="",
                                    now=ended + dt.timedelta(days=8))
    corrected = services.correct_door_count(session_now, librarian, public="adult", delta=2,
                                            reason="Comptage papier", now=ended + dt.timedelta(days=8))
    assert corrected.totals["adult"] == 3
    change = SessionChange.objects.get()
    assert (change.field, change.before, change.after, change.reason) == ("count:adult", 1, 3, "Comptage papier")


def test_editing_a_past_session_needs_a_reason_and_records_each_change(library, librarian):
    session = services.plan_session(library, librarian, kind="game_night", title="Soirée",
                                    starts_at=at("2025-02-07", "19:00"), ends_at=at("2025-02-07", "23:00"))
    with pytest.raises(ReasonRequired) as refused:
        services.edit_session(session, librarian, {"ends_at": at("2025-02-07", "23:30")})
    assert refused.value.status_code == 422 and refused.value.reason == "reason_required_for_past_session"
    assert not SessionChange.objects.exists()
    changes = services.edit_session(session, librarian, {"ends_at": at("2025-02-07", "23:30"), "title": "Soirée",
                                                         "capacity": 30}, reason="Fini plus tard")
    assert sorted((c.field, c.reason) for c in changes) == [("capacity", "Fini plus tard"),
                                                            ("ends_at", "Fini plus tard")]
    stored = SessionChange.objects.get(field="ends_at")
    assert stored.before.startswith("2025-02-07T22:00") and stored.after.startswith("2025-02-07T22:30")  # UTC


def test_a_future_session_is_edited_without_a_reason(library, librarian):
    soiree = event(library, librarian)
    assert [c.field for c in services.edit_session(soiree, librarian, {"title": "Tournoi"})] == ["title"]


def test_door_counts_play_tallies_and_changes_are_never_changed_or_deleted(session_now, librarian):
    services.count_at_the_door(session_now, librarian, public="adult", delta=1, key="k")
    record = CatalogueRecord.objects.create(title="Dixit")
    services.tally_play(session_now, librarian, record=record, delta=1, key="p")
    services.edit_session(session_now, librarian, {"capacity": 40})
    for stored in (DoorCount.objects.get(), session_now.play_tallies.get(), SessionChange.objects.get()):
        stored.delta = 5
        with pytest.raises(ImmutableAgendaEventError):
            stored.save()
        with pytest.raises(ImmutableAgendaEventError):
            stored.delete()
        with pytest.raises(ImmutableAgendaEventError):
            type(stored).objects.all().delete()
        with pytest.raises(ImmutableAgendaEventError):
            type(stored).objects.update(reason="")


def test_a_play_tally_below_zero_is_refused(session_now, librarian):
    record = CatalogueRecord.objects.create(title="Dixit")
    assert services.tally_play(session_now, librarian, record=record, delta=1, key="p1").plays == 1
    assert services.tally_play(session_now, librarian, record=record, delta=1, key="p1").created is False
    services.tally_play(session_now, librarian, record=record, delta=-1, key="p2")
    with pytest.raises(CountBelowZero):
        services.tally_play(session_now, librarian, record=record, delta=-1, key="p3")


def test_the_database_refuses_to_change_or_delete_a_count_whatever_client_asks(session_now, librarian):
    """Raw SQL, past the models: the triggers of agenda.immutability on PostgreSQL and SQLite."""
    services.count_at_the_door(session_now, librarian, public="adult", delta=1, key="k")
    record = CatalogueRecord.objects.create(title="Dixit")
    services.tally_play(session_now, librarian, record=record, delta=1, key="p")
    services.edit_session(session_now, librarian, {"capacity": 40})
    for model in (DoorCount, PlayTally, SessionChange):
        table = model._meta.db_table
        for statement in (f"UPDATE {table} SET recorded_at = recorded_at WHERE id = %s" if model is not SessionChange
                          else f"UPDATE {table} SET reason = 'edited' WHERE id = %s",
                          f"DELETE FROM {table} WHERE id = %s"):
            with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(statement, [model.objects.get().pk])
    assert DoorCount.objects.get().delta == 1 and SessionChange.objects.get().reason == ""
