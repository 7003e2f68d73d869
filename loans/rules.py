"""The lending desk's rules as pure functions over plain values: no Django, no app.

A copy's state is a fold of its events (:func:`apply`); what the desk may do next is decided
from that state, the household and the library's policy (:func:`can_lend`, :func:`can_renew`).
A refusal is a value with a machine-readable reason, which the services raise and the API
answers with, so a page, a script and a test all see the same word.

>>> state = fold([
...     CopyEvent(1, "lent", household=7, payload={"lent_on": "2026-12-01", "due_on": "2026-12-22"}),
...     CopyEvent(2, "returned", household=7, payload={"returned_on": "2026-12-20"}),
...     CopyEvent(3, "piece_missing", payload={"kind": "tuiles bonus", "count": 2}),
... ])
>>> state.status.value, state.household, state.missing
('needs_check', None, (Piece(kind='tuiles bonus', count=2),))

A game played with the copy that ended short of its tiles asks for a check (``check_requested``):
a copy on the shelves waits for it at once; a copy that is out keeps the mark, and waits for its
check when it comes back, even with every piece counted. Only the librarian's ``checked`` clears it.

>>> out = fold([CopyEvent(1, "lent", household=7, payload={"lent_on": "2026-12-01", "due_on": "2026-12-22"}),
...             CopyEvent(2, "check_requested", payload={"record": 41, "reason": "game_ended_short_of_tiles"})])
>>> out.status.value, out.check_wanted
('on_loan', True)
>>> back = apply(out, CopyEvent(3, "returned", household=7, payload={"returned_on": "2026-12-20"}))
>>> back.status.value, back.check_wanted
('needs_check', True)
>>> checked = apply(back, CopyEvent(4, "checked"))
>>> checked.status.value, checked.check_wanted
('available', False)
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any

from dateutil.relativedelta import relativedelta


class Status(StrEnum):
    AVAILABLE = "available"
    ON_LOAN = "on_loan"
    ON_HOLD_SHELF = "on_hold_shelf"
    IN_REPAIR = "in_repair"
    WITHDRAWN = "withdrawn"
    NEEDS_CHECK = "needs_check"


class EventType(StrEnum):
    LENT = "lent"
    RETURNED = "returned"
    RENEWED = "renewed"
    HELD = "held"
    HOLD_FULFILLED = "hold_fulfilled"
    HOLD_CANCELLED = "hold_cancelled"
    CHECKED = "checked"
    PIECE_MISSING = "piece_missing"
    PIECE_FOUND = "piece_found"
    SENT_TO_REPAIR = "sent_to_repair"
    BACK_FROM_REPAIR = "back_from_repair"
    WITHDRAWN = "withdrawn"
    NOTED = "noted"
    CHECK_REQUESTED = "check_requested"


CHECK_REASON_SHORT_OF_TILES = "game_ended_short_of_tiles"
"""Why a ``check_requested`` was appended: a game played with the copy ended for a missing tile."""


@dataclass(frozen=True)
class Piece:
    """So many of one kind of component: missing from a copy, or counted at a return."""

    kind: str
    count: int


@dataclass(frozen=True)
class CopyEvent:
    """One stored event of a copy, as the fold reads it."""

    seq: int
    type: str
    household: int | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CopyState:
    """Where a copy stands after its events. ``household`` is the borrower while the copy is on
    loan, and the household it is set aside for while it waits on the hold shelf."""

    status: Status = Status.AVAILABLE
    household: int | None = None
    lent_on: dt.date | None = None
    due_on: dt.date | None = None
    renewals: int = 0
    missing: tuple[Piece, ...] = ()
    last_seq: int = 0
    note: str = ""
    """The latest words noted on the copy (its free-text note, kept until another replaces it)."""
    check_wanted: bool = False
    """A check was asked for (``check_requested``) and no librarian has checked the copy since:
    wherever the copy comes back to the shelves from, it waits for its check."""


@dataclass(frozen=True)
class Policy:
    """The library's lending rules (``LoanRules`` in the database)."""

    loan_days: int = 21
    renewals_allowed: int = 1
    late_fee_per_day: Decimal = Decimal("0.20")
    hold_days: int = 7
    reminder_days: int = 7
    refuse_overdue: bool = True
    """A household with a game past its due date borrows nothing more until it is back."""
    refuse_fees_over: Decimal = Decimal("0.00")
    """A household owing more late fees than this borrows nothing more until it pays."""
    refuse_unpaid_membership: bool = True
    """A household whose membership is recorded but not paid borrows nothing."""
    membership_reminder_days: int = 30
    """A household is reminded to renew so many days before its membership ends (0: never)."""


