"""A game library keeps its households, their members and its lending rules: the writes behind
its own pages (``loans.pages.households``, ``loans.pages.library``), each asking
``accounts.roles.can`` first and validating what it stores.

A refusal is a :class:`loans.errors.LoanError` with its reason and status, and changes nothing:
someone who may not (403), a card number another household has (409 ``card_number_taken``),
fields that do not hold (400 ``invalid_household``, ``invalid_member``, ``invalid_lending_rules``,
each field's messages in ``details["errors"]``), an account that is not the organisation's member's
(400 ``account_not_a_member``) or is another household's already (409 ``account_has_a_household``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils.translation import gettext

from accounts.models import Membership, Organisation
from accounts.roles import Action, can

from .errors import (
    AccountHasAHousehold, AccountNotAMember, CardNumberTaken, InvalidFields, MayNotEditLendingRules,
    MayNotRegisterHouseholds,
)
from .models import Household, LoanRules, Member

HOUSEHOLD_FIELDS = ("name", "card_number", "address", "postcode", "town", "phone", "email", "language",
                    "membership_starts", "membership_ends", "fee_paid", "deposit_held", "loan_limit", "notes")
"""What the library's staff write of a household (its organisation is the one it was made in)."""
LENDING_RULES_FIELDS = ("loan_days", "renewals_allowed", "late_fee_per_day", "hold_days", "reminder_days",
                        "refuse_overdue", "refuse_fees_over", "refuse_unpaid_membership", "membership_reminder_days")


def _may_register(by: Any, organisation: Organisation | None) -> None:
    if organisation is None or not can(by, Action.REGISTER_HOUSEHOLDS, organisation):
        raise MayNotRegisterHouseholds("only the desk's staff of the household's game library keep its households")


def checked(row: Model, reason: str, *, exclude: Iterable[str] = ()) -> None:
    """``row``'s fields and invariants (the model's validators and ``clean``), or ``InvalidFields``."""
    try:
        row.full_clean(exclude=list(exclude), validate_unique=False)
    except ValidationError as invalid:
        errors = {None if field == "__all__" else field: messages
                  for field, messages in invalid.message_dict.items()}
        raise InvalidFields(reason, f"{reason}: {', '.join(str(field) for field in errors)}", errors) from invalid


def _fill(household: Household, fields: dict[str, Any]) -> None:
    unknown = set(fields) - set(HOUSEHOLD_FIELDS)
    if unknown:
        raise TypeError(f"not a household's field: {', '.join(sorted(unknown))}")
    for name, value in fields.items():
        setattr(household, name, value.strip() if isinstance(value, str) else value)


def _save_household(household: Household) -> Household:
    checked(household, "invalid_household", exclude=["organisation"])
    taken = Household.objects.filter(card_number=household.card_number).exclude(pk=household.pk).exists()
    if taken:
        raise CardNumberTaken(f"another household has the card {household.card_number!r}",
                              card_number=household.card_number)
    try:
        with transaction.atomic():
            household.save()
    except IntegrityError as race:  # the same card given at another desk at the same moment
        raise CardNumberTaken(f"another household has the card {household.card_number!r}",
                              card_number=household.card_number) from race
    return household


def register_household(by: Any, organisation: Organisation, **fields: Any) -> Household:
    """A new household of ``organisation`` (``fields``: among :data:`HOUSEHOLD_FIELDS`; the model's
    defaults for the others)."""
    _may_register(by, organisation)
    household = Household(organisation=organisation)
    _fill(household, fields)
    return _save_household(household)


MEMBERSHIP_FIELDS = ("membership_starts", "membership_ends", "fee_paid", "deposit_held")
"""A household's membership and deposit: typed here until the desk takes its first payment, then
the projection of its events (``loans.memberships``), changed only by new events."""


