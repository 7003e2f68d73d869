"""The lending rules of issue 39: a household with a game overdue, late fees unpaid or its
membership unpaid is refused, in words that name what is wrong; a librarian lends anyway, saying
why, and the override is noted (a household event, and the ``lent`` event marked); anyone else
asking to override is refused (403) and nothing changes."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from accounts.roles import Role
from loans import rules, services
from loans.errors import OverrideNotAllowed, RuleRefused
from loans.models import CopyEvent, CopyState, HouseholdEvent, LoanRules
from loans.rules import CopyState as State
from loans.rules import Household, OverdueGame, Policy, Status
from tests.factories import api_client, give_role

JUNE = dt.date(2026, 6, 1)
pytestmark = pytest.mark.usefixtures("in_english")


def member(**standing) -> Household:
    return Household(1, dt.date(2026, 1, 1), dt.date(2026, 12, 31), 3, 1, **standing)


@pytest.mark.parametrize(("standing", "policy", "reason"), [
    ({}, Policy(), None),
    ({"overdue": (OverdueGame("Azul", "LUD-1", 9),)}, Policy(), "games_overdue"),
    ({"overdue": (OverdueGame("Azul", "LUD-1", 9),)}, Policy(refuse_overdue=False), None),
    ({"fees_owed": Decimal("0.20")}, Policy(), "late_fees_unpaid"),
    ({"fees_owed": Decimal("2.00")}, Policy(refuse_fees_over=Decimal("2.00")), None),
    ({"fees_owed": Decimal("2.01")}, Policy(refuse_fees_over=Decimal("2.00")), "late_fees_unpaid"),
    ({"fee_paid": False}, Policy(), "membership_unpaid"),
    ({"fee_paid": False}, Policy(refuse_unpaid_membership=False), None),
])
def test_each_new_rule_refuses_unless_the_library_turns_it_off(standing, policy, reason):
    refusal = rules.can_lend(State(), member(**standing), JUNE, policy)
    assert (refusal.reason if refusal else None) == reason


def test_a_copy_on_loan_is_refused_before_the_households_own_refusals():
    """The copy's refusal is said first: no override lends a copy that is out."""
    late = member(overdue=(OverdueGame("Azul", "LUD-1", 9),))
    assert rules.can_lend(State(status=Status.ON_LOAN, household=2), late, JUNE).reason == "copy_not_available"


@pytest.fixture
def late_household(household, copies, desk_user):
    """The Martins have copy 0 nine days past its due date (lent 30 days ago, 21 days a loan)."""
    services.lend(copies[0], household, desk_user, today=timezone.localdate() - dt.timedelta(days=30))
    return household


@pytest.fixture
def librarian(django_user_model) -> Client:
    client = Client()
    client.force_login(give_role(django_user_model.objects.create_user("libby"), Role.LIBRARIAN))
    return client


def test_the_desk_says_which_game_is_overdue_and_by_how_many_days(desk, late_household, copies, record):
    answer = desk.post(f"/desk/households/{late_household.card_number}/", {"action": "lend", "copy": copies[1].barcode})
    page = answer.content.decode()
    assert answer.status_code == 422 and 'data-reason="games_overdue"' in page
    assert f"{record.title} (copy {copies[0].barcode}), 9 days late" in page
    # A desk volunteer is not offered to lend anyway, and their asking is refused.
    assert 'data-testid="desk-override"' not in page
    refused = desk.post(f"/desk/households/{late_household.card_number}/",
                        {"action": "lend", "copy": copies[1].barcode, "override_reason": "they promised"})
    assert refused.status_code == 403 and 'data-reason="override_not_allowed"' in refused.content.decode()
    assert not CopyState.objects.filter(copy=copies[1]).exists() and not HouseholdEvent.objects.exists()