@dataclass(frozen=True)
class OverdueGame:
    """A game a household has out past its due date, as a refusal names it."""

    title: str
    copy: str
    days: int


@dataclass(frozen=True)
class Household:
    """What the rules need of a household: its membership, how many games it has out, which of
    them are overdue and what it owes (the last three default to a household in good standing)."""

    id: int
    membership_starts: dt.date | None
    membership_ends: dt.date | None
    loan_limit: int
    current_loans: int
    fee_paid: bool = True
    overdue: tuple[OverdueGame, ...] = ()
    fees_owed: Decimal = Decimal("0.00")


@dataclass(frozen=True)
class Refusal:
    """Why the desk may not do something: ``reason`` for programs, ``message`` for people, and
    ``details``, what the words in the reader's language name (the games overdue, the amount)."""

    reason: str
    message: str
    details: Mapping[str, Any] = field(default_factory=dict)


def _date(value: Any) -> dt.date | None:
    return None if value in (None, "") else dt.date.fromisoformat(str(value))


def _with_missing(missing: tuple[Piece, ...], kind: str, change: int) -> tuple[Piece, ...]:
    """``missing`` with ``change`` more (or fewer) of ``kind``; a kind at zero leaves the list."""
    counts = {piece.kind: piece.count for piece in missing}
    counts[kind] = max(0, counts.get(kind, 0) + change)
    return tuple(Piece(k, n) for k, n in counts.items() if n > 0)


def apply(state: CopyState, event: CopyEvent) -> CopyState:
    """The copy's state after ``event``. Events are facts already accepted by the services: the
    fold never refuses one, so any stored history replays.

    >>> lent = apply(CopyState(), CopyEvent(1, "lent", 3, {"lent_on": "2026-12-01", "due_on": "2026-12-22"}))
    >>> lent.status.value, lent.household, lent.due_on
    ('on_loan', 3, datetime.date(2026, 12, 22))
    >>> apply(lent, CopyEvent(2, "renewed", 3, {"due_on": "2027-01-12"})).renewals
    1
    """
    kind = EventType(event.type)
    state = replace(state, last_seq=event.seq)
    payload = event.payload
    # Back on the shelves from a loan, the hold shelf or repair: a copy asked to be checked waits for it.
    back_on_shelves = Status.NEEDS_CHECK if state.check_wanted else Status.AVAILABLE
    if kind is EventType.LENT:
        return replace(state, status=Status.ON_LOAN, household=event.household, lent_on=_date(payload["lent_on"]),
                       due_on=_date(payload["due_on"]), renewals=0)
    if kind is EventType.RENEWED:
        return replace(state, due_on=_date(payload["due_on"]), renewals=state.renewals + 1)
    if kind is EventType.RETURNED:
        return replace(state, status=back_on_shelves, household=None, lent_on=None, due_on=None, renewals=0)
    if kind is EventType.HELD:
        return replace(state, status=Status.ON_HOLD_SHELF, household=event.household)
    if kind is EventType.HOLD_FULFILLED:
        # Off the hold shelf to its household: a "lent" event follows.
        return replace(state, status=Status.AVAILABLE, household=None)
    if kind is EventType.HOLD_CANCELLED:
        return replace(state, status=back_on_shelves, household=None)
    if kind is EventType.PIECE_MISSING:
        missing = _with_missing(state.missing, payload["kind"], int(payload["count"]))
        # Noted while the copy is out or away, it changes what is known, not where the copy is.
        status = Status.NEEDS_CHECK if state.status in (Status.AVAILABLE, Status.NEEDS_CHECK) else state.status
        return replace(state, missing=missing, status=status)
    if kind is EventType.PIECE_FOUND:
        return replace(state, missing=_with_missing(state.missing, payload["kind"], -int(payload["count"])))
    if kind is EventType.CHECKED:
        # A librarian looked at the copy: lendable again, its known missing pieces still listed.
        status = Status.AVAILABLE if state.status is Status.NEEDS_CHECK else state.status
        return replace(state, status=status, check_wanted=False)
    if kind is EventType.NOTED:
        # Words for the copy's history (what the old free-text note said, a torn box corner…);
        # ``needs_check`` sends a copy on the shelves to be looked at before its next loan.
        state = replace(state, note=str(payload.get("note", "")))
        if payload.get("needs_check") and state.status is Status.AVAILABLE:
            return replace(state, status=Status.NEEDS_CHECK)
        return state
    if kind is EventType.CHECK_REQUESTED:
        # On the shelves it waits for the check now; out, set aside for a household or away, it
        # keeps the mark until it comes back (the household waiting keeps its place).
        status = Status.NEEDS_CHECK if state.status in (Status.AVAILABLE, Status.NEEDS_CHECK) else state.status
        return replace(state, status=status, check_wanted=True)
    if kind is EventType.SENT_TO_REPAIR:
        return replace(state, status=Status.IN_REPAIR)
    if kind is EventType.BACK_FROM_REPAIR:
        return replace(state, status=back_on_shelves)
    return replace(state, status=Status.WITHDRAWN, household=None, lent_on=None, due_on=None)


