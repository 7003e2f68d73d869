"""The desk's API: what each call answers, with the status and reason of each refusal, and who
may call it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from loans import services
from loans.models import CopyEvent, Hold, Notification

from tests.factories import make_copies, make_household

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def members_this_year(household, other_household):
    """The households' memberships run around whatever today is."""
    today = timezone.localdate()
    for h in (household, other_household):
        h.membership_starts, h.membership_ends = today - dt.timedelta(days=30), today + dt.timedelta(days=300)
        h.save()


def lend(api: APIClient, copy, household):
    return api.post("/api/loans/lend/", {"copy": copy.barcode, "household": household.card_number}, format="json")


def test_lend_answers_the_copy_with_its_borrower_and_due_date(desk_api, copies, household):
    answer = lend(desk_api, copies[0], household)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["status"] == "on_loan" and body["household"] == household.card_number
    assert body["due_on"] == (timezone.localdate() + dt.timedelta(days=21)).isoformat()
    assert body["title"] == "Carcassonne à la prèhistoire"


def test_the_fourth_loan_answers_422_loan_limit_reached(desk_api, copies, household):
    for copy in copies[:3]:
        assert lend(desk_api, copy, household).status_code == 201
    answer = lend(desk_api, copies[3], household)
    assert (answer.status_code, answer.json()["reason"]) == (422, "loan_limit_reached")
    assert answer.json()["detail"]


def test_a_copy_already_out_answers_409_copy_not_available(desk_api, copies, household, other_household):
    lend(desk_api, copies[0], household)
    answer = lend(desk_api, copies[0], other_household)
    assert (answer.status_code, answer.json()["reason"]) == (409, "copy_not_available")


def test_unknown_codes_answer_404_with_a_reason(desk_api, copies, household):
    answer = desk_api.post("/api/loans/lend/", {"copy": "NO-SUCH", "household": household.card_number}, format="json")
    assert (answer.status_code, answer.json()["reason"]) == (404, "unknown_copy")
    answer = desk_api.post("/api/loans/lend/", {"copy": copies[0].barcode, "household": "NO-CARD"}, format="json")
    assert (answer.status_code, answer.json()["reason"]) == (404, "unknown_household")
    assert desk_api.get("/api/loans/copies/NO-SUCH/").status_code == 404


def test_a_malformed_request_answers_400_invalid(desk_api):
    answer = desk_api.post("/api/loans/lend/", {"copy": ""}, format="json")
    assert (answer.status_code, answer.json()["reason"]) == (400, "invalid")
    assert answer.json()["fields"] == ["copy", "household"]
    answer = desk_api.post("/api/loans/return/", {"copy": "X", "counted": {"huttes": -1}}, format="json")
    assert (answer.status_code, answer.json()["reason"]) == (400, "invalid")


