"""Sign-in by username (Django's own) or by e-mail address: a verified address of exactly one
account. The login page offers the way back to a forgotten password."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def signed_in_as(client, login: str, password: str = PASSWORD) -> str | None:
    """Who the login form signs in with ``login`` (nobody: ``None``)."""
    client.post("/login/", {"username": login, "password": password})
    user_id = client.session.get("_auth_user_id")
    client.logout()
    return User.objects.get(pk=user_id).username if user_id else None


def test_by_username_and_by_verified_address_whatever_its_case(client, make_person):
    make_person("nadia", "nadia@example.org")
    assert signed_in_as(client, "nadia") == "nadia"
    assert signed_in_as(client, "Nadia@Example.ORG") == "nadia"
    assert signed_in_as(client, " nadia@example.org ") == "nadia"


def test_a_wrong_password_opens_nothing_either_way(client, make_person):
    make_person("nadia", "nadia@example.org")
    assert signed_in_as(client, "nadia@example.org", "wrong") is None
    assert signed_in_as(client, "nadia", "wrong") is None


def test_an_address_not_verified_opens_nothing(client, make_person):
    make_person("nadia", "nadia@example.org", verified=False)
    assert signed_in_as(client, "nadia@example.org") is None
    assert signed_in_as(client, "nadia") == "nadia"


def test_an_address_two_accounts_share_opens_neither(client, make_person):
    # Made before addresses were one account's (by the admin): they sign in by username.
    make_person("nadia", "shared@example.org")
    make_person("nadia-too", "shared@example.org")
    assert signed_in_as(client, "shared@example.org") is None
    assert signed_in_as(client, "nadia-too") == "nadia-too"


def test_an_inactive_account_stays_shut(client, make_person):
    user = make_person("nadia", "nadia@example.org")
    user.is_active = False
    user.save()
    assert signed_in_as(client, "nadia@example.org") is None


def test_the_login_page_leads_to_a_forgotten_password(client):
    page = client.get("/login/").content.decode()
    assert 'href="/password/reset/"' in page and "Forgot your password?" in page