def fold(events: Iterable[CopyEvent], state: CopyState | None = None) -> CopyState:
    """The state after ``events`` in order, from ``state`` (a new copy by default)."""
    state = state or CopyState()
    for event in events:
        state = apply(state, event)
    return state


def membership_refusal(household: Household, today: dt.date, policy: Policy | None = None) -> Refusal | None:
    """Why the household's membership does not let it borrow or reserve today (``None``: it does).
    A lapsed membership says so before an unpaid one: the desk renews it, which pays it.

    >>> unpaid = Household(1, dt.date(2026, 1, 1), dt.date(2026, 12, 31), 3, 0, fee_paid=False)
    >>> membership_refusal(unpaid, dt.date(2026, 6, 1)).reason
    'membership_unpaid'
    >>> membership_refusal(unpaid, dt.date(2027, 1, 2)).reason
    'membership_expired'
    >>> membership_refusal(unpaid, dt.date(2026, 6, 1), Policy(refuse_unpaid_membership=False)) is None
    True
    """
    policy = policy or Policy()
    if household.membership_starts is not None and today < household.membership_starts:
        return Refusal("membership_not_started", f"the membership starts on {household.membership_starts}",
                       {"starts": household.membership_starts.isoformat()})
    if household.membership_ends is None or today > household.membership_ends:
        ended = household.membership_ends.isoformat() if household.membership_ends else None
        return Refusal("membership_expired", f"the membership ended on {household.membership_ends}", {"ended": ended})
    if policy.refuse_unpaid_membership and not household.fee_paid:
        return Refusal("membership_unpaid", "the membership is recorded but its fee is not paid")
    return None


def copy_refusal(state: CopyState, household_id: int) -> Refusal | None:
    """Why the copy cannot go to the household whatever its rights (no override lifts these)."""
    if state.status is Status.ON_HOLD_SHELF and state.household != household_id:
        return Refusal("copy_not_available", "the copy is set aside for another household's hold")
    if state.status not in (Status.AVAILABLE, Status.ON_HOLD_SHELF):
        return Refusal("copy_not_available", f"the copy is not available ({state.status.value})")
    return None


STANDING_REASONS = frozenset({"membership_not_started", "membership_expired", "membership_unpaid", "games_overdue",
                              "late_fees_unpaid", "loan_limit_reached"})
