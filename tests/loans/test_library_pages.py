"""The game library's own pages, outside the Django admin: its households (searched, registered,
changed, their members added, changed and removed), its lending rules and its desk volunteers;
the desk's household page shows the members, their accounts and years of birth. Each refusal is
a page in the reader's language with its status and a reason, and changes nothing; another
organisation's household is not found."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import Organisation
from accounts.roles import Role
from loans.models import Household, LoanRules, Member
from tests.factories import give_role, make_household, the_library

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

NEW = {"name": "Famille Lefèvre", "card_number": "M-0100", "address": "12 rue des Dunes", "postcode": "62930",
       "town": "Wimereux", "phone": "03 21 00 00 00", "email": "", "membership_starts": "2026-01-01",
       "membership_ends": "2026-12-31", "fee_paid": "on", "deposit_held": "50", "loan_limit": "3", "notes": ""}
RULES = {"loan_days": "28", "renewals_allowed": "2", "late_fee_per_day": "0.50", "hold_days": "5",
         "reminder_days": "10", "refuse_overdue": "on", "refuse_fees_over": "2.00", "membership_reminder_days": "20"}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def reason(answer) -> str | None:
    found = re.search(r'data-reason="([a-z_]+)"', answer.content.decode())
    return found.group(1) if found else None


@pytest.fixture
def other_library(db) -> Organisation:
    return Organisation.objects.create(name="Ludothèque des Dunes", slug="ludo-dunes", kind=Organisation.Kind.LIBRARY)


@pytest.fixture
def theirs(other_library) -> Household:
    """A household of another game library."""
    return Household.objects.create(name="Famille des Dunes", card_number="D-0001", organisation=other_library)


@pytest.fixture
def librarian(django_user_model) -> Client:
    return signed_in(give_role(django_user_model.objects.create_user("libby"), Role.LIBRARIAN))


@pytest.fixture
def plain(django_user_model) -> Client:
    return signed_in(give_role(django_user_model.objects.create_user("plain", email="plain@example.org")))


def test_the_desk_lists_and_searches_its_households_only(desk, theirs):
    make_household("Famille Martin", town="Wimereux")
    make_household("Famille Dubois", town="Boulogne")
    page = desk.get("/library/households/").content.decode()
    assert "Famille Martin" in page and "Famille Dubois" in page and "Wimereux" in page
    assert "Famille des Dunes" not in page
    found = desk.get("/library/households/", {"q": "wimereux"}).content.decode()
    assert "Famille Martin" in found and "Famille Dubois" not in found
    assert "No household matches." in desk.get("/library/households/", {"q": "Dunes"}).content.decode()


def test_who_may_not_keep_households_is_refused(plain, client):
    answer = plain.get("/library/households/")
    assert answer.status_code == 403 and reason(answer) == "may_not_register_households"
    assert plain.post("/library/households/new/", NEW).status_code == 403
    assert not Household.objects.exists()
    assert client.get("/library/households/").status_code == 302  # to the login page


def test_a_household_registered_from_its_page(desk):
    answer = desk.post("/library/households/new/", NEW)
    household = Household.objects.get(card_number="M-0100")
    assert answer.status_code == 302 and answer["Location"] == f"/library/households/{household.pk}/"
    assert (household.organisation, household.town, household.phone, household.fee_paid) == (
        the_library(), "Wimereux", "03 21 00 00 00", True)
    page = desk.get(answer["Location"]).content.decode()
    assert 'value="12 rue des Dunes"' in page and "registered, card M-0100" in page


def test_a_card_number_taken_is_a_conflict_that_says_so(desk, theirs):
    answer = desk.post("/library/households/new/", {**NEW, "card_number": theirs.card_number})
    assert answer.status_code == 409 and reason(answer) == "card_number_taken"
    assert "Another household already has this card number." in answer.content.decode()
    assert Household.objects.count() == 1
    martin, dubois = make_household("Martin"), make_household("Dubois")
    answer = desk.post(f"/library/households/{dubois.pk}/", {**NEW, "name": "Dubois",
                                                             "card_number": martin.card_number})
    assert answer.status_code == 409
    dubois.refresh_from_db()
    assert dubois.card_number != martin.card_number and dubois.town == ""


def test_details_that_do_not_hold_are_a_bad_request(desk):
    answer = desk.post("/library/households/new/", {**NEW, "membership_ends": "2025-01-01", "phone": "call me"})
    assert answer.status_code == 400 and reason(answer) == "invalid_household"
    page = answer.content.decode()
    assert "The membership cannot end before it starts." in page and 'data-for="phone"' in page
    assert not Household.objects.exists()


def test_another_organisations_household_is_not_found_and_not_changed(desk, theirs):
    Member.objects.create(household=theirs, display_name="Zoé")
    member = theirs.members.get()
    assert desk.get(f"/library/households/{theirs.pk}/").status_code == 404
    assert desk.post(f"/library/households/{theirs.pk}/", {**NEW, "card_number": "D-0001"}).status_code == 404
    assert desk.post(f"/library/households/{theirs.pk}/members/", {"display_name": "Intrus"}).status_code == 404
    assert desk.post(f"/library/households/{theirs.pk}/members/{member.pk}/",
                     {"display_name": "Renamed"}).status_code == 404
    assert desk.post(f"/library/households/{theirs.pk}/members/{member.pk}/remove/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.name == "Famille des Dunes" and list(theirs.members.values_list("display_name", flat=True)) == ["Zoé"]
    # A member of another household, reached through one of the library's own: not found either.
    ours = make_household("Martin")
    assert desk.post(f"/library/households/{ours.pk}/members/{member.pk}/remove/").status_code == 404
    assert Member.objects.filter(pk=member.pk).exists()


def test_members_added_changed_and_removed(desk, django_user_model):
    household = make_household("Martin")
    give_role(django_user_model.objects.create_user("claire", email="claire@example.org"))
    added = desk.post(f"/library/households/{household.pk}/members/",
                      {"display_name": "Claire Martin", "birth_year": "1984", "account": "claire@example.org"})
    assert added.status_code == 302
    claire = household.members.get()
    assert (claire.birth_year, claire.user.username) == (1984, "claire")
    page = desk.get(f"/library/households/{household.pk}/").content.decode()
    assert "Claire Martin" in page and "born 1984" in page and "account: claire" in page

    edit = f"/library/households/{household.pk}/members/{claire.pk}/"
    assert 'value="claire"' in desk.get(edit).content.decode()
    assert desk.post(edit, {"display_name": "Claire M.", "birth_year": "", "account": ""}).status_code == 302
    claire.refresh_from_db()
    assert (claire.display_name, claire.birth_year, claire.user) == ("Claire M.", None, None)

    assert desk.post(f"{edit}remove/").status_code == 302
    assert not household.members.exists()
    assert desk.get(f"{edit}remove/").status_code == 405


def test_a_member_refused_says_why_and_is_not_added(desk, other_library, django_user_model):
    household = make_household("Martin")
    give_role(django_user_model.objects.create_user("stranger"), None, other_library)
    answer = desk.post(f"/library/households/{household.pk}/members/", {"display_name": "X", "account": "stranger"})
    assert answer.status_code == 400 and reason(answer) == "account_not_a_member"
    assert "No member of this organisation has this username or e-mail address." in answer.content.decode()
    answer = desk.post(f"/library/households/{household.pk}/members/", {"display_name": "X", "birth_year": "1850"})
    assert answer.status_code == 400 and reason(answer) == "invalid_member"
    assert "A year of birth between 1900 and" in answer.content.decode()
    assert not household.members.exists()


def test_the_desks_household_page_shows_its_members_and_where_it_lives(desk, django_user_model):
    household = make_household("Martin", address="3 rue Carnot", postcode="62200", town="Boulogne-sur-Mer",
                               phone="03 21 11 22 33")
    user = give_role(django_user_model.objects.create_user("claire"))
    Member.objects.create(household=household, display_name="Claire Martin", birth_year=1984, user=user)
    Member.objects.create(household=household, display_name="Léo Martin", birth_year=2016)
    page = desk.get(f"/desk/households/{household.card_number}/").content.decode()
    members = page.split('data-testid="household-members"')[1].split("</ul>")[0]
    assert "Claire Martin" in members and "born 1984" in members and "account: claire" in members
    assert "Léo Martin" in members and "born 2016" in members
    assert "3 rue Carnot, 62200 Boulogne-sur-Mer" in page and "03 21 11 22 33" in page
    assert f'href="/library/households/{household.pk}/"' in page


def test_the_lending_rules_page_explains_and_saves(librarian):
    page = librarian.get("/library/lending-rules/").content.decode()
    assert 'name="loan_days" value="21"' in page and "How many days a household keeps a game" in page
    answer = librarian.post("/library/lending-rules/", RULES)
    assert answer.status_code == 302
    policy = LoanRules.current(the_library())
    assert (policy.loan_days, policy.renewals_allowed, str(policy.late_fee_per_day), policy.hold_days,
            policy.reminder_days) == (28, 2, "0.50", 5, 10)
    # Issue 39's rules: a box left unticked is a rule turned off.
    assert (policy.refuse_overdue, str(policy.refuse_fees_over), policy.refuse_unpaid_membership,
            policy.membership_reminder_days) == (True, "2.00", False, 20)


def test_lending_rules_refused_change_nothing(librarian, desk):
    answer = librarian.post("/library/lending-rules/", {**RULES, "loan_days": "0", "late_fee_per_day": "-1"})
    assert answer.status_code == 400 and reason(answer) == "invalid_lending_rules"
    assert not LoanRules.objects.exists()
    answer = desk.post("/library/lending-rules/", RULES)
    assert answer.status_code == 403 and reason(answer) == "may_not_edit_lending_rules"
    assert desk.get("/library/lending-rules/").status_code == 403
    assert not LoanRules.objects.exists()


def test_the_volunteers_page_lists_the_desk_and_invites_a_volunteer(librarian, desk_user, desk, django_user_model):
    give_role(django_user_model.objects.create_user("just-a-member"))
    page = librarian.get("/library/volunteers/").content.decode()
    staff = page.split('data-testid="desk-staff"')[1].split("</ul>")[0]
    assert "desk-volunteer" in staff and "libby" in staff and "just-a-member" not in staff
    invite = re.search(r'href="([^"]+)" data-testid="invite-desk-volunteer"', page).group(1)
    assert invite == f"/organisations/{the_library().slug}/members/?role=desk"
    form = librarian.get(invite).content.decode()
    assert re.search(r'<input type="radio" name="role" value="desk"[^>]*checked', form)
    assert not re.search(r'<input type="radio" name="role" value="member"[^>]*checked', form)
    answer = desk.get("/library/volunteers/")
    assert answer.status_code == 403 and reason(answer) == "may_not_invite"


def test_a_role_one_may_not_give_is_not_chosen_for_them(librarian):
    form = librarian.get(f"/organisations/{the_library().slug}/members/?role=organiser").content.decode()
    assert 'value="organiser"' not in form
    assert re.search(r'<input type="radio" name="role" value="member"[^>]*checked', form)


def test_links_to_the_librarys_pages_for_those_who_may(librarian, desk):
    for client, expected in ((librarian, {"households-link", "lending-rules-link", "volunteers-link"}),
                             (desk, {"households-link"})):
        for path in ("/desk/", f"/organisations/{the_library().slug}/"):
            page = client.get(path).content.decode()
            shown = set(re.findall(r'data-testid="((?:households|lending-rules|volunteers)-link)"', page))
            assert shown == expected, (path, shown)
    for path in ("/library/households/", "/library/lending-rules/", "/library/volunteers/"):
        assert "/admin/" not in librarian.get(path).content.decode(), path


def test_the_pages_read_in_french(librarian, settings):
    make_household("Famille Martin", town="Wimereux")
    librarian.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    for path, words in (("/library/households/", "Foyers"), ("/library/lending-rules/", "Règles de prêt"),
                        ("/library/volunteers/", "Bénévoles de l’accueil")):
        page = librarian.get(path, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        assert words in page, path
