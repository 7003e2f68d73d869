"""The yearly report read from the database: :func:`yearly_report` gathers the sections.

The loans' figures are a handful of aggregate queries whatever the number of events (the
database counts; Python only walks the borrowing households, to give each loan the age groups of
its household by :func:`loans.ages.band_of`, the one body of that rule). A loan of the year is
:func:`loans.usage.loans_in` the year: a ``lent`` event whose day (``lent_on``) falls in it; a
copy catalogued as on loan before the desk kept history has no day and is no loan of any year.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Substr, Upper
from django.utils import formats, timezone
from django.utils.translation import gettext

from accounts.models import Organisation
from agenda import selectors as agenda
from agenda.models import Session
from games.models import CatalogueRecord, Category, Copy
from loans import usage
from loans.ages import band_of
from loans.models import CopyEvent, Member
from loans.selectors import membership_figures

from .models import ReportSent
from .sections import (
    AGE_GROUPS, ESAR_GROUPS, MOST_LENT_SHOWN, UNCLASSIFIED, UNKNOWN_AGE, AgendaSection, CategoryCount, CategoryScheme,
    EventLine, GroupVisits, LoansSection, MembershipSection, RecordCount, RecordLine, YearReport, every_month,
)

CATALOGUE_SCHEMES = (Category.Scheme.LUDOTHEQUE, Category.Scheme.OTHER)
"""The catalogue's own classifications, which the loans are counted by where no record carries an
ESAR code (subject headings and keywords describe a game; they do not class it)."""
ESAR_CODES = Q(code__startswith="A") | Q(code__startswith="B") | Q(code__startswith="C") | Q(code__startswith="D")


def yearly_report(organisation: Organisation, year: int) -> YearReport:
    """Every figure of ``organisation``'s ``year``."""
    return YearReport(
        organisation_id=organisation.pk, organisation_name=organisation.name, language=organisation.language,
        year=year, loans=loan_figures(organisation, year), agenda=_agenda_figures(organisation, year),
        membership=_membership_figures(organisation, year))


def _agenda_figures(organisation: Organisation, year: int) -> AgendaSection:
    figures = agenda.year_figures(organisation, year)
    return AgendaSection(
        sessions_held=figures.sessions_held, sessions_by_kind=figures.sessions_by_kind,
        opening_hours=figures.opening_hours, hours_by_kind=figures.hours_by_kind,
        attendance_by_month=figures.attendance_by_month, attendance_by_public=figures.attendance_by_public,
        families_by_month=figures.families_by_month,
        events=tuple(EventLine(title=line.title, starts_at=line.starts_at.isoformat(), capacity=line.capacity,
                               registered=line.registered_places, waiting=line.waiting_places,
                               checked_in=line.checked_in_places, counted=line.persons) for line in figures.events),
        group_visits_by_kind={kind: GroupVisits(line.visits, line.children, line.adults)
                              for kind, line in figures.group_visits_by_kind.items()},
        games_played_on_site=tuple(RecordCount(record_id, title, plays)
                                   for record_id, title, plays in figures.games_played_on_site))


def _membership_figures(organisation: Organisation, year: int) -> MembershipSection:
    figures = membership_figures(organisation, year)
    return MembershipSection(
        households_active=figures.households_active, households_new=figures.households_new,
        households_lapsed=figures.households_lapsed, households_by_town=figures.households_by_town,
        residents=figures.residents, non_residents=figures.non_residents, town_unknown=figures.town_unknown,
        membership_income=figures.membership_income, income_by_tariff=figures.income_by_tariff,
        late_fees_paid=figures.late_fees_paid, late_fees_waived=figures.late_fees_waived, overrides=figures.overrides)


def year_period(year: int) -> usage.Period:
    return usage.Period(usage.PeriodKey.THIS_YEAR, dt.date(year, 1, 1), dt.date(year, 12, 31))


def loans_of_year(organisation: Organisation, year: int) -> QuerySet[CopyEvent]:
    """The ``lent`` events of ``organisation``'s copies lent during ``year`` (``lent_on`` annotated)."""
    return usage.loans_in(organisation, year_period(year))