"""The refusals about the household, not the copy: those a librarian may override."""


def standing_refusals(household: Household, today: dt.date, policy: Policy | None = None) -> list[Refusal]:
    """Every reason the household may not borrow today, whatever the copy, first the one said
    first: its membership, games overdue, late fees unpaid, its loan limit. A librarian may
    override these (noted with who and why).

    >>> late = Household(1, dt.date(2026, 1, 1), dt.date(2026, 12, 31), 3, 3,
    ...                  overdue=(OverdueGame("Azul", "LUD-1", 9),), fees_owed=Decimal("1.80"))
    >>> [refusal.reason for refusal in standing_refusals(late, dt.date(2026, 6, 1))]
    ['games_overdue', 'late_fees_unpaid', 'loan_limit_reached']
    >>> [r.reason for r in standing_refusals(late, dt.date(2026, 6, 1), Policy(refuse_overdue=False,
    ...                                                                      refuse_fees_over=Decimal("2")))]
    ['loan_limit_reached']
    """
    policy = policy or Policy()
    found = []
    membership = membership_refusal(household, today, policy)
    if membership is not None:
        found.append(membership)
    if policy.refuse_overdue and household.overdue:
        games = ", ".join(f"{game.title} ({game.days} days late)" for game in household.overdue)
        found.append(Refusal("games_overdue", f"the household has games overdue: {games}", {"overdue": [
            {"title": game.title, "copy": game.copy, "days": game.days} for game in household.overdue]}))
    if household.fees_owed > policy.refuse_fees_over:
        found.append(Refusal("late_fees_unpaid", f"the household owes {household.fees_owed} in late fees",
                             {"owed": str(household.fees_owed), "allowed": str(policy.refuse_fees_over)}))
    if household.current_loans >= household.loan_limit:
        found.append(Refusal("loan_limit_reached", f"the household already has {household.current_loans} of its "
                                                   f"{household.loan_limit} games",
                             {"current_loans": household.current_loans, "loan_limit": household.loan_limit}))
    return found


def can_lend(state: CopyState, household: Household, today: dt.date, policy: Policy | None = None) -> Refusal | None:
    """``None`` when the copy may be lent to ``household`` today, else the first reason why not:
    its membership, then the copy, then the household's other refusals.

    >>> member = Household(1, dt.date(2026, 1, 1), dt.date(2026, 12, 31), loan_limit=3, current_loans=3)
    >>> can_lend(CopyState(), member, dt.date(2026, 6, 1)).reason
    'loan_limit_reached'
    >>> late = replace(member, current_loans=1, overdue=(OverdueGame("Azul", "LUD-1", 9),))
    >>> can_lend(CopyState(), late, dt.date(2026, 6, 1)).message
    'the household has games overdue: Azul (9 days late)'
    """
    membership = membership_refusal(household, today, policy)
    if membership is not None:
        return membership
    copy = copy_refusal(state, household.id)
    if copy is not None:
        return copy
    standing = standing_refusals(household, today, policy)
    return standing[0] if standing else None


def due_date(lent_on: dt.date, policy: Policy) -> dt.date:
    """The day a loan made on ``lent_on`` is due back.

    >>> due_date(dt.date(2026, 12, 1), Policy(loan_days=21))
    datetime.date(2026, 12, 22)
    """
    return lent_on + dt.timedelta(days=policy.loan_days)


def can_renew(state: CopyState, policy: Policy, *, hold_waiting: bool) -> Refusal | None:
    """``None`` when the loan may be renewed; ``hold_waiting``: another household waits for the game.

    >>> on_loan = CopyState(status=Status.ON_LOAN, household=1, due_on=dt.date(2026, 12, 22))
    >>> can_renew(on_loan, Policy(), hold_waiting=True).reason
    'renewal_refused_hold_waiting'
    >>> can_renew(replace(on_loan, renewals=1), Policy(renewals_allowed=1), hold_waiting=False).reason
    'no_renewals_left'
    """
    if state.status is not Status.ON_LOAN:
        return Refusal("not_on_loan", "the copy is not on loan")
    if state.renewals >= policy.renewals_allowed:
        return Refusal("no_renewals_left", f"the loan was already renewed {state.renewals} time(s)")
    if hold_waiting:
        return Refusal("renewal_refused_hold_waiting", "another household has reserved this game")
    return None


