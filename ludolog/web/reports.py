"""The yearly report's pages, for those of the current organisation who may see it
(:data:`Action.SEE_REPORT`: its librarians, organisers and administrators): ``/reports/<year>/``
with its figures as bar charts (figures written beside each bar), ``/reports/<year>.csv`` and
``/reports/<year>.pdf`` in the organisation's language, and the "report sent" form. The figures
are :func:`reports.selectors.yearly_report`'s; this module only lays them out."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from accounts.current import current_organisation, may
from accounts.models import Organisation
from accounts.roles import Action
from reports import exports, selectors, services
from reports.errors import ReportError
from reports.sections import CategoryScheme, RecordCount, YearReport
from reports.tables import (
    AGE_GROUP_RULE, AGE_GROUP_WORDS, CATEGORY_RULE, PUBLIC_KEY_WORDS, SESSION_KIND_WORDS, STRUCTURE_WORDS, TOWN_WORDS,
    category_words,
)
from reports.years import FIRST_YEAR, last_year_reported, report_year

from .statistics import Bar, bars

YEARS_OFFERED = 10
"""Years in the picker before this one (older years are a URL away)."""


def _text(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _refused() -> HttpResponse:
    return _text(gettext("Only the organisation's librarians, organisers and administrators see its yearly report."),
                 403)


def _report_of(request: HttpRequest, year: int) -> tuple[Organisation | None, int | None, HttpResponse | None]:
    """The organisation and the year asked for, or the answer refusing them."""
    organisation = current_organisation(request)
    if organisation is None:  # several organisations here, none chosen yet (the operator's case)
        return None, None, render(request, "choose_organisation.html", {})
    if not may(request, Action.SEE_REPORT):
        return None, None, _refused()
    try:
        return organisation, report_year(year, timezone.localdate()), None
    except ReportError as error:
        return None, None, _text(error.message, error.status_code)


@login_required
def report_home(request: HttpRequest) -> HttpResponse:
    """The year picker's target (``?year=``), else this year's report."""
    wanted = request.GET.get("year", "").strip() or timezone.localdate().year
    try:
        year = report_year(wanted, timezone.localdate())
    except ReportError as error:
        return _text(error.message, error.status_code)
    return redirect("report-year", year=year)


@login_required
def report_page(request: HttpRequest, year: int) -> HttpResponse:
    organisation, year, refusal = _report_of(request, year)
    if refusal is not None:
        return refusal
    report = selectors.yearly_report(organisation, year)
    sendings = selectors.sendings(organisation, year)
    corrections = selectors.corrections_since(organisation, year, sendings[-1].sent_at) if sendings else []
    today = timezone.localdate()
    first_offered = max(FIRST_YEAR, today.year - YEARS_OFFERED)
    return render(request, "reports/year.html", {
        "report": report,
        "year": year,
        "years": sorted({*range(first_offered, last_year_reported(today) + 1), year}, reverse=True),
        "previous_year": year - 1 if year > FIRST_YEAR else None,
        "next_year": year + 1 if year < last_year_reported(today) else None,
        "sendings": sendings,
        "corrections": corrections,
        "figures": _key_figures(report),
        "charts": _charts(report),
        # The events' days as dates, for the page to write them the reader's way.
        "events": [(line, dt.datetime.fromisoformat(line.starts_at)) for line in report.agenda.events],
        "age_group_rule": AGE_GROUP_RULE,
        "category_rule": CATEGORY_RULE,
        "esar": report.loans.category_scheme == CategoryScheme.ESAR,
    })


def _number(value: int | Decimal) -> str:
    return formats.number_format(value, 0 if isinstance(value, int) or value == value.to_integral() else 1)


def _key_figures(report: YearReport) -> list[tuple[str, str, str]]:
    """(test id, words, figure as written) of the figures a town asks first."""
    agenda, membership, loans = report.agenda, report.membership, report.loans
    return [
        ("report-opening-hours", gettext("Opening hours"), _number(agenda.opening_hours)),
        ("report-sessions", gettext("Sessions held"), _number(agenda.sessions_held)),
        ("report-attendance", gettext("Persons counted"), _number(agenda.attendance)),
        ("report-households-active", gettext("Households active"), _number(membership.households_active)),
        ("report-households-new", gettext("New households"), _number(membership.households_new)),
        ("report-loans", gettext("Loans"), _number(loans.loans)),
        ("report-households-borrowing", gettext("Households borrowing"), _number(loans.households_borrowing)),
        ("report-never-lent", gettext("Games never lent"), _number(len(loans.games_never_lent))),
    ]


def _month_name(key: str) -> str:
    return formats.date_format(dt.date(int(key[:4]), int(key[5:7]), 1), "F")


def _by_month(figures: dict[str, int]) -> list[Bar]:
    return bars([(_month_name(key), value, _number(value)) for key, value in figures.items()], keys=list(figures))


def _by_key(figures: dict[str, int] | dict[str, Decimal], words: dict | None = None) -> list[Bar]:
    return bars([(str((words or {}).get(key, key)), float(value), _number(value)) for key, value in figures.items()],
                keys=list(figures))


def _records(lines: tuple[RecordCount, ...]) -> list[Bar]:
    """A bar per record, linked to its catalogue page (a game with no record: its name, no link)."""
    return bars([(line.title, line.count, _number(line.count)) for line in lines],
                urls=[reverse("catalogue:record", args=[line.record_id]) if line.record_id is not None else ""
                      for line in lines],
                keys=[str(line.record_id) if line.record_id is not None else "" for line in lines])


def _charts(report: YearReport) -> dict[str, list[Bar]]:
    agenda, membership, loans = report.agenda, report.membership, report.loans
    visits = agenda.group_visits_by_kind
    return {
        "attendance_by_month": _by_month(agenda.attendance_by_month),
        "attendance_by_public": _by_key(agenda.attendance_by_public, PUBLIC_KEY_WORDS),
        "sessions_by_kind": _by_key(agenda.sessions_by_kind, SESSION_KIND_WORDS),
        "hours_by_kind": _by_key(agenda.hours_by_kind, SESSION_KIND_WORDS),
        "group_visits": bars(
            [(str(STRUCTURE_WORDS.get(kind, kind)), line.visits, _number(line.visits)) for kind, line in visits.items()], keys=list(visits),
            notes=[ngettext("%(children)s children", "%(children)s children", line.children)
                   % {"children": line.children} + " · "
                   + ngettext("%(adults)s adult", "%(adults)s adults", line.adults) % {"adults": line.adults}
                   for line in visits.values()]),
        "households_by_town": _by_key(membership.households_by_town, TOWN_WORDS),
        "loans_by_month": _by_month(loans.by_month),
        "loans_by_category": bars([(category_words(line), line.loans, _number(line.loans))
                                   for line in loans.by_category], keys=[line.key for line in loans.by_category]),
        "loans_by_age_group": _by_key(loans.by_age_group, AGE_GROUP_WORDS),
        "most_lent": _records(loans.most_lent),
        "played_on_site": _records(agenda.games_played_on_site),
    }


@login_required
@require_POST
def mark_sent(request: HttpRequest, year: int) -> HttpResponse:
    organisation, year, refusal = _report_of(request, year)
    if refusal is not None:
        return refusal
    try:
        services.mark_report_sent(organisation, year, request.user, request.POST.get("note", ""))
    except ReportError as error:
        return _text(error.message, error.status_code)
    messages.success(request, gettext("The %(year)s report is marked as sent.") % {"year": year})
    return redirect("report-year", year=year)


def _file_name(report: YearReport, extension: str) -> str:
    return f"report-{report.organisation_id}-{report.year}.{extension}"


@login_required
def report_csv(request: HttpRequest, year: int) -> HttpResponse:
    organisation, year, refusal = _report_of(request, year)
    if refusal is not None:
        return refusal
    report = selectors.yearly_report(organisation, year)
    answer = HttpResponse(exports.report_csv(report), content_type="text/csv; charset=utf-8")
    answer["Content-Disposition"] = f'attachment; filename="{_file_name(report, "csv")}"'
    return answer


@login_required
def report_pdf(request: HttpRequest, year: int) -> HttpResponse:
    organisation, year, refusal = _report_of(request, year)
    if refusal is not None:
        return refusal
    report = selectors.yearly_report(organisation, year)
    answer = HttpResponse(exports.report_pdf(report), content_type="application/pdf")
    answer["Content-Disposition"] = f'inline; filename="{_file_name(report, "pdf")}"'
    return answer
