"""The yearly report's figures of the seeded year (:mod:`tests.reports.seeded`, counted by hand
in its docstring), as :func:`reports.selectors.yearly_report` counts them."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from reports.sections import CategoryScheme, as_api
from reports.selectors import yearly_report
from tests.reports import seeded

pytestmark = pytest.mark.django_db


def test_the_seeded_years_loans_are_the_hand_counted_ones() -> None:
    year = seeded.seed_year()
    report = yearly_report(year.library, seeded.YEAR)
    loans = report.loans
    assert loans.loans == 7
    assert loans.by_month == seeded.LOANS_BY_MONTH
    assert loans.category_scheme == CategoryScheme.ESAR
    assert {line.key: line.loans for line in loans.by_category} == seeded.LOANS_BY_CATEGORY
    assert loans.by_age_group == seeded.LOANS_BY_AGE_GROUP
    assert loans.households_borrowing == 3
    assert [line.title for line in loans.games_never_lent] == seeded.NEVER_LENT
    assert [(line.title, line.count) for line in loans.most_lent] == seeded.MOST_LENT


def test_the_seeded_years_sessions_and_memberships_are_the_hand_counted_ones() -> None:
    year = seeded.seed_year()
    report = yearly_report(year.library, seeded.YEAR)
    agenda, membership = report.agenda, report.membership
    assert (agenda.sessions_held, agenda.opening_hours) == (6, Decimal("10.50"))
    assert agenda.sessions_by_kind == seeded.SESSIONS_BY_KIND and agenda.hours_by_kind == seeded.HOURS_BY_KIND
    assert agenda.attendance_by_month == seeded.ATTENDANCE_BY_MONTH and agenda.attendance == 61
    assert agenda.attendance_by_public == seeded.ATTENDANCE_BY_PUBLIC
    assert agenda.families_by_month == seeded.FAMILIES_BY_MONTH
    assert [(line.title, line.registered, line.waiting, line.checked_in, line.counted) for line in agenda.events] == [
        seeded.EVENT]
    assert {kind: (line.visits, line.children, line.adults)
            for kind, line in agenda.group_visits_by_kind.items()} == seeded.GROUP_VISITS
    assert [(line.title, line.count) for line in agenda.games_played_on_site] == seeded.PLAYED_ON_SITE
    assert (membership.households_active, membership.households_new, membership.households_lapsed) == (4, 2, 1)
    assert membership.households_by_town == seeded.HOUSEHOLDS_BY_TOWN
    assert (membership.residents, membership.non_residents, membership.town_unknown) == (2, 2, 0)
    assert membership.membership_income == Decimal("52.00")
    assert membership.income_by_tariff == seeded.INCOME_BY_TARIFF
    assert (membership.late_fees_paid, membership.late_fees_waived, membership.overrides) == (0, 0, 0)


def test_another_year_and_another_library_count_their_own() -> None:
    year = seeded.seed_year()
    last_year = yearly_report(year.library, 2025).loans
    assert (last_year.loans, last_year.by_month["2025-12"], last_year.households_borrowing) == (1, 1, 1)
    assert last_year.by_age_group["adult"] == 1  # Bernard's, born 1990
    theirs = yearly_report(year.other, seeded.YEAR).loans
    assert (theirs.loans, theirs.by_month["2026-02"]) == (1, 1)
    assert theirs.category_scheme == CategoryScheme.ESAR  # their Memory carries A 101
    assert theirs.by_age_group["unknown"] == 1 and theirs.games_never_lent == ()


def test_a_library_without_esar_codes_counts_by_its_own_categories() -> None:
    from games.models import Category

    year = seeded.seed_year()
    Category.objects.filter(scheme=Category.Scheme.ESAR).update(scheme=Category.Scheme.LUDOTHEQUE)
    loans = yearly_report(year.library, seeded.YEAR).loans
    assert loans.category_scheme == CategoryScheme.CATALOGUE
    assert {line.key: line.loans for line in loans.by_category} == {
        "A 101": 3, "A 103": 1, "B 201": 1, "D 401": 1, "D 402": 1, "D 403": 1, "unclassified": 1}


def test_the_report_is_a_handful_of_queries_whatever_the_number_of_loans() -> None:
    """The loans' eight, the agenda's five and the memberships' six or so: none a row."""
    year = seeded.seed_year()
    with CaptureQueriesContext(connection) as queries:
        yearly_report(year.library, seeded.YEAR)
    assert len(queries) <= 22


def test_the_api_form_names_every_figure() -> None:
    year = seeded.seed_year()
    figures = as_api(yearly_report(year.library, seeded.YEAR))
    assert figures["loans_by_month"] == seeded.LOANS_BY_MONTH
    assert figures["games_never_lent"] == 2
    assert {"attendance_by_month", "sessions", "opening_hours", "households_active", "households_new"} <= set(figures)
