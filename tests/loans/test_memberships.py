"""Memberships, deposits and late fees at the desk, as household events (issue 39): the
household's columns follow the events, a renewal loses no day, more than owed or held is refused,
a tariff in use is kept, and the events are append-only whatever client writes."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, transaction

from accounts.roles import Role
from loans import memberships, services
from loans.errors import (
    InvalidFields, MayNotEditTariffs, MayNotTakePayments, MoreThanHeld, MoreThanOwed, OverrideNeedsAReason,
    OverrideNotAllowed, TariffInUse,
)
from loans.immutability import HOUSEHOLD_TRIGGERS
from loans.models import Household, HouseholdEvent, ImmutableHouseholdEventError, LoanRules, Member, Tariff
from tests.factories import give_role, make_household, the_library

TODAY = dt.date(2026, 12, 5)

pytestmark = pytest.mark.usefixtures("in_english")


@pytest.fixture
def librarian(django_user_model):
    return give_role(django_user_model.objects.create_user("libby"), Role.LIBRARIAN)


@pytest.fixture
def tariffs(db) -> dict[str, Tariff]:
    library = the_library()
    return {tariff.kind: tariff for tariff in Tariff.objects.bulk_create([
        Tariff(organisation=library, name="Adhésion commune", kind="resident", amount=Decimal("15.00"),
               deposit=Decimal("50.00")),
        Tariff(organisation=library, name="Hors commune", kind="non_resident", amount=Decimal("8.00"), per="person"),
    ])}


@pytest.fixture
def newcomer(db) -> Household:
    """A household registered without a membership yet, of two members."""
    household = make_household("Nguyen", membership_starts=None, membership_ends=None, fee_paid=False)
    Member.objects.bulk_create([Member(household=household, display_name=name) for name in ("Minh", "Lan")])
    return household


def late_return(household: Household, record, desk_user, *, days: int) -> Decimal:
    """A copy of ``record`` lent to ``household`` and taken back ``days`` days late."""
    from tests.factories import make_copies

    copy = make_copies(record, 1, prefix=f"LATE{days}")[0]
    services.lend(copy, household, desk_user, today=dt.date(2026, 10, 1))
    return services.return_copy(copy, desk_user, today=dt.date(2026, 10, 22) + dt.timedelta(days=days)).late_fee


def test_a_membership_paid_is_projected_onto_the_household(newcomer, tariffs, desk_user):
    event = memberships.take_membership(desk_user, newcomer, tariffs["non_resident"], method="cheque", today=TODAY)
    newcomer.refresh_from_db()
    # Per person: 8.00 × its two members; a year from today, ending the day before.
    assert (event.amount, event.payload["persons"], event.payload["method"]) == (Decimal("16.00"), 2, "cheque")
    assert (newcomer.membership_starts, newcomer.membership_ends, newcomer.fee_paid) == (
        TODAY, dt.date(2027, 12, 4), True)
    assert (event.seq, event.type, event.tariff, event.happened_on, event.recorded_by) == (
        1, "membership_paid", tariffs["non_resident"], TODAY, desk_user)
    assert event.payload["previous_ends"] is None


def test_a_renewal_starts_the_day_after_the_paid_membership_ends(household, tariffs, desk_user):
    """The tests' households are paid members until 31 December 2026."""
    event = memberships.take_membership(desk_user, household, tariffs["resident"], method="cash", today=TODAY,
                                        happened_on=TODAY - dt.timedelta(days=1))
    household.refresh_from_db()
    # One membership from its first day: the household still borrows until the renewal starts.
    assert (household.membership_starts, household.membership_ends) == (dt.date(2026, 1, 1), dt.date(2027, 12, 31))
    assert event.payload["starts"] == "2027-01-01"
    assert (event.amount, event.happened_on, event.payload["previous_ends"]) == (
        Decimal("15.00"), dt.date(2026, 12, 4), "2026-12-31")


