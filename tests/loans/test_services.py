"""The desk's day through its services: loans up to the household's limit, renewals and holds,
returns with a piece count, the hold shelf and the household told."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from games.models import CatalogueRecord, Copy
from loans import services
from loans.errors import CopyChanged, LoanError, RuleRefused, UnknownComponent
from loans.models import Component, CopyEvent, CopyState, Hold, LoanRules, Notification
from loans.rules import EventType, Piece, Status

from tests.factories import TODAY, make_copies, make_household, the_library

pytestmark = pytest.mark.django_db


def refusal(call, *args, **kwargs) -> LoanError:
    with pytest.raises(LoanError) as refused:
        call(*args, **kwargs)
    return refused.value


def test_three_games_lent_and_the_fourth_refused_by_the_household_limit(copies, household, desk_user):
    for copy in copies[:3]:
        state = services.lend(copy, household, desk_user, today=TODAY)
        assert (state.status, state.household, state.due_on) == (Status.ON_LOAN, household.pk, dt.date(2026, 12, 26))
    refused = refusal(services.lend, copies[3], household, desk_user, today=TODAY)
    assert (refused.reason, refused.status_code) == ("loan_limit_reached", 422)
    assert CopyEvent.objects.filter(type="lent").count() == 3
    assert CopyState.objects.filter(household=household, status="on_loan").count() == 3


def test_a_copy_on_loan_is_not_lent_again(copies, household, other_household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    refused = refusal(services.lend, copies[0], other_household, desk_user, today=TODAY)
    assert (refused.reason, refused.status_code) == ("copy_not_available", 409)


def test_an_expired_membership_borrows_nothing(copies, desk_user):
    lapsed = make_household("Lapsed", membership_ends=dt.date(2026, 11, 30))
    assert refusal(services.lend, copies[0], lapsed, desk_user, today=TODAY).reason == "membership_expired"


def test_the_due_date_follows_the_library_rules(copies, household, desk_user):
    LoanRules.objects.create(loan_days=28, organisation=the_library())
    assert services.lend(copies[0], household, desk_user, today=TODAY).due_on == dt.date(2027, 1, 2)


def test_each_event_takes_the_next_position_in_the_copy_stream_with_who_and_when(copies, household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    services.renew(copies[0], desk_user, today=TODAY + dt.timedelta(days=10))
    services.return_copy(copies[0], desk_user, today=TODAY + dt.timedelta(days=20))
    events = list(CopyEvent.objects.filter(copy=copies[0]).order_by("seq"))
    assert [(e.seq, e.type) for e in events] == [(1, "lent"), (2, "renewed"), (3, "returned")]
    assert {e.recorded_by for e in events} == {desk_user}
    assert {e.household_id for e in events} == {household.pk}


def test_a_renewal_is_refused_once_another_household_has_reserved_the_game(record, household, other_household,
                                                                          desk_user):
    copy, = make_copies(record, 1)
    services.lend(copy, household, desk_user, today=TODAY)
    renewed = services.renew(copy, desk_user, today=TODAY + dt.timedelta(days=14))
    assert (renewed.renewals, renewed.due_on) == (1, dt.date(2027, 1, 9))

    copy2, = make_copies(record, 1, prefix="LUD-U")
    services.lend(copy2, household, desk_user, today=TODAY)
    hold = services.place_hold(record, other_household, today=TODAY)
    assert hold.status == Hold.Status.WAITING  # no copy on the shelves
    refused = refusal(services.renew, copy2, desk_user, today=TODAY)
    assert (refused.reason, refused.status_code) == ("renewal_refused_hold_waiting", 422)
    assert refusal(services.renew, copy, desk_user, today=TODAY).reason == "no_renewals_left"


def test_the_household_own_hold_does_not_block_its_renewal(record, household, desk_user):
    copy, = make_copies(record, 1)
    services.lend(copy, household, desk_user, today=TODAY)
    services.place_hold(record, household, today=TODAY)
    assert services.renew(copy, desk_user, today=TODAY).renewals == 1


def test_a_return_with_two_pieces_missing_flags_the_copy_for_a_check(copies, household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    result = services.return_copy(copies[0], desk_user, {"tuiles bonus": 11, "huttes en bois": 9, "tuiles paysage": 79},
                                  today=TODAY + dt.timedelta(days=7))
    assert result.state.status is Status.NEEDS_CHECK
    assert result.newly_missing == [Piece("tuiles bonus", 1), Piece("huttes en bois", 1)]
    state = CopyState.objects.get(copy=copies[0])
    assert state.missing == [{"kind": "tuiles bonus", "count": 1}, {"kind": "huttes en bois", "count": 1}]
    assert [e.type for e in CopyEvent.objects.filter(copy=copies[0]).order_by("seq")] == [
        "lent", "returned", "piece_missing", "piece_missing"]
    assert refusal(services.lend, copies[0], household, desk_user, today=TODAY).reason == "copy_not_available"
    assert services.check_copy(copies[0], desk_user, today=TODAY).status is Status.AVAILABLE


def test_known_missing_pieces_are_not_counted_missing_twice_and_found_ones_come_off(copies, household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    services.return_copy(copies[0], desk_user, {"tuiles bonus": 10}, today=TODAY)
    services.check_copy(copies[0], desk_user, today=TODAY)
    services.lend(copies[0], household, desk_user, today=TODAY)
    again = services.return_copy(copies[0], desk_user, {"tuiles bonus": 10}, today=TODAY)
    assert again.newly_missing == [] and again.state.status is Status.AVAILABLE
    services.lend(copies[0], household, desk_user, today=TODAY)
    found = services.return_copy(copies[0], desk_user, {"tuiles bonus": 11}, today=TODAY)
    assert found.state.missing == (Piece("tuiles bonus", 1),)


def test_a_count_of_a_piece_the_box_does_not_have_is_refused(copies, household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    refused = refusal(services.return_copy, copies[0], desk_user, {"meeples": 3})
    assert isinstance(refused, UnknownComponent) and refused.status_code == 400


def test_a_late_return_owes_the_late_fee(copies, household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    result = services.return_copy(copies[0], desk_user, today=TODAY + dt.timedelta(days=26))
    assert (result.days_late, result.late_fee) == (5, Decimal("1.00"))
    assert CopyEvent.objects.get(copy=copies[0], type="returned").payload == {
        "returned_on": "2026-12-31", "days_late": 5, "late_fee": "1.00"}


def test_a_returned_copy_with_holds_waiting_is_set_aside_for_the_first_household_which_is_told(
        record, household, other_household, desk_user):
    copy, = make_copies(record, 1)
    third = make_household("Bernard")
    services.lend(copy, household, desk_user, today=TODAY)
    first = services.place_hold(record, other_household, today=TODAY)
    services.place_hold(record, third, today=TODAY)
    result = services.return_copy(copy, desk_user, today=TODAY + dt.timedelta(days=3))
    assert result.state.status is Status.ON_HOLD_SHELF
    assert result.set_aside_for == other_household
    first.refresh_from_db()
    assert (first.status, first.copy) == (Hold.Status.READY, copy)
    told, = Notification.objects.filter(household=other_household)
    assert "Carcassonne à la prèhistoire" in told.text and copy.barcode in told.text
    assert not Notification.objects.filter(household=third).exists()
    # Set aside: nobody else borrows it, its household does.
    assert refusal(services.lend, copy, third, desk_user, today=TODAY).reason == "copy_not_available"
    lent = services.lend(copy, other_household, desk_user, today=TODAY + dt.timedelta(days=4))
    assert (lent.status, lent.household) == (Status.ON_LOAN, other_household.pk)
    first.refresh_from_db()
    assert first.status == Hold.Status.FULFILLED
    assert [e.type for e in CopyEvent.objects.filter(copy=copy).order_by("seq")] == [
        "lent", "returned", "held", "hold_fulfilled", "lent"]


def test_a_copy_returned_incomplete_waits_for_its_check_before_the_hold_shelf(record, household, other_household,
                                                                            desk_user):
    copy, = make_copies(record, 1)
    services.lend(copy, household, desk_user, today=TODAY)
    services.place_hold(record, other_household, today=TODAY)
    result = services.return_copy(copy, desk_user, {"tuiles bonus": 10}, today=TODAY)
    assert result.state.status is Status.NEEDS_CHECK and result.set_aside_for is None
    assert services.check_copy(copy, desk_user, today=TODAY).status is Status.ON_HOLD_SHELF


def test_a_hold_on_a_game_on_the_shelves_sets_a_copy_aside_at_once(copies, household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    other = make_household("Petit")
    hold = services.place_hold(copies[0].record, other, today=TODAY)
    assert (hold.status, hold.copy) == (Hold.Status.READY, copies[1])
    assert CopyState.objects.get(copy=copies[1]).status == "on_hold_shelf"


def test_a_household_waits_once_per_game(record, household, copies, desk_user):
    for copy in copies[:3]:
        services.lend(copy, make_household(copy.barcode), desk_user, today=TODAY)
    services.lend(copies[3], make_household("Last"), desk_user, today=TODAY)
    services.place_hold(record, household, today=TODAY)
    refused = refusal(services.place_hold, record, household, today=TODAY)
    assert (refused.reason, refused.status_code) == ("hold_already_placed", 409)


def test_a_cancelled_hold_passes_its_copy_to_the_next_household(record, household, other_household, desk_user):
    copy, = make_copies(record, 1)
    third = make_household("Bernard")
    services.lend(copy, household, desk_user, today=TODAY)
    first = services.place_hold(record, other_household, today=TODAY)
    services.place_hold(record, third, today=TODAY)
    services.return_copy(copy, desk_user, today=TODAY)
    services.cancel_hold(Hold.objects.get(pk=first.pk), desk_user, today=TODAY)
    state = CopyState.objects.get(copy=copy)
    assert (state.status, state.household_id) == ("on_hold_shelf", third.pk)
    assert Notification.objects.filter(household=third).count() == 1
    assert refusal(services.cancel_hold, first).reason == "no_hold_open"


def test_a_stale_projection_loses_the_race_as_copy_changed(copies, household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    services.return_copy(copies[0], desk_user, today=TODAY)
    # As if another desk's write had landed after this state was read: seq 2 is taken.
    CopyState.objects.filter(copy=copies[0]).update(last_seq=1)
    refused = refusal(services.lend, copies[0], household, desk_user, today=TODAY)
    assert isinstance(refused, CopyChanged) and refused.status_code == 409
    assert CopyEvent.objects.filter(copy=copies[0]).count() == 2


def test_rebuilding_the_states_from_the_events_gives_the_incremental_projection(record, household, other_household,
                                                                               copies, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    services.lend(copies[1], household, desk_user, today=TODAY)
    services.renew(copies[1], desk_user, today=TODAY)
    services.place_hold(record, other_household, today=TODAY)  # sets copies[2] aside
    services.return_copy(copies[0], desk_user, {"tuiles bonus": 10}, today=TODAY)
    # Checks asked for by games played with the copies: one out on loan (the mark kept), one on
    # the shelves (off them at once), the same game heard of twice (flagged once).
    services.request_check(copies[1], 501)
    services.request_check(copies[3], 502)
    services.request_check(copies[3], 502)
    fields = ["copy_id", "status", "household_id", "lent_on", "due_on", "renewals", "missing", "last_seq", "note",
              "check_wanted"]
    incremental = list(CopyState.objects.order_by("copy_id").values(*fields))
    assert [(row["status"], row["check_wanted"]) for row in incremental] == [
        ("needs_check", False), ("on_loan", True), ("on_hold_shelf", False), ("needs_check", True)]
    assert services.rebuild_copy_states() == 4
    assert list(CopyState.objects.order_by("copy_id").values(*fields)) == incremental
    assert CopyEvent.objects.filter(copy=copies[3], type="check_requested").count() == 1
    never_lent, = make_copies(record, 1, prefix="LUD-V")
    services.rebuild_copy_states()
    assert not CopyState.objects.filter(copy=never_lent).exists()


def test_components_are_read_from_the_record_contents_once(record, db):
    Component.objects.filter(record=record).delete()
    lines = services.fill_components(record)
    assert [(c.kind, c.count, c.per_colour) for c in lines][:5] == [
        ("tuiles paysage", 79, None), ("tuiles bonus", 12, None), ("tuiles de score", 5, None),
        ("piste de score", 1, None), ("hommes de Cro-Magnon", 30, 5)]
    assert len(services.fill_components(record)) == 8
    assert Component.objects.filter(record=record).count() == 8


def test_a_copy_without_events_is_available(record, db):
    copy = Copy.objects.create(organisation=the_library(), record=record, barcode="NEW-1")
    from loans.selectors import copy_state

    assert copy_state(copy).status is Status.AVAILABLE


def test_a_copy_sent_to_repair_comes_back_or_is_withdrawn(copies, household, desk_user):
    sent = services.move_copy(copies[0], EventType.SENT_TO_REPAIR, desk_user, note="box split")
    assert sent.status is Status.IN_REPAIR
    assert refusal(services.lend, copies[0], household, desk_user, today=TODAY).reason == "copy_not_available"
    assert services.move_copy(copies[0], EventType.BACK_FROM_REPAIR, desk_user).status is Status.AVAILABLE
    services.lend(copies[0], household, desk_user, today=TODAY)
    refused = refusal(services.move_copy, copies[0], EventType.WITHDRAWN, desk_user)
    assert (refused.reason, refused.status_code) == ("copy_not_available", 409)
    services.return_copy(copies[0], desk_user, today=TODAY)
    assert services.move_copy(copies[0], EventType.WITHDRAWN, desk_user).status is Status.WITHDRAWN


def test_found_pieces_leave_the_missing_list(copies, household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    services.return_copy(copies[0], desk_user, {"tuiles bonus": 9}, today=TODAY)
    assert services.piece_found(copies[0], "tuiles bonus", 2, desk_user).missing == (Piece("tuiles bonus", 1),)
    assert refusal(services.piece_found, copies[0], "tuiles bonus", 2, desk_user).reason == "unknown_component"


def test_a_hold_left_on_the_shelf_too_long_lapses_and_the_copy_goes_on(record, household, other_household,
                                                                    desk_user):
    copy, = make_copies(record, 1)
    third = make_household("Bernard")
    services.lend(copy, household, desk_user, today=TODAY)
    services.place_hold(record, other_household, today=TODAY)
    services.place_hold(record, third, today=TODAY)
    services.return_copy(copy, desk_user, today=TODAY)
    assert services.expire_holds(today=TODAY + dt.timedelta(days=7)) == 0
    assert services.expire_holds(today=TODAY + dt.timedelta(days=8)) == 1
    state = CopyState.objects.get(copy=copy)
    assert (state.status, state.household_id) == ("on_hold_shelf", third.pk)
    assert Hold.objects.get(household=other_household).status == Hold.Status.CANCELLED


def test_the_overdue_list(copies, household, other_household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    services.lend(copies[1], other_household, desk_user, today=TODAY + dt.timedelta(days=3))
    services.lend(copies[2], other_household, desk_user, today=TODAY + dt.timedelta(days=10))
    from loans.selectors import overdue_loans
    overdue = overdue_loans(TODAY + dt.timedelta(days=25))
    assert [row.copy for row in overdue] == [copies[0], copies[1]]


def test_the_management_commands_rebuild_states_and_fill_checklists(record, copies, household, desk_user):
    from io import StringIO

    from django.core.management import call_command

    services.lend(copies[0], household, desk_user, today=TODAY)
    CopyState.objects.filter(copy=copies[0]).update(status="available", household=None)
    out = StringIO()
    call_command("rebuild_copy_states", stdout=out)
    assert "1 copies" in out.getvalue()
    assert CopyState.objects.get(copy=copies[0]).status == "on_loan"
    Component.objects.all().delete()
    call_command("fill_components", str(record.pk), stdout=StringIO())
    assert Component.objects.filter(record=record).count() == 8


def test_records_catalogued_together_get_their_checklists_in_one_go(db):
    from loans.models import Component

    dixit = CatalogueRecord.objects.create(title="Dixit", contents="84 cartes, 1 règle, 1 règle")
    kept = CatalogueRecord.objects.create(title="Catane", contents="19 tuiles terrain")
    Component.objects.create(record=kept, kind="tuiles", count=19)
    empty = CatalogueRecord.objects.create(title="Sans contenu")
    assert services.fill_checklists([dixit.pk, kept.pk, empty.pk]) == 2
    assert list(Component.objects.filter(record=dixit).values_list("kind", "count", "position")) == [
        ("cartes", 84, 0), ("règle", 2, 1)]
    assert list(Component.objects.filter(record=kept).values_list("kind", flat=True)) == ["tuiles"]
    assert not Component.objects.filter(record=empty).exists()
    assert services.fill_checklists([dixit.pk]) == 0, "a checklist is read once"
