"""The reports app's one write: marking a year's report as sent to the town."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Organisation
from accounts.roles import Action, can

from .errors import MayNotSeeReport
from .models import ReportSent
from .years import report_year

NOTE_LENGTH = 2000


@transaction.atomic
def mark_report_sent(organisation: Organisation, year: int, by: Any, note: str = "") -> ReportSent:
    """Note that ``by`` sent ``organisation``'s ``year`` report: those who may see the report
    (:data:`Action.SEE_REPORT`) may; a year out of range is :class:`~reports.errors.YearInvalid`."""
    if not can(by, Action.SEE_REPORT, organisation):
        raise MayNotSeeReport(gettext("Only the organisation's librarians, organisers and administrators see its "
                                      "yearly report."))
    year = report_year(year, timezone.localdate())
    return ReportSent.objects.create(organisation=organisation, year=year, by=by, note=note.strip()[:NOTE_LENGTH])
