"""The lending rules, pure: hand-made states, households and events."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from loans.rules import (
    CopyEvent, CopyState, Household, Piece, Policy, Status, apply, can_lend, can_renew, differences, due_date,
    fold, late_fee, renewed_due_date,
)

JUNE = dt.date(2026, 6, 1)


def member(current_loans: int = 0, *, ends: dt.date | None = dt.date(2026, 12, 31), limit: int = 3) -> Household:
    return Household(id=1, membership_starts=dt.date(2026, 1, 1), membership_ends=ends, loan_limit=limit,
                     current_loans=current_loans)


def lent(seq: int = 1, household: int = 1) -> CopyEvent:
    return CopyEvent(seq, "lent", household, {"lent_on": "2026-06-01", "due_on": "2026-06-22"})


def test_a_member_in_good_standing_borrows_an_available_copy():
    assert can_lend(CopyState(), member(current_loans=2), JUNE) is None


def test_the_fourth_game_is_refused_by_the_household_limit():
    assert can_lend(CopyState(), member(current_loans=3), JUNE).reason == "loan_limit_reached"
    assert can_lend(CopyState(), member(current_loans=3, limit=4), JUNE) is None


def test_an_expired_or_missing_membership_is_refused():
    assert can_lend(CopyState(), member(ends=dt.date(2026, 5, 31)), JUNE).reason == "membership_expired"
    assert can_lend(CopyState(), member(ends=None), JUNE).reason == "membership_expired"
    early = Household(1, dt.date(2026, 7, 1), dt.date(2027, 6, 30), 3, 0)
    assert can_lend(CopyState(), early, JUNE).reason == "membership_not_started"


def test_a_copy_on_loan_in_repair_or_waiting_for_a_check_is_not_available():
    for status in (Status.ON_LOAN, Status.IN_REPAIR, Status.NEEDS_CHECK, Status.WITHDRAWN):
        assert can_lend(CopyState(status=status, household=2), member(), JUNE).reason == "copy_not_available"


def test_a_copy_on_the_hold_shelf_goes_to_its_household_only():
    shelf = CopyState(status=Status.ON_HOLD_SHELF, household=1)
    assert can_lend(shelf, member(), JUNE) is None
    assert can_lend(CopyState(status=Status.ON_HOLD_SHELF, household=2), member(), JUNE).reason == "copy_not_available"


def test_the_due_date_is_the_library_loan_period_after_the_loan():
    assert due_date(JUNE, Policy(loan_days=21)) == dt.date(2026, 6, 22)
    assert due_date(JUNE, Policy(loan_days=28)) == dt.date(2026, 6, 29)


def test_a_renewal_needs_renewals_left_and_nobody_waiting():
    on_loan = fold([lent()])
    assert can_renew(on_loan, Policy(), hold_waiting=False) is None
    assert can_renew(on_loan, Policy(), hold_waiting=True).reason == "renewal_refused_hold_waiting"
    renewed = apply(on_loan, CopyEvent(2, "renewed", 1, {"due_on": "2026-07-13"}))
    assert can_renew(renewed, Policy(renewals_allowed=1), hold_waiting=False).reason == "no_renewals_left"
    assert can_renew(renewed, Policy(renewals_allowed=2), hold_waiting=False) is None
    assert can_renew(CopyState(), Policy(), hold_waiting=False).reason == "not_on_loan"


def test_a_renewal_runs_a_full_period_from_today_and_never_shortens_a_loan():
    on_loan = fold([lent()])
    assert renewed_due_date(on_loan, dt.date(2026, 6, 20), Policy(loan_days=21)) == dt.date(2026, 7, 11)
    assert renewed_due_date(on_loan, dt.date(2026, 6, 2), Policy(loan_days=7)) == dt.date(2026, 6, 22)


def test_the_late_fee_is_days_late_times_the_rate():
    rate = Policy(late_fee_per_day=Decimal("0.20"))
    assert late_fee(dt.date(2026, 6, 22), dt.date(2026, 7, 2), rate) == Decimal("2.00")
    assert late_fee(dt.date(2026, 6, 22), dt.date(2026, 6, 22), rate) == Decimal("0.00")
    assert late_fee(None, dt.date(2026, 6, 22), rate) == Decimal("0.00")


def test_a_loan_and_its_return_fold_into_the_copy_state():
    state = fold([lent(), CopyEvent(2, "returned", 1, {"returned_on": "2026-06-20"})])
    assert state == CopyState(status=Status.AVAILABLE, last_seq=2)


def test_missing_pieces_add_up_by_kind_and_found_ones_leave_the_list():
    state = fold([
        lent(), CopyEvent(2, "returned", 1, {}),
        CopyEvent(3, "piece_missing", payload={"kind": "tuiles bonus", "count": 1}),
        CopyEvent(4, "piece_missing", payload={"kind": "tuiles bonus", "count": 1}),
        CopyEvent(5, "piece_missing", payload={"kind": "huttes", "count": 1}),
    ])
    assert state.status is Status.NEEDS_CHECK
    assert state.missing == (Piece("tuiles bonus", 2), Piece("huttes", 1))
    found = apply(state, CopyEvent(6, "piece_found", payload={"kind": "huttes", "count": 1}))
    assert found.missing == (Piece("tuiles bonus", 2),)
    checked = apply(found, CopyEvent(7, "checked"))
    assert checked.status is Status.AVAILABLE and checked.missing == (Piece("tuiles bonus", 2),)


def test_the_hold_shelf_repair_and_withdrawal():
    held = fold([CopyEvent(1, "held", 4)])
    assert (held.status, held.household) == (Status.ON_HOLD_SHELF, 4)
    assert fold([CopyEvent(2, "hold_cancelled", 4)], held) == CopyState(last_seq=2)
    fulfilled = fold([CopyEvent(2, "hold_fulfilled", 4), lent(3, household=4)], held)
    assert (fulfilled.status, fulfilled.household) == (Status.ON_LOAN, 4)
    assert fold([CopyEvent(1, "sent_to_repair")]).status is Status.IN_REPAIR
    assert fold([CopyEvent(1, "sent_to_repair"), CopyEvent(2, "back_from_repair")]).status is Status.AVAILABLE
    assert fold([CopyEvent(1, "withdrawn")]).status is Status.WITHDRAWN


def test_a_return_lists_only_what_is_short_of_the_checklist():
    checklist = [Piece("tuiles paysage", 79), Piece("tuiles bonus", 12), Piece("huttes", 10)]
    assert differences(checklist, {}) == []
    assert differences(checklist, {"tuiles paysage": 77, "huttes": 10}) == [Piece("tuiles paysage", 2)]


def check_requested(seq: int, record: int = 41) -> CopyEvent:
    return CopyEvent(seq, "check_requested", payload={"record": record, "reason": "game_ended_short_of_tiles"})


def test_a_check_asked_for_a_copy_on_the_shelves_takes_it_off_them_at_once():
    state = fold([check_requested(1)])
    assert (state.status, state.check_wanted) == (Status.NEEDS_CHECK, True)
    assert can_lend(state, member(), JUNE).reason == "copy_not_available"
    checked = apply(state, CopyEvent(2, "checked"))
    assert checked == CopyState(status=Status.AVAILABLE, last_seq=2)


def test_a_copy_out_on_loan_keeps_the_mark_and_its_complete_return_waits_for_the_check():
    out = fold([lent(), check_requested(2)])
    assert (out.status, out.household, out.check_wanted) == (Status.ON_LOAN, 1, True)
    back = apply(out, CopyEvent(3, "returned", 1, {"returned_on": "2026-06-20"}))
    assert (back.status, back.household, back.check_wanted) == (Status.NEEDS_CHECK, None, True)
    assert apply(back, CopyEvent(4, "checked")) == CopyState(status=Status.AVAILABLE, last_seq=4)


def test_a_copy_set_aside_stays_for_its_household_and_in_repair_stays_in_repair_until_back():
    held = fold([CopyEvent(1, "held", 4), check_requested(2)])
    assert (held.status, held.household, held.check_wanted) == (Status.ON_HOLD_SHELF, 4, True)
    assert can_lend(held, Household(4, dt.date(2026, 1, 1), dt.date(2026, 12, 31), 3, 0), JUNE) is None
    assert fold([CopyEvent(3, "hold_cancelled", 4)], held).status is Status.NEEDS_CHECK
    lent_to_it = fold([CopyEvent(3, "hold_fulfilled", 4), lent(4, household=4),
                       CopyEvent(5, "returned", 4, {"returned_on": "2026-06-20"})], held)
    assert lent_to_it.status is Status.NEEDS_CHECK
    away = fold([CopyEvent(1, "sent_to_repair"), check_requested(2)])
    assert (away.status, away.check_wanted) == (Status.IN_REPAIR, True)
    assert apply(away, CopyEvent(3, "back_from_repair")).status is Status.NEEDS_CHECK


def test_without_a_check_asked_for_a_complete_return_goes_back_on_the_shelves():
    assert fold([lent(), CopyEvent(2, "returned", 1, {})]).check_wanted is False
    assert fold([lent(), CopyEvent(2, "returned", 1, {})]).status is Status.AVAILABLE
