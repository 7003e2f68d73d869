"""The demo ludothèque's year (``make run``: ``load_demo_year`` after ``load_demo`` and
``load_demo_loans``): its yearly report has figures in every part — sessions and hours,
attendance, an event with registrations, a waiting list and check-ins, group visits, games
played on site, households active and new, memberships paid, loans through the months — the
three households of the desk's demo stay as they were, and loading it again adds nothing."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.models import Organisation
from agenda.management.commands.load_demo_year import FAMILY_EVENING
from agenda.models import Closure, DoorCount, OpeningHours, PlayTally, Registration, Session
from games.services import demo_catalogue_data, load_catalogue
from loans import selectors
from loans.models import CopyEvent, Household, HouseholdEvent, Tariff
from reports.selectors import yearly_report

pytestmark = pytest.mark.django_db


def stored() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (
        Session, DoorCount, PlayTally, Registration, OpeningHours, Closure, Household, HouseholdEvent, CopyEvent,
        Tariff)}


def test_the_demo_year_gives_the_report_figures_and_loads_once(django_user_model):
    # The demo's organisations as load_demo makes them (without its simulated games), and its desk.
    library = Organisation.objects.create(slug="ludotheque-demo", name="Ludothèque", kind=Organisation.Kind.BOTH,
                                          language="fr")
    club = Organisation.objects.create(slug="les-dunes", name="Club des Dunes", kind=Organisation.Kind.CLUB)
    load_catalogue(demo_catalogue_data(), library)
    django_user_model.objects.create_superuser("admin", password="x")
    call_command("load_demo_loans", stdout=io.StringIO())
    call_command("load_demo_year", stdout=io.StringIO())

    today = timezone.localdate()
    past_evening = Session.objects.filter(title=FAMILY_EVENING, starts_at__lt=timezone.now()).get()
    year = past_evening.starts_at.year
    assert year == (today - dt.timedelta(days=182)).year, "the evening falls in the year most of the months are in"
    report = yearly_report(Organisation.objects.get(pk=library.pk), year)
    agenda, membership, loans = report.agenda, report.membership, report.loans
    assert agenda.sessions_by_kind["opening"] > 40 and agenda.opening_hours > 100
    assert agenda.sessions_by_kind["group_visit"] > 0 and agenda.sessions_by_kind["event"] >= 1
    assert sum(agenda.attendance_by_month.values()) > 1000
    assert all(agenda.attendance_by_public[public] > 0 for public in ("child_3_5", "child_6_11", "adult", "senior"))
    evening = next(line for line in agenda.events if line.title == FAMILY_EVENING)
    assert evening.capacity == 24 and 0 < evening.registered <= 24 and evening.waiting > 0
    assert 0 < evening.checked_in < evening.registered and evening.counted > 0
    assert agenda.games_played_on_site and sum(agenda.group_visits_by_kind[kind].visits
                                               for kind in ("creche", "school", "care_home")) >= 3
    assert membership.households_active >= 30 and membership.households_new > 0 and membership.residents > 0
    assert membership.non_residents > 0 and membership.membership_income > 0
    assert set(membership.income_by_tariff) <= {"Adhésion Lille", "Hors commune", "Tarif réduit"}
    assert loans.loans > 50 and sum(1 for count in loans.by_month.values() if count) >= 4
    assert loans.category_scheme == "esar" and loans.households_borrowing > 10
    assert Session.objects.filter(organisation=club, kind=Session.Kind.GAME_NIGHT).exists()
    # Nobody of the year is refused at the desk today: nothing overdue but the Nguyens' game, no fee owed.
    overdue = selectors.overdue_loans(today)
    assert [(row.copy.barcode, row.household.card_number) for row in overdue] == [("LUD-MC-0001", "M-0003")]
    assert not [household for household in Household.objects.all() if selectors.late_fees_owed(household)]
    martin = Household.objects.get(card_number="M-0001")
    assert [row.copy.barcode for row in selectors.current_loans(martin)] == ["LUD-HG-0001"]
    # The coming weeks are on the calendar too, with the next evening open to registration.
    coming = Session.objects.filter(organisation=library, starts_at__gt=timezone.now())
    assert coming.filter(kind=Session.Kind.OPENING).exists() and coming.filter(kind=Session.Kind.GROUP_VISIT).exists()
    assert coming.get(title=FAMILY_EVENING).registrations.filter(status=Registration.Status.REGISTERED).count() == 4
    api = Client()
    api.force_login(django_user_model.objects.get(username="admin"))
    answer = api.get(f"/api/organisations/{library.pk}/report/?year={year}").json()
    assert answer["sessions"] > 0 and answer["households_active"] > 0 and sum(answer["loans_by_month"].values()) > 0

    before = stored()
    call_command("load_demo_loans", stdout=io.StringIO())
    call_command("load_demo_year", stdout=io.StringIO())
    assert stored() == before