def test_a_librarian_lends_anyway_and_the_override_is_noted(librarian, late_household, copies):
    url = f"/desk/households/{late_household.card_number}/"
    page = librarian.post(url, {"action": "lend", "copy": copies[1].barcode}).content.decode()
    assert 'data-testid="desk-override"' in page and f'name="copy" value="{copies[1].barcode}"' in page
    empty = librarian.post(url, {"action": "lend", "copy": copies[1].barcode, "override_reason": " "})
    assert empty.status_code == 400 and not HouseholdEvent.objects.exists()
    answer = librarian.post(url, {"action": "lend", "copy": copies[1].barcode,
                                  "override_reason": "brought back tomorrow, said on the phone"}, follow=True)
    assert answer.status_code == 200 and "lent against the rules" in answer.content.decode()
    override = HouseholdEvent.objects.get()
    assert (override.type, override.payload["refusal"], override.payload["copy"], override.recorded_by.username) == (
        "lending_override", "games_overdue", copies[1].barcode, "libby")
    assert override.payload["reason"] == "brought back tomorrow, said on the phone"
    lent = CopyEvent.objects.get(copy=copies[1], type="lent")
    assert lent.payload["override"] == "games_overdue"
    # The household's history says it in words.
    assert "lent against the rules" in answer.content.decode().split('data-testid="household-history"')[1]


def test_the_api_overrides_likewise_and_a_copy_on_loan_stays_refused(late_household, copies, other_household,
                                                                     django_user_model, desk_user):
    librarian = api_client(give_role(django_user_model.objects.create_user("libby"), Role.LIBRARIAN))
    refused = librarian.post("/api/loans/lend/", {"copy": copies[1].barcode, "household": late_household.card_number},
                             format="json")
    assert refused.status_code == 422 and refused.json()["reason"] == "games_overdue"
    assert refused.json()["overdue"] == [{"title": copies[0].record.title, "copy": copies[0].barcode, "days": 9}]
    out = librarian.post("/api/loans/lend/", {"copy": copies[0].barcode, "household": late_household.card_number,
                                              "override_reason": "a mistake"}, format="json")
    assert out.status_code == 409 and out.json()["reason"] == "copy_not_available"
    lent = librarian.post("/api/loans/lend/", {"copy": copies[1].barcode, "household": late_household.card_number,
                                               "override_reason": "a mistake"}, format="json")
    assert lent.status_code == 201 and HouseholdEvent.objects.filter(type="lending_override").count() == 1
    desk = api_client(desk_user)
    forbidden = desk.post("/api/loans/lend/", {"copy": copies[2].barcode, "household": other_household.card_number,
                                               "override_reason": "why not"}, format="json")
    assert forbidden.status_code == 403 and forbidden.json()["reason"] == "override_not_allowed"


def test_late_fees_and_an_unpaid_membership_refuse_in_words(desk, household, copies, desk_user):
    services.lend(copies[0], household, desk_user, today=dt.date(2026, 10, 1))
    services.return_copy(copies[0], desk_user, today=dt.date(2026, 10, 25))  # 3 days late: 0.60
    with pytest.raises(RuleRefused) as refused:
        services.lend(copies[1], household, desk_user)
    assert (refused.value.reason, refused.value.details["owed"]) == ("late_fees_unpaid", "0.60")
    page = desk.get(f"/desk/households/{household.card_number}/").content.decode()
    assert "owes 0.60 in late fees" in page  # said before a copy is scanned
    LoanRules.objects.create(organisation=household.organisation, refuse_fees_over=Decimal("1.00"))
    type(household).objects.filter(pk=household.pk).update(fee_paid=False)
    answer = desk.post(f"/desk/households/{household.card_number}/", {"action": "lend", "copy": copies[1].barcode})
    assert answer.status_code == 422 and "membership is recorded but its fee is not paid" in answer.content.decode()


def test_without_the_permission_the_service_refuses_an_override(late_household, copies, desk_user):
    with pytest.raises(OverrideNotAllowed):
        services.lend(copies[1], late_household, desk_user, override_reason="please")
    assert not CopyState.objects.filter(copy=copies[1]).exists()
