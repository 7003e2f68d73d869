"""Households with games overdue are reminded which ones, with the late fees so far: on their page
and by mail, then again only after the library's days between reminders (never when it is 0); the
daily task lapses the holds left on the shelf too long and reminds, doing nothing twice a day."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client
from django.utils.formats import date_format

from loans import services, tasks
from loans.models import LoanRules, Member, Notification
from tests.clock import held_on
from tests.factories import make_copies, make_household, the_library

pytestmark = pytest.mark.django_db
FAR = dt.date(2099, 12, 31)
TODAY = dt.date(2026, 12, 7)  # the clock is held on it: a reminder is dated when it is made
LENT = TODAY - dt.timedelta(days=26)  # due five days ago
DUE = date_format(LENT + dt.timedelta(days=21))  # as the reader writes dates: Dec. 2, 2026 in English


@pytest.fixture(autouse=True)
def clock_held_on_today():
    with held_on(TODAY):
        yield


def test_a_household_is_reminded_of_its_overdue_games_then_not_again_before_the_days_between(
    record, desk_user, django_user_model, django_capture_on_commit_callbacks, celery_eager,
):
    first, second, third = make_copies(record, 3, prefix="LATE")
    late = make_household("Retard", membership_ends=FAR, email="retard@example.org")
    on_time = make_household("Ponctuel", membership_ends=FAR, email="ponctuel@example.org")
    services.lend(first, late, desk_user, today=LENT)
    services.lend(second, late, desk_user, today=LENT)
    services.lend(third, on_time, desk_user, today=TODAY)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.remind_overdue(today=TODAY) == 1  # 5 days late, two games
    told, = Notification.objects.filter(kind=Notification.Kind.OVERDUE)
    assert told.household == late
    assert told.text == (f"To bring back to the desk: {record.title} (copy {first.barcode}), due {DUE}; "
                         f"{record.title} (copy {second.barcode}), due {DUE}. Late fees so far: 2.00.")
    sent, = mail.outbox
    assert sent.to == ["retard@example.org"] and sent.subject == "Ludothèque des tests: games to bring back"
    # Six days later: not yet (seven between reminders); seven days later: again.
    assert services.remind_overdue(today=TODAY + dt.timedelta(days=6)) == 0
    assert services.remind_overdue(today=TODAY + dt.timedelta(days=7)) == 1
    # The member reads it on their page.
    user = django_user_model.objects.create_user("retard-parent")
    Member.objects.create(household=late, display_name="Parent", user=user)
    member = Client()
    member.force_login(user)
    assert "To bring back to the desk" in member.get("/account/loans/").content.decode()


def test_a_library_that_sends_no_reminders(record, desk_user):
    LoanRules.objects.create(reminder_days=0, organisation=the_library())
    copy, = make_copies(record, 1, prefix="NOREM")
    services.lend(copy, make_household("Retard", membership_ends=FAR), desk_user, today=LENT)
    assert services.remind_overdue(today=TODAY) == 0
    assert not Notification.objects.exists()


def test_the_daily_task_lapses_old_holds_and_reminds_once(record, desk_user, celery_eager):
    shelf, out = make_copies(record, 2, prefix="DAY")
    waiting = make_household("Attente", membership_starts=dt.date(2019, 1, 1), membership_ends=FAR)
    late = make_household("Retard", membership_ends=FAR)
    services.lend(out, late, desk_user, today=LENT)
    hold = services.place_hold(record, waiting, desk_user, today=dt.date(2020, 1, 1))  # set aside long ago
    assert hold.copy == shelf
    tasks.daily.delay()
    tasks.daily.delay()
    hold.refresh_from_db()
    assert hold.status == "cancelled"
    assert Notification.objects.filter(kind=Notification.Kind.OVERDUE, household=late).count() == 1
