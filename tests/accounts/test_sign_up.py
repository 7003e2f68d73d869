"""Sign-up: open to anyone or by invitation only (the default), an address one account's whatever
its case, the new person signed in, their player made, and a link mailed to verify the address.
A refused sign-up is a 4xx that says why and creates nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from accounts import services
from accounts.errors import EmailInUse
from accounts.models import Person
from records.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

GOOD = {"username": "nadia", "email": "Nadia@Example.org", "language": "fr",
        "password1": "tuiles-et-meeples-42", "password2": "tuiles-et-meeples-42"}


def test_by_invitation_the_page_says_so_and_a_sign_up_posted_creates_nothing(client):
    page = client.get("/signup/")
    assert page.status_code == 200
    assert 'data-testid="signup-closed"' in page.content.decode()
    refused = client.post("/signup/", GOOD)
    assert refused.status_code == 403
    assert 'data-reason="signup_by_invitation"' in refused.content.decode()
    assert not get_user_model().objects.exists() and not mail.outbox
    # Nobody is offered what they cannot do.
    assert 'href="/signup/"' not in client.get("/login/").content.decode()
    assert 'href="/signup/"' not in client.get("/").content.decode()


def test_open_sign_up_makes_the_account_its_person_and_its_player_signs_in_and_mails_a_link(
        client, signup_open, committed):
    assert 'href="/signup/"' in client.get("/login/").content.decode()
    answer = committed(lambda: client.post("/signup/", GOOD))
    assert answer.status_code == 302 and answer["Location"] == "/account/"
    user = get_user_model().objects.get(username="nadia")
    assert user.email == "Nadia@example.org" and user.check_password(GOOD["password1"])
    person = Person.objects.get(user=user)
    assert person.language == "fr" and person.email_verified_at is None
    assert Player.objects.get(user=user).display_name == "nadia"
    # Signed in: the account page is theirs, in the language they chose.
    page = client.get("/account/")
    assert page.status_code == 200 and page["Content-Language"] == "fr"
    assert 'data-testid="email-unverified"' in page.content.decode()
    (sent,) = mail.outbox
    assert sent.to == ["Nadia@example.org"]
    assert sent.subject == "Ludolog : vérifiez votre adresse e-mail"  # in the language chosen
    assert re.search(r"http://testserver/verify-email/[^/\s]+/", sent.body)


def test_an_address_in_use_whatever_its_case_is_refused_and_nothing_is_created(client, signup_open, make_person,
                                                                               committed):
    make_person("nadia-b", "nadia@example.org")
    users = get_user_model().objects.count()
    refused = committed(lambda: client.post("/signup/", GOOD))
    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'data-reason="email_in_use"' in page
    assert "An account already uses this e-mail." in page
    assert get_user_model().objects.count() == users
    assert not mail.outbox and "_auth_user_id" not in client.session


def test_the_service_refuses_an_address_in_use_too(make_person):
    make_person("nadia-b", "nadia@example.org")
    with pytest.raises(EmailInUse):
        services.sign_up("nadia", "NADIA@example.org", GOOD["password1"], site_url="http://testserver/")
    assert not get_user_model().objects.filter(username="nadia").exists()


@pytest.mark.parametrize("change, reason", [
    ({"username": "nadia@home"}, "at_in_username"),
    ({"password2": "something-else-42"}, "password_mismatch"),
    ({"password1": "123", "password2": "123"}, "password_too_short"),
    ({"email": "not an address"}, "invalid"),
])
def test_bad_input_says_why_and_creates_nothing(client, signup_open, change, reason):
    refused = client.post("/signup/", {**GOOD, **change})
    assert refused.status_code == 400
    assert reason in re.search(r'data-reason="([^"]*)"', refused.content.decode())[1].split()
    assert not get_user_model().objects.exists()


def test_a_username_taken_by_a_player_gets_a_player_of_its_own(client, signup_open, committed):
    Player.objects.create(display_name="Nadia")  # someone's history at the club: not given away
    committed(lambda: client.post("/signup/", GOOD))
    assert Player.objects.get(user__username="nadia").display_name == "nadia 2"
    assert Player.objects.get(display_name="Nadia").user is None


def test_someone_signed_in_is_sent_to_their_account(client, signup_open, make_person):
    client.force_login(make_person("nadia", "nadia@example.org"))
    assert client.get("/signup/")["Location"] == "/account/"
