"""An organisation's yearly report as plain values: a :class:`YearReport` made of sections, each a
frozen dataclass of figures, with no Django and no app (the page, the CSV, the PDF and the API all
read these, and nothing else).

The loans' figures are counted from the copy events (:mod:`reports.selectors`); the sessions',
attendance's and events' come from the agenda, the households' and the money's from the
memberships (the ``loans`` app's), each as one section filled by an adapter of its own.

>>> report = YearReport.empty(organisation_id=1, organisation_name="Ludothèque", language="fr", year=2026)
>>> list(report.loans.by_month)[:2], report.agenda.opening_hours, report.membership.households_active
(['2026-01', '2026-02'], Decimal('0'), 0)
>>> sorted(as_api(report))[:4]
['attendance', 'attendance_by_month', 'attendance_by_public', 'events']
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

ESAR_GROUPS = ("A", "B", "C", "D")
"""The four ESAR groups a ludothèque classes its games by: exercise, symbolic, assembly, rules."""
UNCLASSIFIED = "unclassified"
UNKNOWN_AGE = "unknown"
AGE_GROUPS = ("child_0_2", "child_3_5", "child_6_11", "child_12_17", "adult", "senior", UNKNOWN_AGE)
"""The age groups of the loans, youngest first (``loans.ages.AgeBand``'s values), then the unknown."""
MOST_LENT_SHOWN = 10


class CategoryScheme:
    ESAR = "esar"
    CATALOGUE = "catalogue"


def months_of(year: int) -> list[str]:
    """The twelve months of ``year`` as the report writes them.

    >>> months_of(2026)[0], months_of(2026)[-1]
    ('2026-01', '2026-12')
    """
    return [f"{year:04d}-{month:02d}" for month in range(1, 13)]


def every_month(year: int, counts: dict[str, int]) -> dict[str, int]:
    """``counts`` by month with every month of ``year`` present, those without any at 0."""
    return {month: counts.get(month, 0) for month in months_of(year)}


@dataclass(frozen=True)
class RecordCount:
    """A catalogue record and how many times something happened to it (lent, played on site);
    ``record_id`` None: a game recorded on site that names no catalogue record, by its name."""

    record_id: int | None
    title: str
    count: int


@dataclass(frozen=True)
class RecordLine:
    record_id: int
    title: str


@dataclass(frozen=True)
class CategoryCount:
    """Loans under one category: an ESAR group (``A``…``D``), a catalogue category's code (its
    ``name`` beside it), or ``unclassified``."""

    key: str
    name: str
    loans: int


@dataclass(frozen=True)
class LoansSection:
    loans: int
    """Loans of the year: ``lent`` events whose day (``lent_on``) falls in it."""
    by_month: dict[str, int]
    """Every month of the year, ``"YYYY-MM"`` → loans."""
    category_scheme: str
    """:attr:`CategoryScheme.ESAR` when the organisation's records carry ESAR codes, else the catalogue's."""
    by_category: tuple[CategoryCount, ...]
    """A loan counts once under each category its record has (``unclassified``: none)."""
    by_age_group: dict[str, int]
    """Every key of :data:`AGE_GROUPS`: a loan counts once under each age group present in the
    borrowing household (``unknown``: no member's year of birth known)."""
    households_borrowing: int
    games_never_lent: tuple[RecordLine, ...]
    """Records with a copy in the organisation and no loan in the year, by title."""
    most_lent: tuple[RecordCount, ...]
    """The :data:`MOST_LENT_SHOWN` records lent most in the year, most first."""

    @classmethod
    def empty(cls, year: int) -> LoansSection:
        return cls(loans=0, by_month=every_month(year, {}), category_scheme=CategoryScheme.CATALOGUE, by_category=(),
                   by_age_group=dict.fromkeys(AGE_GROUPS, 0), households_borrowing=0, games_never_lent=(),
                   most_lent=())


@dataclass(frozen=True)
class EventLine:
    """One event of the year (a games evening, a tournament day) and who came."""

    title: str
    starts_at: str
    """ISO date and time."""
    capacity: int | None
    registered: int
    waiting: int
    checked_in: int
    counted: int
    """Persons counted at the door."""


@dataclass(frozen=True)
class GroupVisits:
    visits: int
    children: int
    adults: int


@dataclass(frozen=True)
class AgendaSection:
    """The sessions of the year and who came (``agenda.selectors.year_figures``)."""

    sessions_held: int
    sessions_by_kind: dict[str, int]
    opening_hours: Decimal
    hours_by_kind: dict[str, Decimal]
    attendance_by_month: dict[str, int]
    """Every month of the year, ``"YYYY-MM"`` → persons counted at the door."""
    attendance_by_public: dict[str, int]
    families_by_month: dict[str, int]
    events: tuple[EventLine, ...]
    group_visits_by_kind: dict[str, GroupVisits]
    games_played_on_site: tuple[RecordCount, ...]

    @property
    def attendance(self) -> int:
        return sum(self.attendance_by_month.values())

    @classmethod
    def empty(cls, year: int) -> AgendaSection:
        return cls(sessions_held=0, sessions_by_kind={}, opening_hours=Decimal("0"), hours_by_kind={},
                   attendance_by_month=every_month(year, {}), attendance_by_public={},
                   families_by_month=every_month(year, {}), events=(), group_visits_by_kind={},
                   games_played_on_site=())


@dataclass(frozen=True)
class MembershipSection:
    """The households' memberships and the money of the year (``loans.selectors.membership_figures``)."""

    households_active: int
    households_new: int
    households_lapsed: int
    households_by_town: dict[str, int]
    residents: int
    non_residents: int
    town_unknown: int
    membership_income: Decimal
    income_by_tariff: dict[str, Decimal]
    late_fees_paid: Decimal
    late_fees_waived: Decimal
    overrides: int
    """Loans a librarian allowed over the lending rules."""

    @classmethod
    def empty(cls) -> MembershipSection:
        return cls(households_active=0, households_new=0, households_lapsed=0, households_by_town={}, residents=0,
                   non_residents=0, town_unknown=0, membership_income=Decimal("0"), income_by_tariff={},
                   late_fees_paid=Decimal("0"), late_fees_waived=Decimal("0"), overrides=0)


@dataclass(frozen=True)
class YearReport:
    organisation_id: int
    organisation_name: str
    language: str
    """The organisation's language: the CSV's and the PDF's."""
    year: int
    loans: LoansSection
    agenda: AgendaSection
    membership: MembershipSection

    @classmethod
    def empty(cls, *, organisation_id: int, organisation_name: str, language: str, year: int) -> YearReport:
        return cls(organisation_id=organisation_id, organisation_name=organisation_name, language=language,
                   year=year, loans=LoansSection.empty(year), agenda=AgendaSection.empty(year),
                   membership=MembershipSection.empty())


def _decimal(value: Decimal) -> str:
    """A Decimal as the API writes it: its exact digits, as DRF writes decimals."""
    return format(value, "f")


def as_api(report: YearReport) -> dict[str, Any]:
    """Every figure of the report under its API key (``GET /api/organisations/{id}/report/``)."""
    loans, agenda, membership = report.loans, report.agenda, report.membership
    return {
        "organisation": report.organisation_id,
        "year": report.year,
        # The agenda's.
        "sessions": agenda.sessions_held,
        "sessions_by_kind": dict(agenda.sessions_by_kind),
        "opening_hours": _decimal(agenda.opening_hours),
        "hours_by_kind": {kind: _decimal(hours) for kind, hours in agenda.hours_by_kind.items()},
        "attendance": agenda.attendance,
        "attendance_by_month": dict(agenda.attendance_by_month),
        "attendance_by_public": dict(agenda.attendance_by_public),
        "families_by_month": dict(agenda.families_by_month),
        "events": [{"title": line.title, "starts_at": line.starts_at, "capacity": line.capacity,
                    "registered": line.registered, "waiting": line.waiting, "checked_in": line.checked_in,
                    "counted": line.counted} for line in agenda.events],
        "group_visits_by_kind": {kind: {"visits": visits.visits, "children": visits.children, "adults": visits.adults}
                                 for kind, visits in agenda.group_visits_by_kind.items()},
        "games_played_on_site": [{"id": line.record_id, "title": line.title, "plays": line.count}
                                 for line in agenda.games_played_on_site],
        # The memberships'.
        "households_active": membership.households_active,
        "households_new": membership.households_new,
        "households_lapsed": membership.households_lapsed,
        "households_by_town": dict(membership.households_by_town),
        "residents": membership.residents,
        "non_residents": membership.non_residents,
        "town_unknown": membership.town_unknown,
        "membership_income": _decimal(membership.membership_income),
        "income_by_tariff": {tariff: _decimal(amount) for tariff, amount in membership.income_by_tariff.items()},
        "late_fees_paid": _decimal(membership.late_fees_paid),
        "late_fees_waived": _decimal(membership.late_fees_waived),
        "overrides": membership.overrides,
        # The loans'.
        "loans": loans.loans,
        "loans_by_month": dict(loans.by_month),
        "loans_by_category_scheme": loans.category_scheme,
        "loans_by_category": {line.key: line.loans for line in loans.by_category},
        "loans_by_age_group": dict(loans.by_age_group),
        "households_borrowing": loans.households_borrowing,
        "games_never_lent": len(loans.games_never_lent),
        "games_never_lent_records": [{"id": line.record_id, "title": line.title} for line in loans.games_never_lent],
        "most_lent": [{"id": line.record_id, "title": line.title, "loans": line.count} for line in loans.most_lent],
    }