def edit_household(by: Any, household: Household, **fields: Any) -> Household:
    """Change ``fields`` of ``household`` (the others stay as they are). Once the desk has recorded
    the household's membership or money as events, :data:`MEMBERSHIP_FIELDS` follow them only: a
    change typed here is refused (400 ``invalid_household``)."""
    _may_register(by, household.organisation)
    with transaction.atomic():
        household = Household.objects.select_for_update().get(pk=household.pk)
        if household.events.exists():
            changed = [name for name in MEMBERSHIP_FIELDS if name in fields and fields[name] != getattr(household, name)]
            if changed:
                raise InvalidFields("invalid_household", f"kept by the household's events: {', '.join(changed)}", {
                    name: [gettext("Taken at the desk as payments: change it there.")] for name in changed})
        _fill(household, fields)
        return _save_household(household)


def account_named(organisation: Organisation, name: str) -> Any:
    """The account of a member of ``organisation`` whose username, or else e-mail address, is
    ``name`` (whatever its case); ``None`` for an empty name. An address two members share names
    neither: their usernames do."""
    name = name.strip()
    if not name:
        return None
    members = get_user_model().objects.filter(
        pk__in=Membership.objects.filter(organisation=organisation).values("user_id"))
    found = list(members.filter(username=name)) or list(members.filter(username__iexact=name)[:2])
    if len(found) != 1 and "@" in name:
        found = list(members.filter(email__iexact=name)[:2])
    if len(found) != 1:
        raise AccountNotAMember(f"no member of {organisation.slug} alone is called {name!r}", account=name)
    return found[0]


def _save_member(member: Member, account_name: str) -> Member:
    organisation = member.household.organisation
    member.display_name = member.display_name.strip()
    member.user = account_named(organisation, account_name)
    checked(member, "invalid_member", exclude=["household", "user", "player"])
    if member.user is not None and Member.objects.filter(user=member.user).exclude(pk=member.pk).exists():
        raise AccountHasAHousehold(f"{member.user.get_username()} is a member of a household already",
                                   account=member.user.get_username())
    try:
        with transaction.atomic():
            member.save()
    except IntegrityError as race:  # the account linked to another member at the same moment
        raise AccountHasAHousehold("the account is a member of a household already") from race
    return member


def add_member(by: Any, household: Household, *, display_name: str, birth_year: int | None = None,
               account: str = "") -> Member:
    """A new member of ``household``; ``account``: the username or e-mail of a member of the
    household's organisation whose account this person is (empty: none)."""
    _may_register(by, household.organisation)
    return _save_member(Member(household=household, display_name=display_name, birth_year=birth_year), account)


def edit_member(by: Any, member: Member, *, display_name: str, birth_year: int | None = None,
                account: str = "") -> Member:
    """Change a member's name, year of birth and account (empty: no account any more)."""
    _may_register(by, member.household.organisation)
    member = Member.objects.select_related("household__organisation").get(pk=member.pk)
    member.display_name, member.birth_year = display_name, birth_year
    return _save_member(member, account)


def remove_member(by: Any, member: Member) -> None:
    """``member`` leaves the household (the household's loans and history stay the household's)."""
    _may_register(by, member.household.organisation)
    member.delete()


def lending_rules_of(organisation: Organisation) -> LoanRules:
    """The organisation's rules as stored, or the defaults (unsaved) where it has none yet."""
    return LoanRules.objects.filter(organisation=organisation).first() or LoanRules(organisation=organisation)


def set_lending_rules(by: Any, organisation: Organisation, **fields: Any) -> LoanRules:
    """Set the organisation's lending rules (``fields``: among :data:`LENDING_RULES_FIELDS`); they
    apply from the next loan, renewal, return or reminder."""
    if not can(by, Action.EDIT_LENDING_RULES, organisation):
        raise MayNotEditLendingRules("only librarians change the lending rules")
    unknown = set(fields) - set(LENDING_RULES_FIELDS)
    if unknown:
        raise TypeError(f"not a lending rule: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        LoanRules.objects.get_or_create(organisation=organisation)
        rules = LoanRules.objects.select_for_update().get(organisation=organisation)
        for name, value in fields.items():
            setattr(rules, name, value)
        checked(rules, "invalid_lending_rules", exclude=["organisation"])
        rules.save()
    return rules