def test_the_desk_may_type_its_own_amount_and_dates_but_not_a_day_to_come(household, tariffs, desk_user):
    memberships.take_membership(desk_user, household, tariffs["resident"], method="card", amount="7,50",
                                starts=dt.date(2026, 9, 1), ends=dt.date(2027, 8, 31), today=TODAY)
    household.refresh_from_db()
    assert household.membership_ends == dt.date(2027, 8, 31)
    assert HouseholdEvent.objects.get().amount == Decimal("7.50")
    for wrong in ({"amount": "-3"}, {"method": "bitcoin"}, {"happened_on": TODAY + dt.timedelta(days=1)},
                  {"starts": dt.date(2027, 1, 2), "ends": dt.date(2027, 1, 1)}):
        with pytest.raises(InvalidFields) as refused:
            memberships.take_membership(desk_user, household, tariffs["resident"],
                                        **{"method": "cash", **wrong}, today=TODAY)
        assert refused.value.reason == "invalid_payment" and refused.value.status_code == 400
    assert HouseholdEvent.objects.count() == 1


def test_a_deposit_taken_then_given_back_and_never_more_than_held(household, desk_user):
    memberships.take_deposit(desk_user, household, amount="50", method="cheque", today=TODAY)
    household.refresh_from_db()
    assert household.deposit_held == Decimal("50.00")
    with pytest.raises(MoreThanHeld) as refused:
        memberships.return_deposit(desk_user, household, amount="60", today=TODAY)
    assert (refused.value.status_code, refused.value.details["held"]) == (422, "50.00")
    memberships.return_deposit(desk_user, household, amount="50", today=TODAY)
    household.refresh_from_db()
    assert household.deposit_held == Decimal("0.00")
    assert list(HouseholdEvent.objects.values_list("type", flat=True)) == ["deposit_taken", "deposit_returned"]


def test_fees_owed_are_the_returns_fees_less_paid_and_waived(household, record, desk_user, librarian):
    from loans import selectors

    # A library that lends to a household owing up to 5.00, so that it borrows again in between.
    LoanRules.objects.create(organisation=the_library(), refuse_fees_over=Decimal("5.00"))
    assert late_return(household, record, desk_user, days=5) == Decimal("1.00")
    assert late_return(household, record, desk_user, days=2) == Decimal("0.40")
    assert selectors.late_fees_owed(household) == Decimal("1.40")
    memberships.pay_late_fee(desk_user, household, amount="1.00", method="cash", today=TODAY)
    with pytest.raises(MoreThanOwed) as refused:
        memberships.pay_late_fee(desk_user, household, amount="0.50", method="cash", today=TODAY)
    assert (refused.value.reason, refused.value.status_code, refused.value.details["owed"]) == (
        "more_than_owed", 422, "0.40")
    with pytest.raises(OverrideNotAllowed):  # waiving is the librarians'
        memberships.waive_late_fee(desk_user, household, amount="0.40", reason="a storm", today=TODAY)
    with pytest.raises(OverrideNeedsAReason):
        memberships.waive_late_fee(librarian, household, amount="0.40", reason="  ", today=TODAY)
    with pytest.raises(MoreThanOwed):
        memberships.waive_late_fee(librarian, household, amount="0.41", reason="a storm", today=TODAY)
    memberships.waive_late_fee(librarian, household, amount="0.40", reason="a storm", today=TODAY)
    assert selectors.late_fees_owed(household) == Decimal("0.00")
    assert [(e.type, e.amount) for e in HouseholdEvent.objects.all()] == [
        ("late_fee_paid", Decimal("1.00")), ("late_fee_waived", Decimal("0.40"))]


def test_only_the_desk_of_the_households_library_takes_payments(household, django_user_model):
    member = give_role(django_user_model.objects.create_user("just-a-member"))
    with pytest.raises(MayNotTakePayments) as refused:
        memberships.take_deposit(member, household, amount="50", method="cash", today=TODAY)
    assert refused.value.status_code == 403
    assert not HouseholdEvent.objects.exists()


def test_a_cancelled_membership_ends_the_day_before(household, desk_user):
    memberships.cancel_membership(desk_user, household, reason="moved away", today=TODAY)
    household.refresh_from_db()
    assert (household.membership_ends, household.fee_paid) == (dt.date(2026, 12, 4), False)


