"""The yearly report's refusals: each carries a stable ``reason`` and its HTTP status, and a
message in the reader's language (the API's one error handler, ``ludolog.api_errors``, answers
them as they are; the pages show the message)."""

from __future__ import annotations


class ReportError(Exception):
    reason = "report_error"
    status_code = 400

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class YearInvalid(ReportError):
    """A year missing, not a number, before the first year reported or after the next one."""

    reason = "year_invalid"


class MayNotSeeReport(ReportError):
    reason = "may_not_see_report"
    status_code = 403


class ImmutableReportSentError(Exception):
    """A stored "report sent" was about to be changed or deleted: the record is append-only."""
