"""A household's membership and money at the desk, as append-only events (``HouseholdEvent``):
a membership paid (under a tariff, for its dates, by a method) or cancelled, a deposit taken or
given back, a late fee paid or waived, a loan made although the rules refused it, a reminder to
renew. The household's ``membership_starts``, ``membership_ends``, ``fee_paid`` and
``deposit_held`` are their projection, written in the same transaction as each event
(:func:`loans.rules.apply_household_event`); a household with no events keeps what was typed.

And the tariffs the library asks (its librarians', ``Action.EDIT_TARIFFS``): one a membership
was paid under is never deleted (409 ``tariff_in_use``), it is retired.

Each write asks ``accounts.roles.can`` first and checks what it stores; a refusal is a
:class:`loans.errors.LoanError` and changes nothing. Concurrency: a write locks the household's
row, then takes the position after its last event under the unique constraint (household, seq).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from accounts.models import Organisation
from accounts.roles import Action, can
from outbox import services as outbox

from . import rules, selectors
from .errors import (
    HouseholdChanged, InvalidFields, MayNotEditTariffs, MayNotTakePayments, MoreThanHeld, MoreThanOwed,
    OverrideNeedsAReason, OverrideNotAllowed, TariffInUse, TariffNameTaken,
)
from .households import checked
from .models import Household, HouseholdEvent, LoanRules, PaymentMethod, Tariff

Kind = rules.HouseholdEventType
MEMBERSHIP_RENEWAL_MAIL = "membership_renewal"
"""The outbox's kind of the reminders to renew."""
TARIFF_FIELDS = ("name", "kind", "per", "amount", "months", "deposit", "active")
CENTS = Decimal("0.01")


def _may(by: Any, action: Action, organisation: Organisation | None) -> None:
    if organisation is not None and can(by, action, organisation):
        return
    if action is Action.OVERRIDE_LENDING_RULES:
        raise OverrideNotAllowed("only librarians lend against the rules or waive late fees")
    if action is Action.EDIT_TARIFFS:
        raise MayNotEditTariffs("only librarians keep the tariffs")
    raise MayNotTakePayments("only the desk's staff of the household's game library take payments")


def _money(value: Any, field: str = "amount", *, positive: bool = True) -> Decimal:
    """``value`` as an amount in cents; 400 ``invalid_payment`` for no number, a negative one, or
    nothing at all where something is paid."""
    try:
        # As typed at the desk: 12,50 or 12.50, maybe with a space (or a no-break one) between thousands.
        amount = Decimal("".join(str(value).replace(",", ".").split())).quantize(CENTS)
    except (InvalidOperation, ValueError):
        amount = None
    if amount is None or not amount.is_finite() or amount < 0 or (positive and amount == 0) or amount >= 10**6:
        raise InvalidFields("invalid_payment", f"{field}: not an amount ({value!r})",
                            {field: [gettext("An amount in euros, above zero: 12.50.")]})
    return amount


def _method(method: str) -> str:
    if method not in PaymentMethod.values:
        raise InvalidFields("invalid_payment", f"method: {method!r} is not a way to pay",
                            {"method": [gettext("Choose how it was paid.")]})
    return method


def _day(happened_on: dt.date | None, today: dt.date) -> dt.date:
    """The day it happened: today, or a day before (the desk records yesterday's payment); never later."""
    happened_on = happened_on or today
    if happened_on > today:
        raise InvalidFields("invalid_payment", f"happened_on: {happened_on} is after today",
                            {"happened_on": [gettext("A day today or before.")]})
    return happened_on


def _reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise OverrideNeedsAReason("say why: the reason is noted with the override")
    return reason[:500]


def _membership(household: Household) -> rules.Membership:
    return rules.Membership(starts=household.membership_starts, ends=household.membership_ends,
                            fee_paid=household.fee_paid, deposit_held=household.deposit_held)