def test_a_tariff_in_use_is_retired_not_deleted(household, tariffs, desk_user, librarian):
    memberships.take_membership(desk_user, household, tariffs["resident"], method="cash", today=TODAY)
    with pytest.raises(TariffInUse) as refused:
        memberships.delete_tariff(librarian, tariffs["resident"])
    assert (refused.value.reason, refused.value.status_code) == ("tariff_in_use", 409)
    memberships.edit_tariff(librarian, tariffs["resident"], active=False)
    assert Tariff.objects.get(pk=tariffs["resident"].pk).active is False
    memberships.delete_tariff(librarian, tariffs["non_resident"])  # never used: gone
    assert list(Tariff.objects.values_list("name", flat=True)) == ["Adhésion commune"]
    with pytest.raises(MayNotEditTariffs):
        memberships.add_tariff(desk_user, the_library(), name="Tarif réduit", kind="reduced", amount=Decimal("5"))


def test_the_tariffs_page_refuses_deleting_a_tariff_in_use_in_words(client, household, tariffs, desk_user, librarian):
    memberships.take_membership(desk_user, household, tariffs["resident"], method="cash", today=TODAY)
    client.force_login(librarian)
    answer = client.post(f"/library/tariffs/{tariffs['resident'].pk}/delete/")
    page = answer.content.decode()
    assert answer.status_code == 409 and 'data-reason="tariff_in_use"' in page
    assert "Retire it instead" in page and 'data-testid="tariff-retire-instead"' in page
    assert Tariff.objects.filter(pk=tariffs["resident"].pk).exists()
    added = client.post("/library/tariffs/", {"name": "Tarif réduit", "kind": "reduced", "per": "household",
                                              "amount": "5.00", "months": "12", "deposit": "0", "active": "on"})
    assert added.status_code == 302 and Tariff.objects.filter(name="Tarif réduit", amount=Decimal("5")).exists()
    client.force_login(desk_user)
    assert client.get("/library/tariffs/").status_code == 403


class TestTheEventsAreAppendOnly:
    @pytest.fixture
    def stored(self, household, desk_user) -> HouseholdEvent:
        return memberships.take_deposit(desk_user, household, amount="50", method="cash", today=TODAY)

    def test_the_model_refuses_to_change_or_delete_an_event(self, stored):
        stored.payload = {"amount": "5.00"}
        with pytest.raises(ImmutableHouseholdEventError):
            stored.save()
        with pytest.raises(ImmutableHouseholdEventError):
            stored.delete()

    @pytest.mark.parametrize("statement", [
        "UPDATE loans_householdevent SET amount = 5 WHERE id = %s",
        "DELETE FROM loans_householdevent WHERE id = %s",
    ])
    def test_the_database_refuses_any_client(self, stored, statement):
        """Raw SQL, as any client would send it: refused by the triggers on either database."""
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, [stored.pk])
        assert HouseholdEvent.objects.get(pk=stored.pk).amount == Decimal("50.00")

    def test_every_trigger_is_installed_after_the_migrations(self, db):
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = 'loans_householdevent'::regclass")
            else:
                cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = "
                               "'loans_householdevent'")
            installed = {row[0] for row in cursor.fetchall()}
        assert set(HOUSEHOLD_TRIGGERS[connection.vendor]) <= installed


