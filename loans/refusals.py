"""The loans rules' refusals in the reader's language, for every page that shows one: the desk's,
the member's account and the catalogue's reserve button (which is why they live beside the rules
and not among the loans pages, which the site does not import)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from loans.errors import LoanError

REFUSAL_WORDS = {
    "loan_limit_reached": _("This household has borrowed all the games it may at once."),
    "copy_not_available": _("This copy is not on the shelves (lent, set aside for another household, or away)."),
    "renewal_refused_hold_waiting": _("Another household has reserved this game: it cannot be renewed."),
    "no_renewals_left": _("This loan has been renewed as often as the rules allow."),
    "membership_expired": _("This household's membership has ended."),
    "membership_not_started": _("This household's membership has not started yet."),
    "not_on_loan": _("This copy is not on loan."),
    "hold_already_placed": _("This household already waits for this game."),
    "no_hold_open": _("This reservation is no longer open."),
    "empty_note": _("Write the note first."),
    "librarians_only": _("Only librarians withdraw copies."),
    "unknown_component": _("The copy is not missing that many of these pieces."),
    "copy_changed": _("Another desk changed this copy at the same moment: look again and retry."),
    "unknown_copy": _("No copy has this barcode."),
    "unknown_household": _("No household has this card."),
    "may_not_register_households": _("Only the desk's staff of this game library keep its households."),
    "may_not_edit_lending_rules": _("Only librarians change the lending rules."),
    "card_number_taken": _("Another household already has this card number."),
    "account_not_a_member": _("No member of this organisation has this username or e-mail address."),
    "account_has_a_household": _("This account is already a member of a household."),
    "invalid_household": _("Some of the household's details are not right: see below."),
    "invalid_member": _("Some of the member's details are not right: see below."),
    "invalid_lending_rules": _("Some of the rules are not right: see below."),
    "membership_unpaid": _("This household's membership is recorded but its fee is not paid."),
    "games_overdue": _("This household has games overdue."),
    "late_fees_unpaid": _("This household owes late fees."),
    "override_not_allowed": _("Only librarians lend against the lending rules or waive late fees."),
    "reason_needed": _("Say why: the reason is noted."),
    "may_not_take_payments": _("Only the desk's staff of this game library take payments."),
    "may_not_edit_tariffs": _("Only librarians keep the tariffs."),
    "tariff_in_use": _("Memberships were paid under this tariff: it cannot be deleted. Retire it instead: it is "
                       "no longer offered, and the memberships paid under it keep it."),
    "tariff_name_taken": _("Another tariff already has this name."),
    "invalid_tariff": _("Some of the tariff's details are not right: see below."),
    "invalid_payment": _("Some of the payment's details are not right: see below."),
    "more_than_owed": _("That is more than the household owes in late fees."),
    "more_than_held": _("That is more than the deposit held."),
    "household_changed": _("Another desk changed this household at the same moment: look again and retry."),
    "copy_tampered": _("This copy failed its integrity check: its loan history no longer matches what the desk "
                       "recorded. Nothing can be done with it until the site's operators have looked at it."),
}
"""The desk's refusals in the reader's language (the rules speak English, for programs' logs)."""


def _money(amount: object) -> str:
    return formats.number_format(Decimal(str(amount)), 2)


def _overdue_words(details: dict) -> str:
    games = details.get("overdue") or []
    named = "; ".join(ngettext("%(title)s (copy %(copy)s), %(days)s day late", "%(title)s (copy %(copy)s), "
                               "%(days)s days late", game["days"]) % game for game in games)
    return ngettext("This household has a game overdue: %(games)s. It borrows again once it is back.",
                    "This household has games overdue: %(games)s. It borrows again once they are back.",
                    len(games)) % {"games": named}


def _detailed_words(error: LoanError) -> str | None:
    """The words of a refusal that names things (the games overdue, the amounts), else ``None``."""
    details = error.details
    if error.reason == "games_overdue" and details.get("overdue"):
        return _overdue_words(details)
    if error.reason == "late_fees_unpaid" and "owed" in details:
        return gettext("This household owes %(owed)s in late fees: it borrows again once it has paid them.") % {
            "owed": _money(details["owed"])}
    if error.reason == "more_than_owed" and "owed" in details:
        return gettext("That is more than the household owes in late fees (%(owed)s).") % {
            "owed": _money(details["owed"])}
    if error.reason == "more_than_held" and "held" in details:
        return gettext("That is more than the deposit held (%(held)s).") % {"held": _money(details["held"])}
    if error.reason == "membership_expired" and details.get("ended"):
        return gettext("This household's membership ended on %(ended)s.") % {
            "ended": formats.date_format(dt.date.fromisoformat(details["ended"]))}
    return None


def refusal_words(error: LoanError) -> str:
    return _detailed_words(error) or str(REFUSAL_WORDS.get(error.reason, error.message))