def renewed_due_date(state: CopyState, today: dt.date, policy: Policy) -> dt.date:
    """A renewal runs a full loan period from today, never shortening the loan."""
    return max(state.due_on or today, due_date(today, policy))


def reminder_due(last_reminded: dt.date | None, today: dt.date, policy: Policy) -> bool:
    """Whether a household with games overdue is reminded today: never yet, or the library's
    ``reminder_days`` gone by since the last reminder (0: the library sends none).

    >>> reminder_due(None, dt.date(2026, 12, 6), Policy(reminder_days=7))
    True
    >>> reminder_due(dt.date(2026, 12, 1), dt.date(2026, 12, 6), Policy(reminder_days=7))
    False
    >>> reminder_due(dt.date(2026, 11, 29), dt.date(2026, 12, 6), Policy(reminder_days=7))
    True
    >>> reminder_due(None, dt.date(2026, 12, 6), Policy(reminder_days=0))
    False
    """
    if policy.reminder_days == 0:
        return False
    return last_reminded is None or (today - last_reminded).days >= policy.reminder_days


def days_late(due_on: dt.date | None, returned_on: dt.date) -> int:
    return 0 if due_on is None else max(0, (returned_on - due_on).days)


def late_fee(due_on: dt.date | None, returned_on: dt.date, policy: Policy) -> Decimal:
    """Days late × the library's rate.

    >>> late_fee(dt.date(2026, 12, 22), dt.date(2026, 12, 27), Policy(late_fee_per_day=Decimal("0.20")))
    Decimal('1.00')
    >>> late_fee(dt.date(2026, 12, 22), dt.date(2026, 12, 20), Policy())
    Decimal('0.00')
    """
    return (days_late(due_on, returned_on) * policy.late_fee_per_day).quantize(Decimal("0.01"))


def differences(checklist: Iterable[Piece], counted: Mapping[str, int]) -> list[Piece]:
    """What is short at a return: each kind of the checklist counted below its count (a kind
    not counted was all there: the desk types only what differs).

    >>> differences([Piece("tuiles paysage", 79), Piece("huttes", 10)], {"huttes": 8})
    [Piece(kind='huttes', count=2)]
    """
    return [Piece(piece.kind, piece.count - counted[piece.kind]) for piece in checklist
            if piece.kind in counted and counted[piece.kind] < piece.count]


def catalogued_events(status: str, note: str) -> list[tuple[EventType, dict[str, Any]]]:
    """The events that tell what a copy's catalogue entry said of it before the desk kept its
    history (``Copy.status`` and the free-text note on missing pieces, as catalogued or imported):
    the note becomes history, a copy marked as missing parts waits for a check, one marked on
    loan is out with no known borrower or due date (taken back at the desk like any loan), one
    marked withdrawn is withdrawn.

    >>> [(kind.value, payload) for kind, payload in catalogued_events("missing_parts", "1 green disc missing")]
    [('noted', {'note': '1 green disc missing', 'needs_check': True})]
    >>> [kind.value for kind, _ in catalogued_events("on_loan", "")]
    ['lent']
    >>> catalogued_events("available", "")
    []
    """
    events: list[tuple[EventType, dict[str, Any]]] = []
    note = note.strip()
    if note or status == "missing_parts":
        events.append((EventType.NOTED, {"note": note or "catalogued as missing parts",
                                         "needs_check": status == "missing_parts"}))
    if status == "on_loan":
        events.append((EventType.LENT, {"lent_on": None, "due_on": None, "catalogued": True}))
    elif status == "withdrawn":
        events.append((EventType.WITHDRAWN, {"catalogued": True}))
    return events