def test_the_renewal_reminder_is_mailed_once_in_the_households_language(
        tariffs, desk_user, django_capture_on_commit_callbacks, celery_eager):
    """A French household whose membership ends on 31 December 2026 is reminded 30 days before
    (the default), once: the next days and the next run find the reminder's event. A household
    whose membership ends later, or that has no address, is not reminded."""
    from django.core import mail

    from loans import tasks
    from outbox.models import Message

    ending = make_household("Lefèvre", email="lefevre@example.org", language="fr")
    make_household("Plus tard", email="tard@example.org", membership_ends=dt.date(2027, 6, 30))
    make_household("Sans adresse")
    assert memberships.remind_membership_renewals(today=dt.date(2026, 11, 30)) == 0  # 31 days before
    with django_capture_on_commit_callbacks(execute=True):
        assert memberships.remind_membership_renewals(today=dt.date(2026, 12, 1)) == 1
    message = Message.objects.get()
    assert (message.kind, message.recipients, message.language) == ("membership_renewal", "lefevre@example.org", "fr")
    assert "31 décembre 2026" in message.subject and "31 décembre 2026" in message.body  # dates in French
    sent, = mail.outbox
    assert sent.to == ["lefevre@example.org"]
    reminded = HouseholdEvent.objects.get(household=ending)
    assert (reminded.type, reminded.payload) == ("membership_reminded", {"ends": "2026-12-31"})
    tasks.remind_membership_renewals()  # the beat's task, today: nothing again
    assert memberships.remind_membership_renewals(today=dt.date(2026, 12, 20)) == 0
    assert Message.objects.count() == 1
    # Renewed, then near the new end: reminded of that one.
    memberships.take_membership(desk_user, ending, tariffs["resident"], method="cash", today=dt.date(2026, 12, 20))
    assert memberships.remind_membership_renewals(today=dt.date(2027, 12, 10)) == 1


def test_once_paid_at_the_desk_the_membership_is_not_typed_on_the_household(household, desk_user, client):
    from loans import households

    memberships.take_deposit(desk_user, household, amount="50", method="cash", today=TODAY)
    with pytest.raises(InvalidFields) as refused:
        households.edit_household(desk_user, household, deposit_held=Decimal("0"), name="Martin-Durand")
    assert list(refused.value.details["errors"]) == ["deposit_held"]
    households.edit_household(desk_user, household, deposit_held=Decimal("50.00"), name="Martin-Durand")
    client.force_login(desk_user)
    page = client.get(f"/library/households/{household.pk}/").content.decode()
    assert 'name="deposit_held"' in page and "Taken at the desk as payments" in page


def test_the_api_takes_payments_answers_the_membership_and_keeps_a_tariff_in_use(
        household, tariffs, desk_user, django_user_model):
    from tests.factories import api_client

    desk = api_client(desk_user)
    url = f"/api/loans/households/{household.card_number}/membership/"
    paid = desk.post(url, {"type": "membership_paid", "tariff": tariffs["resident"].pk, "method": "card"},
                     format="json")
    assert paid.status_code == 201 and paid.json()["amount"] == "15.00"
    assert paid.json()["payload"]["starts"] == "2027-01-01"  # the day after the paid membership ends
    missing = desk.post(url, {"type": "deposit_taken", "amount": "50.00"}, format="json")
    assert missing.status_code == 400 and missing.json()["reason"] == "invalid_payment"
    too_much = desk.post(url, {"type": "late_fee_paid", "amount": "1.00", "method": "cash"}, format="json")
    assert too_much.status_code == 422 and too_much.json()["reason"] == "more_than_owed"
    assert too_much.json()["owed"] == "0.00"
    answer = desk.get(url).json()
    assert (answer["membership_ends"], answer["fee_paid"], answer["late_fees_owed"], answer["refusals"]) == (
        "2027-12-31", True, "0.00", [])
    assert [event["type"] for event in answer["events"]] == ["membership_paid"]
    stranger = api_client(django_user_model.objects.create_user("stranger"))
    assert stranger.get(url).status_code == 404
    # The tariffs are the librarians'.
    assert desk.get("/api/loans/tariffs/").status_code == 403
    librarian = api_client(give_role(django_user_model.objects.create_user("libby"), Role.LIBRARIAN))
    assert [t["name"] for t in librarian.get("/api/loans/tariffs/").json()] == ["Adhésion commune", "Hors commune"]
    in_use = librarian.delete(f"/api/loans/tariffs/{tariffs['resident'].pk}/")
    assert in_use.status_code == 409 and in_use.json()["reason"] == "tariff_in_use"
    retired = librarian.patch(f"/api/loans/tariffs/{tariffs['resident'].pk}/", {"active": False}, format="json")
    assert retired.status_code == 200 and retired.json()["active"] is False
    assert librarian.delete(f"/api/loans/tariffs/{tariffs['non_resident'].pk}/").status_code == 204