def append(household: Household, kind: rules.HouseholdEventType, payload: Mapping[str, Any], by: Any, *,
           happened_on: dt.date, amount: Decimal | None = None, tariff: Tariff | None = None) -> HouseholdEvent:
    """Store one event after the household's last and fold it into the household's columns, in
    the caller's transaction; the household's row is locked first (``household`` is read again).
    Used by the writes below and by ``loans.services.lend`` (an override)."""
    try:
        with transaction.atomic():
            locked = Household.objects.select_for_update().get(pk=household.pk)
            last = HouseholdEvent.objects.filter(household=locked).aggregate(last=Max("seq"))["last"] or 0
            event = HouseholdEvent.objects.create(
                household=locked, seq=last + 1, type=kind.value, payload=dict(payload), amount=amount, tariff=tariff,
                happened_on=happened_on, recorded_by=by if by is not None and by.is_authenticated else None)
            before = _membership(locked)
            after = rules.apply_household_event(before, kind.value, payload)
            if after != before:
                Household.objects.filter(pk=locked.pk).update(
                    membership_starts=after.starts, membership_ends=after.ends, fee_paid=after.fee_paid,
                    deposit_held=after.deposit_held)
    except IntegrityError as race:
        raise HouseholdChanged(f"household {household.card_number} was changed by another desk at the same moment",
                               household=household.card_number) from race
    return event


def take_membership(by: Any, household: Household, tariff: Tariff, *, method: str, amount: Any = None,
                    starts: dt.date | None = None, ends: dt.date | None = None, persons: int | None = None,
                    happened_on: dt.date | None = None, today: dt.date | None = None) -> HouseholdEvent:
    """The household pays its membership under ``tariff`` by ``method``. What is not given is
    what the desk is offered (:func:`loans.selectors.suggested_membership`): the tariff's amount
    (× ``persons`` per person, its members by default), from today or the day after the paid
    membership running ends, for the tariff's months."""
    _may(by, Action.TAKE_PAYMENTS, household.organisation)
    household = Household.objects.select_related("organisation").get(pk=household.pk)  # its membership as stored now
    today = today or timezone.localdate()
    day = _day(happened_on, today)
    if tariff.organisation_id != household.organisation_id:
        raise InvalidFields("invalid_payment", "the tariff is another game library's",
                            {"tariff": [gettext("Choose one of the library's tariffs.")]})
    offered = selectors.suggested_membership(household, tariff, day, persons=persons)
    starts, ends = starts or offered.starts, ends or offered.ends
    if ends < starts:
        raise InvalidFields("invalid_payment", "the membership ends before it starts",
                            {"ends": [gettext("The membership cannot end before it starts.")]})
    paid = offered.amount if amount in (None, "") else _money(amount, positive=False)
    payload = {"tariff": tariff.pk, "tariff_name": tariff.name, "amount": str(paid), "method": _method(method),
               "starts": starts.isoformat(), "ends": ends.isoformat(), "persons": offered.persons,
               # The membership it follows (none: the household's first): which year's households are new.
               "previous_starts": household.membership_starts.isoformat() if household.membership_starts else None,
               "previous_ends": household.membership_ends.isoformat() if household.membership_ends else None}
    with transaction.atomic():
        return append(household, Kind.MEMBERSHIP_PAID, payload, by, happened_on=day, amount=paid, tariff=tariff)


def cancel_membership(by: Any, household: Household, *, reason: str, happened_on: dt.date | None = None,
                      today: dt.date | None = None) -> HouseholdEvent:
    """The membership ends the day before ``happened_on`` (a membership paid by mistake, a
    household leaving); its fee is no longer counted as paid. The money stays in the figures:
    what was given back, if anything, is said in ``reason``."""
    _may(by, Action.TAKE_PAYMENTS, household.organisation)
    day = _day(happened_on, today or timezone.localdate())
    payload = {"ends": (day - dt.timedelta(days=1)).isoformat(), "reason": _reason(reason)}
    with transaction.atomic():
        return append(household, Kind.MEMBERSHIP_CANCELLED, payload, by, happened_on=day)