CATALOGUE_STATUS = {
    Status.AVAILABLE: "available", Status.ON_LOAN: "on_loan", Status.ON_HOLD_SHELF: "on_loan",
    Status.NEEDS_CHECK: "missing_parts", Status.IN_REPAIR: "missing_parts", Status.WITHDRAWN: "withdrawn",
}
"""What the catalogue's copy status (``games.Copy.status``, which the catalogue layer reads: the
search's "available" counts, the exports) says for each of the desk's states: a copy set aside for
a household is not on the shelves; one waiting for a check or in repair is kept off them."""


def catalogue_words(state: CopyState) -> str:
    """The catalogue's note on a copy's missing pieces, from its state: the pieces known missing,
    then the latest note.

    >>> catalogue_words(CopyState(missing=(Piece("tuiles bonus", 2), Piece("huttes", 1))))
    '2 × tuiles bonus, 1 × huttes'
    >>> catalogue_words(CopyState(missing=(Piece("huttes", 1),), note="box corner torn"))
    '1 × huttes; box corner torn'
    """
    missing = ", ".join(f"{piece.count} × {piece.kind}" for piece in state.missing)
    return "; ".join(words for words in (missing, state.note) if words)


# -- memberships: their periods, amounts and towns, and their events folded ---------------------


class HouseholdEventType(StrEnum):
    MEMBERSHIP_PAID = "membership_paid"
    MEMBERSHIP_CANCELLED = "membership_cancelled"
    DEPOSIT_TAKEN = "deposit_taken"
    DEPOSIT_RETURNED = "deposit_returned"
    LATE_FEE_PAID = "late_fee_paid"
    LATE_FEE_WAIVED = "late_fee_waived"
    LENDING_OVERRIDE = "lending_override"
    MEMBERSHIP_REMINDED = "membership_reminded"


@dataclass(frozen=True)
class Membership:
    """What a household's events say of its membership and deposit (``Household``'s columns)."""

    starts: dt.date | None = None
    ends: dt.date | None = None
    fee_paid: bool = False
    deposit_held: Decimal = Decimal("0.00")


def apply_household_event(membership: Membership, type: str, payload: Mapping[str, Any]) -> Membership:
    """The membership after one of the household's events; the events that move no money of the
    membership or the deposit (late fees, overrides, reminders) leave it as it was. A cancelled
    membership ends the day before it was cancelled; one cancelled before it started never ran.

    >>> paid = apply_household_event(Membership(), "membership_paid",
    ...                              {"starts": "2026-01-01", "ends": "2026-12-31", "amount": "15.00"})
    >>> paid.fee_paid, paid.ends
    (True, datetime.date(2026, 12, 31))
    >>> renewed = apply_household_event(paid, "membership_paid", {"starts": "2027-01-01", "ends": "2027-12-31"})
    >>> renewed.starts, renewed.ends
    (datetime.date(2026, 1, 1), datetime.date(2027, 12, 31))
    >>> apply_household_event(paid, "deposit_taken", {"amount": "50.00"}).deposit_held
    Decimal('50.00')
    >>> cancelled = apply_household_event(paid, "membership_cancelled", {"ends": "2026-03-14"})
    >>> cancelled.fee_paid, cancelled.ends
    (False, datetime.date(2026, 3, 14))
    """
    kind = HouseholdEventType(type)
    if kind is HouseholdEventType.MEMBERSHIP_PAID:
        starts, ends = _date(payload["starts"]), _date(payload["ends"])
        running = membership.fee_paid and membership.starts is not None and membership.ends is not None
        if running and starts is not None and membership.starts <= starts <= membership.ends + dt.timedelta(days=1):
            # Renewed before it ended: one membership, from its first day to the new end.
            starts = membership.starts
        return replace(membership, starts=starts, ends=ends, fee_paid=True)
    if kind is HouseholdEventType.MEMBERSHIP_CANCELLED:
        ends = _date(payload["ends"])
        if membership.starts is not None and ends is not None and ends < membership.starts:
            return replace(membership, starts=None, ends=None, fee_paid=False)
        return replace(membership, ends=ends, fee_paid=False)
    if kind is HouseholdEventType.DEPOSIT_TAKEN:
        return replace(membership, deposit_held=membership.deposit_held + Decimal(str(payload["amount"])))
    if kind is HouseholdEventType.DEPOSIT_RETURNED:
        return replace(membership, deposit_held=membership.deposit_held - Decimal(str(payload["amount"])))
    return membership