def test_a_return_with_two_pieces_missing(desk_api, copies, household):
    lend(desk_api, copies[0], household)
    answer = desk_api.post("/api/loans/return/", {"copy": copies[0].barcode,
                                                  "counted": {"tuiles bonus": 11, "huttes en bois": 9}}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["status"] == "needs_check" and body["household"] is None
    assert body["newly_missing"] == [{"kind": "tuiles bonus", "count": 1}, {"kind": "huttes en bois", "count": 1}]
    assert body["missing"] == body["newly_missing"]
    assert (body["days_late"], body["late_fee"]) == (0, "0.00")
    again = desk_api.post("/api/loans/return/", {"copy": copies[0].barcode}, format="json")
    assert (again.status_code, again.json()["reason"]) == (409, "not_on_loan")


def test_renewal_refused_while_another_household_waits(desk_api, record, household, other_household):
    copy, = make_copies(record, 1, prefix="ONE")
    Hold.objects.all().delete()
    lend(desk_api, copy, household)
    assert desk_api.post("/api/loans/holds/", {"record": record.pk, "household": other_household.card_number},
                         format="json").status_code == 201
    answer = desk_api.post("/api/loans/renew/", {"copy": copy.barcode}, format="json")
    assert (answer.status_code, answer.json()["reason"]) == (422, "renewal_refused_hold_waiting")


def test_a_renewal_and_then_no_renewals_left(desk_api, copies, household):
    lend(desk_api, copies[0], household)
    first = desk_api.post("/api/loans/renew/", {"copy": copies[0].barcode}, format="json")
    assert first.status_code == 200 and first.json()["renewals"] == 1
    second = desk_api.post("/api/loans/renew/", {"copy": copies[0].barcode}, format="json")
    assert (second.status_code, second.json()["reason"]) == (422, "no_renewals_left")


def test_the_returned_copy_goes_to_the_household_waiting(desk_api, record, household, other_household):
    copy, = make_copies(record, 1, prefix="ONE")
    lend(desk_api, copy, household)
    desk_api.post("/api/loans/holds/", {"record": record.pk, "household": other_household.card_number}, format="json")
    answer = desk_api.post("/api/loans/return/", {"copy": copy.barcode}, format="json").json()
    assert (answer["status"], answer["set_aside_for"]) == ("on_hold_shelf", other_household.card_number)
    assert Notification.objects.filter(household=other_household).count() == 1
    assert lend(desk_api, copy, household).json()["reason"] == "copy_not_available"
    assert lend(desk_api, copy, other_household).status_code == 201


def test_holds_a_second_time_and_on_an_unknown_record(desk_api, record, copies, household):
    for copy in copies:
        services.lend(copy, make_household(copy.barcode, membership_ends=dt.date(2099, 1, 1)), None)
    first = desk_api.post("/api/loans/holds/", {"record": record.pk, "household": household.card_number},
                          format="json")
    assert first.status_code == 201 and first.json()["status"] == "waiting"
    again = desk_api.post("/api/loans/holds/", {"record": record.pk, "household": household.card_number},
                          format="json")
    assert (again.status_code, again.json()["reason"]) == (409, "hold_already_placed")
    unknown = desk_api.post("/api/loans/holds/", {"record": 999999, "household": household.card_number},
                            format="json")
    assert (unknown.status_code, unknown.json()["reason"]) == (404, "unknown_record")


def test_a_copy_state_shows_the_borrower_to_desk_staff_only(desk_api, member_api, copies, household):
    lend(desk_api, copies[0], household)
    url = f"/api/loans/copies/{copies[0].barcode}/"
    assert desk_api.get(url).json()["household"] == household.card_number
    public = APIClient().get(url)
    assert public.status_code == 200
    assert public.json()["status"] == "on_loan" and public.json()["household"] is None
    assert member_api.get(url).json()["household"] is None


def test_only_desk_staff_lend_and_take_back_and_members_renew_only_their_own(member_api, copies, household):
    for path, body in (("lend", {"copy": copies[0].barcode, "household": household.card_number}),
                       ("return", {"copy": copies[0].barcode})):
        assert member_api.post(f"/api/loans/{path}/", body, format="json").status_code == 403
        assert APIClient().post(f"/api/loans/{path}/", body, format="json").status_code in (401, 403)
    renew = {"copy": copies[0].barcode}
    # A copy that is not their household's loan is none they may name (test_account_page: their own).
    assert member_api.post("/api/loans/renew/", renew, format="json").status_code == 404
    assert APIClient().post("/api/loans/renew/", renew, format="json").status_code in (401, 403)
    assert not CopyEvent.objects.exists()


def test_members_see_their_own_household_loans_only(desk_api, member_api, copies, household, other_household):
    lend(desk_api, copies[0], household)
    lend(desk_api, copies[1], other_household)
    own = member_api.get(f"/api/loans/households/{household.card_number}/loans/")
    assert own.status_code == 200
    assert [loan["copy"] for loan in own.json()] == [copies[0].barcode]
    assert member_api.get(f"/api/loans/households/{other_household.card_number}/loans/").status_code == 404
    staff = desk_api.get(f"/api/loans/households/{other_household.card_number}/loans/")
    assert [loan["copy"] for loan in staff.json()] == [copies[1].barcode]
    assert APIClient().get(f"/api/loans/households/{household.card_number}/loans/").status_code in (401, 403)


def test_a_member_reserves_for_their_own_household_only(member_api, record, copies, household, other_household):
    for copy in copies:
        services.lend(copy, make_household(copy.barcode, membership_ends=dt.date(2099, 1, 1)), None)
    own = member_api.post("/api/loans/holds/", {"record": record.pk, "household": household.card_number},
                          format="json")
    assert own.status_code == 201
    other = member_api.post("/api/loans/holds/", {"record": record.pk, "household": other_household.card_number},
                            format="json")
    assert other.status_code == 404


def test_the_schema_names_the_copy_statuses_of_the_rules():
    from django.conf import settings

    from loans.rules import Status

    overrides = settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]
    assert overrides["CopyLoanStatusEnum"] == [status.value for status in Status]
