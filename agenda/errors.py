"""The agenda's refusals. Each carries a stable ``reason``, the HTTP status it is answered with
(``ludolog.api_errors``), and a message in the reader's language (made when raised, in the
request's language), so that the API and the pages say the same thing."""

from __future__ import annotations

from django.utils.translation import gettext


class AgendaError(Exception):
    reason = "agenda_error"
    status_code = 400

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class InvalidFields(AgendaError):
    """Opening hours, a closure, a session or a registration that does not hold:
    ``details["errors"]`` gives each field's messages."""

    status_code = 400

    def __init__(self, reason: str, errors: dict[str, list[str]]) -> None:
        super().__init__(gettext("Some of the details are not right: see each field."), errors=errors)
        self.reason = reason


class SessionExists(AgendaError):
    reason = "session_exists"
    status_code = 409


class CountingClosed(AgendaError):
    """A tap for a session cancelled, not begun, or ended more than the counting window ago."""

    status_code = 409

    def __init__(self, reason: str) -> None:
        super().__init__(str(COUNTING_WORDS[reason]()))
        self.reason = reason


COUNTING_WORDS = {
    "session_cancelled": lambda: gettext("This session was cancelled: nothing is counted for it."),
    "session_not_started": lambda: gettext("This session has not begun: counting opens an hour before it starts."),
    "session_closed_for_counting": lambda: gettext(
        "This session ended more than a week ago: change its figures by a correction on its page, with a reason."),
}


class CountBelowZero(AgendaError):
    reason = "count_below_zero"
    status_code = 422


class ReasonRequired(AgendaError):
    reason = "reason_required_for_past_session"
    status_code = 422


class RegistrationClosed(AgendaError):
    """Registering for a session that takes none, is cancelled, or is over."""

    reason = "registration_closed"
    status_code = 409


class NotRegistered(AgendaError):
    """Checking in a registration that is waiting or cancelled."""

    reason = "not_registered"
    status_code = 409


class CheckInClosed(AgendaError):
    reason = "check_in_closed"
    status_code = 409


class HoursInUse(AgendaError):
    """Opening hours that already opened are ended, never removed: their sessions are history."""

    reason = "hours_in_use"
    status_code = 409


class UnknownRecord(AgendaError):
    reason = "unknown_record"
    status_code = 404



class OtherOrganisation(AgendaError):
    """A game linked to a session of an organisation it was not recorded for."""

    reason = "other_organisation"
    status_code = 422


class NotThatDay(AgendaError):
    """A game linked to a session held on another day than the one it was played."""

    reason = "not_that_day"
    status_code = 422


class NotLinked(AgendaError):
    """A game unlinked from a session it is not linked to."""

    reason = "not_linked"
    status_code = 404