def membership_period(today: dt.date, months: int, *, current_ends: dt.date | None = None,
                      paid: bool = True) -> tuple[dt.date, dt.date]:
    """The first and last day of a membership taken ``today`` for ``months``: it starts today, or
    the day after a paid membership still running ends (a renewal loses no day); it ends the day
    before the same date ``months`` later (where a shorter month has no such date, the day before
    its last day: the desk may change the dates it is offered).

    >>> membership_period(dt.date(2026, 3, 10), 12)
    (datetime.date(2026, 3, 10), datetime.date(2027, 3, 9))
    >>> membership_period(dt.date(2026, 12, 5), 12, current_ends=dt.date(2026, 12, 31))
    (datetime.date(2027, 1, 1), datetime.date(2027, 12, 31))
    >>> membership_period(dt.date(2026, 12, 5), 12, current_ends=dt.date(2026, 12, 31), paid=False)[0]
    datetime.date(2026, 12, 5)
    >>> membership_period(dt.date(2026, 1, 31), 1)
    (datetime.date(2026, 1, 31), datetime.date(2026, 2, 27))
    """
    starts = current_ends + dt.timedelta(days=1) if paid and current_ends is not None and current_ends >= today else today
    return starts, starts + relativedelta(months=months) - dt.timedelta(days=1)


def tariff_amount(amount: Decimal, per_person: bool, persons: int) -> Decimal:
    """What a tariff asks of a household: its amount, once or for each of ``persons`` (one at least).

    >>> tariff_amount(Decimal("8.00"), True, 4), tariff_amount(Decimal("15.00"), False, 4)
    (Decimal('32.00'), Decimal('15.00'))
    """
    return (amount * max(1, persons) if per_person else amount).quantize(Decimal("0.01"))


def town_key(town: str) -> str:
    """A town as compared: whatever its case, accents, hyphens and spaces ("" for none).

    >>> town_key(" Saint-Étienne ") == town_key("saint etienne")
    True
    """
    bare = "".join(c for c in unicodedata.normalize("NFKD", town) if not unicodedata.combining(c))
    return " ".join(bare.casefold().replace("-", " ").replace("'", " ").split())


def is_resident(town: str, library_town: str) -> bool | None:
    """Whether a household of ``town`` lives in the library's town; ``None`` when either is unknown.

    >>> is_resident("BOULOGNE-SUR-MER", "Boulogne sur Mer"), is_resident("Wimereux", "Boulogne-sur-Mer")
    (True, False)
    >>> is_resident("", "Boulogne-sur-Mer") is None
    True
    """
    if not town_key(town) or not town_key(library_town):
        return None
    return town_key(town) == town_key(library_town)


def renewal_reminder_due(ends: dt.date | None, today: dt.date, policy: Policy, *, reminded_for: dt.date | None) -> bool:
    """Whether a household whose paid membership ends on ``ends`` is reminded today to renew it:
    it ends within the library's ``membership_reminder_days`` (and has not ended), and it was not
    reminded already for this end (``reminded_for``: the end named by its latest reminder).

    >>> policy = Policy(membership_reminder_days=30)
    >>> renewal_reminder_due(dt.date(2026, 12, 31), dt.date(2026, 12, 5), policy, reminded_for=None)
    True
    >>> renewal_reminder_due(dt.date(2026, 12, 31), dt.date(2026, 12, 6), policy, reminded_for=dt.date(2026, 12, 31))
    False
    >>> renewal_reminder_due(dt.date(2027, 3, 1), dt.date(2026, 12, 5), policy, reminded_for=None)
    False
    """
    if ends is None or policy.membership_reminder_days == 0 or ends < today:
        return False
    return (ends - today).days <= policy.membership_reminder_days and reminded_for != ends
