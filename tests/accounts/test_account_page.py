"""A person's own page, /account/, for everyone signed in and never a 404: their player, their
organisations and their roles there (in their language), their household's loans where they have
one (renewed from there), their address and whether it is verified, their language, and the way
to change their password. The header's name leads there."""

from __future__ import annotations

import datetime as dt

import pytest

from accounts.models import Organisation, Person
from accounts.roles import Role
from games.models import CatalogueRecord
from loans import services as loans
from loans.models import CopyState, Member
from records.models import Player
from tests.factories import PASSWORD, give_role, make_copies, make_household

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_someone_not_signed_in_is_asked_to_log_in(client):
    answer = client.get("/account/")
    assert answer.status_code == 302 and answer["Location"].startswith("/login/?next=/account/")


def test_a_club_member_without_a_household_reads_their_page(client, make_person):
    nadia = make_person("nadia", "nadia@example.org")
    club = Organisation.objects.create(name="Club des Dunes", slug="dunes", kind=Organisation.Kind.CLUB)
    give_role(nadia, Role.ORGANISER, club)
    player = Player.objects.create(display_name="Nadia", user=nadia)
    client.force_login(nadia)
    answer = client.get("/account/")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert f'href="/players/{player.pk}/"' in page
    assert "Club des Dunes" in page and "member, organiser" in page
    assert 'data-testid="account-household"' not in page and 'data-testid="account-no-household"' not in page
    assert 'data-testid="email-verified"' in page
    assert 'href="/account/password/"' in page
    # Their name in the header leads here.
    assert 'data-testid="account-link"' in client.get("/").content.decode()


def test_the_roles_read_in_the_persons_language(client, make_person):
    nadia = make_person("nadia", "nadia@example.org", language="fr")
    give_role(nadia, Role.LIBRARIAN)
    client.force_login(nadia)
    page = client.get("/account/").content.decode()
    assert "adhérent, bibliothécaire" in page and "Votre compte" in page


def test_a_member_of_a_library_without_a_household_is_told_how_to_get_one(client, make_person):
    nadia = make_person("nadia")
    give_role(nadia)
    client.force_login(nadia)
    answer = client.get("/account/")
    assert answer.status_code == 200 and 'data-testid="account-no-household"' in answer.content.decode()
    assert "no e-mail address" in answer.content.decode()


def test_someone_in_no_organisation_reads_their_page_too(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("newcomer"))
    answer = client.get("/account/")
    assert answer.status_code == 200
    assert "You belong to no club or game library yet" in answer.content.decode()


def test_the_operator_reads_that_they_run_the_installation(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("operator", password=PASSWORD))
    assert 'data-testid="account-operator"' in client.get("/account/").content.decode()


def test_a_household_member_reads_and_renews_their_loans_there(client, make_person, desk_user):
    claire = make_person("claire")
    household = make_household("Martin", membership_ends=dt.date(2099, 12, 31))
    Member.objects.create(household=household, display_name="Claire Martin", user=claire)
    copy = make_copies(CatalogueRecord.objects.create(title="Carcassonne"), 1)[0]
    loans.lend(copy, household, desk_user)
    client.force_login(claire)
    page = client.get("/account/").content.decode()
    assert f'data-copy="{copy.barcode}"' in page and 'data-testid="account-renew"' in page
    assert 'href="/account/loans/"' in page
    answer = client.post("/account/loans/", {"action": "renew", "copy": copy.barcode, "next": "/account/"})
    assert answer.status_code == 302 and answer["Location"] == "/account/"
    assert CopyState.objects.get(copy=copy).renewals == 1
    # A page of another site is not where a renewal returns.
    elsewhere = client.post("/account/loans/", {"action": "cancel_hold", "hold": 0, "next": "https://evil.example/"})
    assert elsewhere.status_code == 409


def test_a_language_chosen_is_the_persons_on_every_device(client, make_person):
    nadia = make_person("nadia", "nadia@example.org")
    client.force_login(nadia)
    assert client.get("/account/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "en"
    answer = client.post("/i18n/setlang/", {"language": "fr", "next": "/account/"})
    assert answer.status_code == 302 and answer["Location"] == "/account/"
    assert Person.objects.get(user=nadia).language == "fr"
    client.cookies.clear()  # another device: no language cookie, a browser in English
    client.force_login(nadia)
    page = client.get("/account/", HTTP_ACCEPT_LANGUAGE="en")
    assert page["Content-Language"] == "fr" and "Votre compte" in page.content.decode()
    # A visitor's switch changes their cookie only.
    client.logout()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert Person.objects.get(user=nadia).language == "fr"


def test_a_language_the_site_does_not_offer_is_not_kept(client, make_person):
    nadia = make_person("nadia")
    client.force_login(nadia)
    client.post("/i18n/setlang/", {"language": "xx", "next": "/account/"})
    assert Person.objects.get(user=nadia).language == ""