def loan_figures(organisation: Organisation, year: int) -> LoansSection:
    loans = loans_of_year(organisation, year)
    by_month = dict(loans.annotate(month=Substr("lent_on", 1, 7)).values("month").annotate(count=Count("pk"))
                    .values_list("month", "count"))
    per_household = dict(loans.values("household").annotate(count=Count("pk")).values_list("household", "count"))
    scheme = (CategoryScheme.ESAR if Category.objects.filter(
        ESAR_CODES, scheme=Category.Scheme.ESAR, records__copies__organisation=organisation).exists()
        else CategoryScheme.CATALOGUE)
    return LoansSection(
        loans=sum(by_month.values()),
        by_month=every_month(year, by_month),
        category_scheme=scheme,
        by_category=_by_category(loans, scheme),
        by_age_group=_by_age_group(loans, per_household, year),
        households_borrowing=sum(1 for household in per_household if household is not None),
        games_never_lent=tuple(RecordLine(pk, title) for pk, title in (
            CatalogueRecord.objects.filter(Exists(Copy.objects.filter(record=OuterRef("pk"), organisation=organisation)))
            .exclude(Exists(loans.filter(copy__record=OuterRef("pk"))))
            .order_by("title", "pk").values_list("pk", "title"))),
        most_lent=tuple(RecordCount(pk, title, count) for pk, title, count in (
            loans.values("copy__record", "copy__record__title").annotate(count=Count("pk"))
            .order_by("-count", "copy__record__title", "copy__record")
            .values_list("copy__record", "copy__record__title", "count")[:MOST_LENT_SHOWN])),
    )


def _by_category(loans: QuerySet[CopyEvent], scheme: str) -> tuple[CategoryCount, ...]:
    """Loans under each category of their record, once each (``unclassified``: a record with none);
    every ESAR group is listed, the catalogue's categories where they have loans."""
    if scheme == CategoryScheme.ESAR:
        classes = Category.objects.filter(ESAR_CODES, scheme=Category.Scheme.ESAR)
        counted = (loans.filter(copy__record__categories__in=classes)
                   .annotate(group=Upper(Substr("copy__record__categories__code", 1, 1)))
                   .values("group").annotate(count=Count("pk", distinct=True)).values_list("group", "count"))
        found = dict(counted)
        lines = [CategoryCount(group, "", found.get(group, 0)) for group in ESAR_GROUPS]
    else:
        classes = Category.objects.filter(scheme__in=CATALOGUE_SCHEMES)
        counted = (loans.filter(copy__record__categories__in=classes)
                   .values("copy__record__categories__code", "copy__record__categories__label")
                   .annotate(count=Count("pk", distinct=True))
                   .order_by("-count", "copy__record__categories__code")
                   .values_list("copy__record__categories__code", "copy__record__categories__label", "count"))
        lines = [CategoryCount(code, label, count) for code, label, count in counted]
    unclassified = loans.exclude(Exists(classes.filter(records=OuterRef("copy__record")))).count()
    if unclassified:
        lines.append(CategoryCount(UNCLASSIFIED, "", unclassified))
    return tuple(lines)


def _by_age_group(loans: QuerySet[CopyEvent], per_household: dict[int | None, int], year: int) -> dict[str, int]:
    """Each household's loans under each age group among its members (``unknown`` where no
    member's year of birth is known, or the loan names no household)."""
    groups: dict[int | None, set[str]] = {}
    for household, birth_year in (Member.objects.filter(household__in=loans.values("household"))
                                  .values_list("household_id", "birth_year")):
        band = band_of(birth_year, year)
        if band is not None:
            groups.setdefault(household, set()).add(band.value)
    counted: Counter[str] = Counter()
    for household, count in per_household.items():
        for group in groups.get(household) or (UNKNOWN_AGE,):
            counted[group] += count
    return {group: counted[group] for group in AGE_GROUPS}


@dataclass(frozen=True)
class Correction:
    """A figure of a year changed after its report was sent (a session's count corrected…)."""

    made_at: dt.datetime
    what: str


def sendings(organisation: Organisation, year: int) -> list[ReportSent]:
    """The times ``year``'s report was marked as sent, first first."""
    return list(ReportSent.objects.filter(organisation=organisation, year=year).select_related("by")
                .order_by("sent_at", "pk"))


def corrections_since(organisation: Organisation, year: int, since: dt.datetime) -> list[Correction]:
    """The corrections to ``year``'s figures made after ``since`` (the report's sending)."""
    return [correction for source in CORRECTION_SOURCES for correction in source(organisation, year, since)]


def _agenda_corrections(organisation: Organisation, year: int, since: dt.datetime) -> list[Correction]:
    """A session's figures or times changed after the report was sent, in words (the active language)."""
    return [Correction(made_at=change.changed_at, what=_change_words(change))
            for change in agenda.corrections(organisation, year, since)]


def _change_words(change: object) -> str:
    session = change.session  # type: ignore[attr-defined]
    name = session.title or str(Session.Kind(session.kind).label)
    words = {"session": name, "day": formats.date_format(timezone.localtime(session.starts_at), "SHORT_DATE_FORMAT"),
             "what": change.field_words, "before": change.before, "after": change.after,  # type: ignore[attr-defined]
             "by": getattr(change.changed_by, "username", "") or "—",  # type: ignore[attr-defined]
             "reason": change.reason or "—"}  # type: ignore[attr-defined]
    return gettext("%(session)s of %(day)s: %(what)s %(before)s → %(after)s (by %(by)s: %(reason)s)") % words


CORRECTION_SOURCES: tuple[Callable[[Organisation, int, dt.datetime], list[Correction]], ...] = (_agenda_corrections,)
