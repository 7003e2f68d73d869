"""The loans rules' refusals in the reader's language, for every page that shows one: the desk's,
the member's account and the catalogue's reserve button (which is why they live beside the rules
and not among the loans pages, which the site does not import)."""

from __future__ import annotations

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
    "copy_tampered": _("This copy failed its integrity check: its loan history no longer matches what the desk "
                       "recorded. Nothing can be done with it until the site's operators have looked at it."),
}
"""The desk's refusals in the reader's language (the rules speak English, for programs' logs)."""


def refusal_words(error: LoanError) -> str:
    return str(REFUSAL_WORDS.get(error.reason, error.message))
