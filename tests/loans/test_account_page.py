"""The member's loans page (/account/loans/, linked from their account page): their household's
loans with due dates, renewing where the rules allow (and saying why not, before and after
trying), the holds with their place in the queue and their cancelling, what the desk told them,
and the loans before. Only their own household:
another household's copy or hold answers as if it did not exist, and changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from loans import memberships, services
from loans.models import CopyEvent, CopyState, Hold
from tests.factories import make_copies, make_household, member_client

pytestmark = pytest.mark.django_db

FAR = dt.date(2099, 12, 31)


@pytest.fixture
def martin(db):
    return make_household("Martin", membership_ends=FAR, loan_limit=3)


@pytest.fixture
def dubois(db):
    return make_household("Dubois", membership_ends=FAR)


def test_the_page_lists_the_households_loans_due_dates_and_history(record, copies, desk_user, martin,
                                                                   django_user_model):
    services.lend(copies[0], martin, desk_user, today=dt.date(2026, 11, 1))
    services.return_copy(copies[0], desk_user, today=dt.date(2026, 11, 25))  # due 22 Nov: 3 days late
    # The fee paid at the desk: a household owing late fees borrows nothing more (issue 39).
    memberships.pay_late_fee(desk_user, martin, amount="0.60", method="cash", today=dt.date(2026, 11, 25))
    services.lend(copies[1], martin, desk_user, today=dt.date(2026, 12, 1))
    client = member_client(django_user_model, martin, "claire-martin")
    page = client.get("/account/loans/").content.decode()
    assert 'data-copy="%s"' % copies[1].barcode in page
    assert "due back Dec. 22, 2026" in page
    assert "1 of 3" in page
    # The history: the loan returned late with its fee (3 days × 0.20), and the one still out.
    assert "3 days late (0.60)" in page
    assert page.count("still out") == 1
    assert 'data-copy="%s"' % copies[0].barcode not in page


def test_a_member_renews_their_loan_and_a_hold_elsewhere_stops_the_renewal(record, copies, desk_user, martin,
                                                                            dubois, django_user_model):
    services.lend(copies[0], martin, desk_user)
    client = member_client(django_user_model, martin, "claire-martin")
    assert 'data-testid="account-renew"' in client.get("/account/loans/").content.decode()
    answer = client.post("/account/loans/", {"action": "renew", "copy": copies[0].barcode}, follow=True)
    assert "renewed until" in answer.content.decode()
    assert CopyState.objects.get(copy=copies[0]).renewals == 1
    # Renewed as often as the rules allow (one renewal): the page says so instead of offering it.
    page = client.get("/account/loans/").content.decode()
    assert "renewed as often as the rules allow" in page
    assert 'data-testid="account-renew"' not in page
    events = CopyEvent.objects.count()
    refused = client.post("/account/loans/", {"action": "renew", "copy": copies[0].barcode})
    assert refused.status_code == 422
    assert 'data-reason="no_renewals_left"' in refused.content.decode()
    assert CopyEvent.objects.count() == events


def test_a_renewal_is_refused_when_another_household_waits(record, desk_user, martin, dubois, django_user_model):
    only = make_copies(record, 1, prefix="ONE")[0]
    services.lend(only, martin, desk_user)
    services.place_hold(record, dubois, desk_user)
    client = member_client(django_user_model, martin, "claire-martin")
    assert "Another household has reserved this game" in client.get("/account/loans/").content.decode()
    refused = client.post("/account/loans/", {"action": "renew", "copy": only.barcode})
    assert refused.status_code == 422
    assert 'data-reason="renewal_refused_hold_waiting"' in refused.content.decode()
    assert CopyState.objects.get(copy=only).renewals == 0


def test_another_households_loan_or_hold_cannot_be_touched(record, copies, desk_user, martin, dubois,
                                                             django_user_model):
    services.lend(copies[0], dubois, desk_user)
    hold = services.place_hold(record, dubois, desk_user)
    client = member_client(django_user_model, martin, "claire-martin")
    events, states = CopyEvent.objects.count(), list(CopyState.objects.values())
    renew = client.post("/account/loans/", {"action": "renew", "copy": copies[0].barcode})
    assert renew.status_code == 404
    cancel = client.post("/account/loans/", {"action": "cancel_hold", "hold": hold.pk})
    assert cancel.status_code == 409
    assert 'data-reason="no_hold_open"' in cancel.content.decode()
    assert (CopyEvent.objects.count(), list(CopyState.objects.values())) == (events, states)
    assert Hold.objects.get(pk=hold.pk).status == hold.status
    # The page shows none of the other household's loans.
    assert copies[0].barcode not in client.get("/account/loans/").content.decode()


def test_holds_show_the_place_in_the_queue_and_can_be_cancelled(record, desk_user, martin, dubois,
                                                                 django_user_model):
    only = make_copies(record, 1, prefix="ONE")[0]
    third = make_household("Petit", membership_ends=FAR)
    services.lend(only, third, desk_user)
    services.place_hold(record, dubois, desk_user)
    mine = services.place_hold(record, martin, desk_user)
    client = member_client(django_user_model, martin, "claire-martin")
    assert "You are number 2 in line." in client.get("/account/loans/").content.decode()
    answer = client.post("/account/loans/", {"action": "cancel_hold", "hold": mine.pk}, follow=True)
    assert "is cancelled" in answer.content.decode()
    assert Hold.objects.get(pk=mine.pk).status == Hold.Status.CANCELLED
    # The game comes back: set aside for Dubois, who are told on their own page.
    services.return_copy(only, desk_user)
    dubois_page = member_client(django_user_model, dubois, "paul-dubois").get("/account/loans/").content.decode()
    assert "Waiting for you at the desk until" in dubois_page
    assert "which you reserved, is waiting for you at the desk" in dubois_page


def test_a_user_without_a_household_is_told_how_to_get_one(client, django_user_model):
    user = django_user_model.objects.create_user("visitor")
    client.force_login(user)
    answer = client.get("/account/loans/")
    assert answer.status_code == 404
    assert 'data-testid="no-household"' in answer.content.decode()
    assert client.get("/").content.decode().count('href="/account/loans/"') == 0


def test_the_api_lets_a_member_renew_only_their_own_loan(record, copies, desk_user, household, dubois,
                                                         member_api):
    # member_api is a member of ``household``.
    services.lend(copies[0], household, desk_user, today=dt.date(2026, 12, 5))
    services.lend(copies[1], dubois, desk_user)
    assert member_api.post("/api/loans/renew/", {"copy": copies[1].barcode}, format="json").status_code == 404
    assert CopyState.objects.get(copy=copies[1]).renewals == 0
    answer = member_api.post("/api/loans/renew/", {"copy": copies[0].barcode}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["renewals"] == 1