def take_deposit(by: Any, household: Household, *, amount: Any, method: str, happened_on: dt.date | None = None,
                 today: dt.date | None = None) -> HouseholdEvent:
    _may(by, Action.TAKE_PAYMENTS, household.organisation)
    day = _day(happened_on, today or timezone.localdate())
    paid = _money(amount)
    with transaction.atomic():
        return append(household, Kind.DEPOSIT_TAKEN, {"amount": str(paid), "method": _method(method)}, by,
                      happened_on=day, amount=paid)


def return_deposit(by: Any, household: Household, *, amount: Any, happened_on: dt.date | None = None,
                   today: dt.date | None = None) -> HouseholdEvent:
    """Give back ``amount`` of the deposit held (422 ``more_than_held`` above it)."""
    _may(by, Action.TAKE_PAYMENTS, household.organisation)
    day = _day(happened_on, today or timezone.localdate())
    given = _money(amount)
    with transaction.atomic():
        held = Household.objects.select_for_update().get(pk=household.pk).deposit_held
        if given > held:
            raise MoreThanHeld(f"the deposit held is {held}, not {given}", held=str(held))
        return append(household, Kind.DEPOSIT_RETURNED, {"amount": str(given)}, by, happened_on=day, amount=given)


def pay_late_fee(by: Any, household: Household, *, amount: Any, method: str, happened_on: dt.date | None = None,
                 today: dt.date | None = None) -> HouseholdEvent:
    """The household pays ``amount`` of its late fees (422 ``more_than_owed`` above what it owes)."""
    _may(by, Action.TAKE_PAYMENTS, household.organisation)
    day = _day(happened_on, today or timezone.localdate())
    paid = _money(amount)
    with transaction.atomic():
        _owing(household, paid)
        return append(household, Kind.LATE_FEE_PAID, {"amount": str(paid), "method": _method(method)}, by,
                      happened_on=day, amount=paid)


def waive_late_fee(by: Any, household: Household, *, amount: Any, reason: str, happened_on: dt.date | None = None,
                   today: dt.date | None = None) -> HouseholdEvent:
    """A librarian forgives ``amount`` of the household's late fees, saying why."""
    _may(by, Action.OVERRIDE_LENDING_RULES, household.organisation)
    day = _day(happened_on, today or timezone.localdate())
    waived = _money(amount)
    why = _reason(reason)
    with transaction.atomic():
        _owing(household, waived)
        return append(household, Kind.LATE_FEE_WAIVED, {"amount": str(waived), "reason": why}, by,
                      happened_on=day, amount=waived)


def _owing(household: Household, amount: Decimal) -> None:
    """Refuse ``amount`` above what the household owes, its row locked while we decide."""
    Household.objects.select_for_update().filter(pk=household.pk).first()
    owed = selectors.late_fees_owed(household)
    if amount > owed:
        raise MoreThanOwed(f"the household owes {owed} in late fees, not {amount}", owed=str(owed))


def note_override(by: Any, household: Household, *, copy: str, refusals: list[rules.Refusal], reason: str,
                  today: dt.date) -> HouseholdEvent:
    """A loan made although the rules refused it: who, which copy, which refusal(s) and why. In
    the lending's transaction (``loans.services.lend``), after its permission was asked."""
    _may(by, Action.OVERRIDE_LENDING_RULES, household.organisation)
    payload = {"copy": copy, "refusal": refusals[0].reason, "refusals": [refusal.reason for refusal in refusals],
               "reason": _reason(reason)}
    return append(household, Kind.LENDING_OVERRIDE, payload, by, happened_on=today)


