"""The game library keeps its households, their members and its lending rules through
``loans.households``: the desk's staff register and change households and members (an address, a
town, a phone; a year of birth; an account among the organisation's members), librarians set the
lending rules; every refusal has its reason and status and changes nothing, and nobody acts on
another organisation's households."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import Organisation
from accounts.roles import Role
from loans import households, selectors
from loans.errors import (
    AccountHasAHousehold, AccountNotAMember, CardNumberTaken, InvalidFields, MayNotEditLendingRules,
    MayNotRegisterHouseholds,
)
from loans.models import Household, LoanRules, Member
from tests.factories import give_role, make_household, the_library

pytestmark = pytest.mark.django_db

DETAILS = {"name": "Famille Lefèvre", "card_number": "M-0100", "address": "12 rue des Dunes", "postcode": "62930",
           "town": "Wimereux", "phone": "+33 3 21 00 00 00", "email": "lefevre@example.org",
           "membership_starts": dt.date(2026, 1, 1), "membership_ends": dt.date(2026, 12, 31), "fee_paid": True,
           "deposit_held": Decimal("50"), "loan_limit": 4, "notes": "Deux enfants."}


@pytest.fixture
def other_library(db) -> Organisation:
    return Organisation.objects.create(name="Ludothèque des Dunes", slug="ludo-dunes", kind=Organisation.Kind.LIBRARY)


@pytest.fixture
def librarian(django_user_model):
    return give_role(django_user_model.objects.create_user("libby"), Role.LIBRARIAN)


@pytest.fixture
def plain_member(django_user_model):
    return give_role(django_user_model.objects.create_user("plain", email="Plain@Example.org"))


def test_the_desk_registers_a_household_with_its_address_and_phone(desk_user):
    household = households.register_household(desk_user, the_library(), **DETAILS)
    stored = Household.objects.get(card_number="M-0100")
    assert stored.pk == household.pk and stored.organisation == the_library()
    assert (stored.address, stored.postcode, stored.town, stored.phone) == (
        "12 rue des Dunes", "62930", "Wimereux", "+33 3 21 00 00 00")
    assert (stored.loan_limit, stored.deposit_held, stored.fee_paid) == (4, Decimal("50.00"), True)


def test_a_card_number_taken_is_refused_whatever_library_has_it(desk_user, other_library):
    Household.objects.create(name="Ailleurs", card_number="M-0100", organisation=other_library)
    with pytest.raises(CardNumberTaken) as refused:
        households.register_household(desk_user, the_library(), **DETAILS)
    assert (refused.value.reason, refused.value.status_code) == ("card_number_taken", 409)
    assert Household.objects.filter(card_number="M-0100").count() == 1

    martin = make_household("Martin")
    dubois = make_household("Dubois")
    with pytest.raises(CardNumberTaken):
        households.edit_household(desk_user, dubois, card_number=martin.card_number)
    dubois.refresh_from_db()
    assert dubois.card_number != martin.card_number


@pytest.mark.parametrize("changes, field", [
    ({"membership_starts": dt.date(2026, 6, 1), "membership_ends": dt.date(2026, 1, 1)}, "membership_ends"),
    ({"phone": "call me"}, "phone"),
    ({"email": "not an address"}, "email"),
    ({"name": "  "}, "name"),
    ({"card_number": ""}, "card_number"),
])
def test_details_that_do_not_hold_are_refused_field_by_field(desk_user, changes, field):
    with pytest.raises(InvalidFields) as refused:
        households.register_household(desk_user, the_library(), **{**DETAILS, **changes})
    assert (refused.value.reason, refused.value.status_code) == ("invalid_household", 400)
    assert field in refused.value.details["errors"]
    assert not Household.objects.exists()


def test_only_the_desk_of_the_households_library_keeps_it(plain_member, librarian, other_library, django_user_model):
    with pytest.raises(MayNotRegisterHouseholds) as refused:
        households.register_household(plain_member, the_library(), **DETAILS)
    assert refused.value.status_code == 403 and not Household.objects.exists()
    theirs = Household.objects.create(name="Ailleurs", card_number="D-1", organisation=other_library)
    with pytest.raises(MayNotRegisterHouseholds):
        households.edit_household(librarian, theirs, town="Lille")
    with pytest.raises(MayNotRegisterHouseholds):
        households.add_member(librarian, theirs, display_name="Intrus")
    theirs.refresh_from_db()
    assert theirs.town == "" and not theirs.members.exists()
    with pytest.raises(MayNotRegisterHouseholds):
        households.register_household(librarian, None, **DETAILS)


def test_an_edit_changes_only_the_fields_given(desk_user):
    household = make_household("Martin", email="martin@example.org")
    households.edit_household(desk_user, household, town=" Boulogne-sur-Mer ", phone="03 21 00 00 01")
    household.refresh_from_db()
    assert (household.town, household.phone, household.email) == ("Boulogne-sur-Mer", "03 21 00 00 01",
                                                                   "martin@example.org")
    with pytest.raises(TypeError):
        households.edit_household(desk_user, household, organisation=None)


def test_members_with_a_year_of_birth_and_an_account_by_username_or_address(desk_user, plain_member,
                                                                            django_user_model):
    household = make_household("Martin")
    parent = households.add_member(desk_user, household, display_name="Claire Martin", birth_year=1984,
                                   account="plain@example.org")
    child = households.add_member(desk_user, household, display_name=" Léo Martin ", birth_year=2016)
    assert parent.user == plain_member and parent.birth_year == 1984
    assert child.display_name == "Léo Martin" and child.user is None
    second = give_role(django_user_model.objects.create_user("Noa"))
    households.edit_member(desk_user, child, display_name="Léo Martin", birth_year=2015, account="noa")
    child.refresh_from_db()
    assert (child.birth_year, child.user) == (2015, second)
    households.edit_member(desk_user, child, display_name="Léo Martin", birth_year=None, account="")
    child.refresh_from_db()
    assert child.user is None and child.birth_year is None
    households.remove_member(desk_user, child)
    assert list(household.members.values_list("display_name", flat=True)) == ["Claire Martin"]


@pytest.mark.parametrize("year", [1899, "next year"])
def test_a_year_of_birth_out_of_range_is_refused(desk_user, year):
    household = make_household("Martin")
    year = timezone.localdate().year + 1 if year == "next year" else year
    with pytest.raises(InvalidFields) as refused:
        households.add_member(desk_user, household, display_name="Ada", birth_year=year)
    assert refused.value.reason == "invalid_member" and "birth_year" in refused.value.details["errors"]
    assert not Member.objects.exists()


def test_an_account_must_be_a_member_of_the_organisation_and_of_no_other_household(
        desk_user, plain_member, other_library, django_user_model):
    household, other = make_household("Martin"), make_household("Dubois")
    stranger = give_role(django_user_model.objects.create_user("stranger", email="s@example.org"), None,
                         other_library)
    for name in ("stranger", "s@example.org", "nobody"):
        with pytest.raises(AccountNotAMember) as refused:
            households.add_member(desk_user, household, display_name="X", account=name)
        assert refused.value.status_code == 400
    assert stranger.pk and not Member.objects.exists()
    households.add_member(desk_user, other, display_name="Plain", account="plain")
    with pytest.raises(AccountHasAHousehold) as refused:
        households.add_member(desk_user, household, display_name="Plain again", account="plain")
    assert refused.value.status_code == 409
    assert not household.members.exists()


def test_an_address_two_members_share_names_neither(desk_user, django_user_model):
    for username in ("twin-a", "twin-b"):
        give_role(django_user_model.objects.create_user(username, email="twins@example.org"))
    household = make_household("Martin")
    with pytest.raises(AccountNotAMember):
        households.add_member(desk_user, household, display_name="Twin", account="twins@example.org")
    assert households.add_member(desk_user, household, display_name="Twin", account="twin-b").user.username == "twin-b"


def test_librarians_set_the_lending_rules_and_the_desk_reads_them(librarian, desk_user):
    households.set_lending_rules(librarian, the_library(), loan_days=28, renewals_allowed=2,
                                 late_fee_per_day=Decimal("0.50"), hold_days=5, reminder_days=0)
    policy = LoanRules.current(the_library())
    assert (policy.loan_days, policy.renewals_allowed, policy.late_fee_per_day, policy.hold_days,
            policy.reminder_days) == (28, 2, Decimal("0.50"), 5, 0)
    with pytest.raises(MayNotEditLendingRules) as refused:
        households.set_lending_rules(desk_user, the_library(), loan_days=7)
    assert refused.value.status_code == 403 and LoanRules.current(the_library()).loan_days == 28


@pytest.mark.parametrize("changes, field", [
    ({"loan_days": 0}, "loan_days"), ({"late_fee_per_day": Decimal("-1")}, "late_fee_per_day"),
    ({"hold_days": 0}, "hold_days"), ({"renewals_allowed": 99}, "renewals_allowed"),
])
def test_lending_rules_that_do_not_hold_change_nothing(librarian, changes, field):
    with pytest.raises(InvalidFields) as refused:
        households.set_lending_rules(librarian, the_library(), **changes)
    assert refused.value.reason == "invalid_lending_rules" and field in refused.value.details["errors"]
    assert not LoanRules.objects.exists()


def test_the_households_found_are_the_organisations_by_name_card_town_or_member(desk_user, other_library):
    martin = make_household("Famille Martin", town="Wimereux")
    dubois = make_household("Famille Dubois", town="Boulogne", postcode="62200")
    Member.objects.create(household=dubois, display_name="Léa Dubois")
    Household.objects.create(name="Famille Martin des Dunes", card_number="D-1", town="Wimereux",
                             organisation=other_library)
    library = the_library()
    assert list(selectors.households_found(library)) == [dubois, martin]
    assert list(selectors.households_found(library, "martin")) == [martin]
    assert list(selectors.households_found(library, "WIMEREUX")) == [martin]
    assert list(selectors.households_found(library, dubois.card_number)) == [dubois]
    assert list(selectors.households_found(library, "léa")) == [dubois]
    assert list(selectors.households_found(library, "622")) == [dubois]
    assert list(selectors.households_found(library, "famille boulogne")) == [dubois]
    assert list(selectors.households_found(other_library, "martin")) != [martin]


def test_the_desk_staff_are_the_desk_volunteers_librarians_and_administrators(desk_user, librarian, plain_member,
                                                                              other_library, django_user_model):
    give_role(django_user_model.objects.create_user("chief"), Role.ADMIN)
    give_role(django_user_model.objects.create_user("elsewhere"), Role.DESK, other_library)
    staff = {person.username: person.roles for person in selectors.desk_staff(the_library())}
    assert staff == {"desk-volunteer": (Role.DESK,), "libby": (Role.LIBRARIAN,), "chief": (Role.ADMIN,)}
