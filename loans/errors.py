"""The desk's refusals; the API answers each with its status and reason (``ludolog.api_errors``),
as it answers ``records.errors.RecordError``."""

from __future__ import annotations

from .rules import Refusal


class LoanError(Exception):
    """Base: every subclass carries a stable ``reason`` and the HTTP status it maps to."""

    reason = "loan_error"
    status_code = 400

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class UnknownCopy(LoanError):
    reason = "unknown_copy"
    status_code = 404


class UnknownHousehold(LoanError):
    reason = "unknown_household"
    status_code = 404


class UnknownRecord(LoanError):
    reason = "unknown_record"
    status_code = 404


class UnknownComponent(LoanError):
    """A count at a return for a kind the copy's checklist does not have."""

    reason = "unknown_component"
    status_code = 400


class LibrariansOnly(LoanError):
    """A move kept for librarians (withdrawing a copy) asked by desk staff who are not."""

    reason = "librarians_only"
    status_code = 403


class OtherLibrary(LoanError):
    """A copy named for a household of another game library: each ludothèque lends its own boxes
    to its own households."""

    reason = "copy_of_another_library"
    status_code = 409


class CopyChanged(LoanError):
    """Another desk wrote to the copy at the same moment: look again and retry."""

    reason = "copy_changed"
    status_code = 409


class RuleRefused(LoanError):
    """The lending rules refuse: ``reason`` is the rule's (``loan_limit_reached``…)."""

    status_code = 422
    CONFLICTS = frozenset({"copy_not_available", "not_on_loan", "hold_already_placed", "no_hold_open"})
    """Refusals about the copy's or the queue's current state rather than the household's rights."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message, **refusal.details)
        self.reason = refusal.reason
        self.status_code = 409 if refusal.reason in self.CONFLICTS else 422


class MayNotRegisterHouseholds(LoanError):
    """Households and their members are kept by the desk's staff of their game library."""

    reason = "may_not_register_households"
    status_code = 403


class MayNotEditLendingRules(LoanError):
    """The lending rules are the librarians'."""

    reason = "may_not_edit_lending_rules"
    status_code = 403


class CardNumberTaken(LoanError):
    """Another household has the card number: a card is one household's, whatever its library
    (a scanner reads only the number)."""

    reason = "card_number_taken"
    status_code = 409


class InvalidFields(LoanError):
    """A household, a member or lending rules that do not hold: ``details["errors"]`` gives each
    field's messages (``None``: the whole), ``reason`` says which of the three."""

    status_code = 400

    def __init__(self, reason: str, message: str, errors: dict[str | None, list[str]]) -> None:
        super().__init__(message, errors=errors)
        self.reason = reason


class AccountNotAMember(LoanError):
    """The account a member is linked to is named by the username or e-mail of a member of the
    household's organisation, and of no one else."""

    reason = "account_not_a_member"
    status_code = 400


class AccountHasAHousehold(LoanError):
    """An account is one household's member at most (it reads that household's loans)."""

    reason = "account_has_a_household"
    status_code = 409


class CopyTampered(LoanError):
    """The copy failed verification (``verify_events``, loans.integrity): its stored events no
    longer match what the desk recorded. The desk neither shows nor changes it until someone who
    runs the site has looked at it; ``problems`` says what was found."""

    reason = "copy_tampered"
    status_code = 409

    @classmethod
    def of(cls, copy: object, problems: list[str]) -> CopyTampered:
        barcode = getattr(copy, "barcode", copy)
        return cls(f"copy {barcode} failed its integrity check: its stored loan events no longer match what the desk "
                   "recorded; it is not shown or changed until the site's operators have repaired it",
                   copy=barcode, problems=problems)


class OverrideNotAllowed(LoanError):
    """Lending although the rules refuse, or waiving a late fee, is the librarians'."""

    reason = "override_not_allowed"
    status_code = 403


class OverrideNeedsAReason(LoanError):
    """An override, or a late fee waived, is noted with why: a reason is written."""

    reason = "reason_needed"
    status_code = 400


class MayNotTakePayments(LoanError):
    reason = "may_not_take_payments"
    status_code = 403


class MayNotEditTariffs(LoanError):
    reason = "may_not_edit_tariffs"
    status_code = 403


class TariffInUse(LoanError):
    """A tariff a membership was paid under is kept: it is retired instead of deleted."""

    reason = "tariff_in_use"
    status_code = 409


class TariffNameTaken(LoanError):
    reason = "tariff_name_taken"
    status_code = 409


class MoreThanOwed(LoanError):
    """A late fee paid or waived above what the household owes: ``owed`` says how much it does."""

    reason = "more_than_owed"
    status_code = 422


class MoreThanHeld(LoanError):
    """A deposit given back above the deposit held: ``held`` says how much is."""

    reason = "more_than_held"
    status_code = 422


class HouseholdChanged(LoanError):
    """Another desk wrote to the household's history at the same moment: look again and retry."""

    reason = "household_changed"
    status_code = 409


class CopyChainsBroken(Exception):
    """``rebuild_copy_states`` refuses to fold copies whose events fail verification: ``problems``
    names each (copy, seq, what), ``copy_ids`` the copies."""

    def __init__(self, copy_ids: list[int], problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.copy_ids, self.problems = copy_ids, problems