def remind_membership_renewals(today: dt.date | None = None) -> int:
    """Mail each household whose paid membership ends within its library's
    ``membership_reminder_days`` a reminder to renew, once for each membership period (a
    ``membership_reminded`` event names the end it was about), in its language, through the
    outbox. A household with no address is not reminded (the desk says it when it comes).
    Returns how many were reminded."""
    today = today or timezone.localdate()
    longest = max([30, *LoanRules.objects.values_list("membership_reminder_days", flat=True)])
    ending = list(Household.objects.filter(fee_paid=True, membership_ends__gte=today,
                                           membership_ends__lte=today + dt.timedelta(days=longest))
                  .select_related("organisation").order_by("pk"))
    reminded_for = selectors.latest_reminders([household.pk for household in ending])
    policies: dict[int | None, rules.Policy] = {}
    reminded = 0
    for household in ending:
        policy = policies.setdefault(household.organisation_id, LoanRules.current(household.organisation_id))
        if not rules.renewal_reminder_due(household.membership_ends, today, policy,
                                          reminded_for=reminded_for.get(household.pk)):
            continue
        addresses = selectors.household_addresses(household)
        if not addresses:
            continue
        from .services import household_language  # the desk's services import this module

        with translation.override(household_language(household)), transaction.atomic():
            event = append(household, Kind.MEMBERSHIP_REMINDED, {"ends": household.membership_ends.isoformat()},
                           None, happened_on=today)
            library = household.organisation.name if household.organisation else settings.LUDOLOG_LIBRARY_NAME
            subject = gettext("%(library)s: your membership ends on %(ends)s") % {
                "library": library, "ends": formats.date_format(household.membership_ends)}
            body = gettext("Hello %(household)s,\n\nyour membership of %(library)s ends on %(ends)s. Renew it at the "
                           "desk at your next visit to go on borrowing games.\n\n%(library)s") % {
                "household": household.name, "library": library,
                "ends": formats.date_format(household.membership_ends)}
            outbox.enqueue(MEMBERSHIP_RENEWAL_MAIL, addresses, subject, body,
                           language=translation.get_language() or "", about=event)
        reminded += 1
    return reminded


# -- tariffs -----------------------------------------------------------------------------------


def _save_tariff(tariff: Tariff) -> Tariff:
    checked(tariff, "invalid_tariff", exclude=["organisation"])
    if Tariff.objects.filter(organisation=tariff.organisation_id, name=tariff.name).exclude(pk=tariff.pk).exists():
        raise TariffNameTaken(f"another tariff is called {tariff.name!r}", name=tariff.name)
    try:
        with transaction.atomic():
            tariff.save()
    except IntegrityError as race:
        raise TariffNameTaken(f"another tariff is called {tariff.name!r}", name=tariff.name) from race
    return tariff


def _fill_tariff(tariff: Tariff, fields: Mapping[str, Any]) -> None:
    unknown = set(fields) - set(TARIFF_FIELDS)
    if unknown:
        raise TypeError(f"not a tariff's field: {', '.join(sorted(unknown))}")
    for name, value in fields.items():
        setattr(tariff, name, value.strip() if isinstance(value, str) else value)


def add_tariff(by: Any, organisation: Organisation, **fields: Any) -> Tariff:
    """A new tariff of ``organisation`` (``fields``: among :data:`TARIFF_FIELDS`)."""
    _may(by, Action.EDIT_TARIFFS, organisation)
    tariff = Tariff(organisation=organisation)
    _fill_tariff(tariff, fields)
    return _save_tariff(tariff)


def edit_tariff(by: Any, tariff: Tariff, **fields: Any) -> Tariff:
    """Change a tariff (its amount from now on: the memberships paid keep what they paid)."""
    _may(by, Action.EDIT_TARIFFS, tariff.organisation)
    tariff = Tariff.objects.get(pk=tariff.pk)
    _fill_tariff(tariff, fields)
    return _save_tariff(tariff)


def delete_tariff(by: Any, tariff: Tariff) -> None:
    """Delete a tariff no membership was paid under; one in use is refused (409
    ``tariff_in_use``): retire it instead (``edit_tariff(by, tariff, active=False)``)."""
    _may(by, Action.EDIT_TARIFFS, tariff.organisation)
    with transaction.atomic():
        if HouseholdEvent.objects.filter(tariff=tariff).exists():
            raise TariffInUse(f"memberships were paid under the tariff {tariff.name!r}: retire it instead",
                              tariff=tariff.pk)
        tariff.delete()
