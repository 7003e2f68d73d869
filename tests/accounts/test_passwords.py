"""Passwords with Django's own views and URL names: the reset mailed in its reader's language
(a French person reads French whatever the page that asked), the link used to choose a new one
(which verifies the address it came to), and the change for someone signed in."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import Person
from tests.factories import PASSWORD, give_role, the_library

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

NEW = "un-nouveau-mot-de-passe-7"


def test_the_names_are_djangos():
    assert [reverse(name) for name in ("password_reset", "password_reset_done", "password_reset_complete",
                                       "password_change", "password_change_done")] == [
        "/password/reset/", "/password/reset/sent/", "/password/reset/done/", "/account/password/",
        "/account/password/done/"]
    assert reverse("password_reset_confirm", args=["MQ", "token"]) == "/password/reset/MQ/token/"


def test_a_french_person_gets_the_reset_in_french_and_chooses_a_new_password(client, make_person):
    nadia = make_person("nadia", "nadia@example.org", verified=False, language="fr")
    answer = client.post("/password/reset/", {"email": "NADIA@example.org"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 302 and answer["Location"] == "/password/reset/sent/"
    (sent,) = mail.outbox
    assert sent.to == ["nadia@example.org"]
    assert sent.subject == "Ludolog\u00a0: choisissez un nouveau mot de passe"
    assert "Bonjour nadia," in sent.body and "Le lien sert une fois, pendant 3 jours." in sent.body
    link = re.search(r"http://testserver(/password/reset/\S+/)", sent.body)[1]
    form = client.get(link, follow=True)
    assert 'data-testid="password-reset-confirm-form"' in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == "/password/reset/done/"
    nadia.refresh_from_db()
    assert nadia.check_password(NEW)
    # The link came to the account's address: it is the person's.
    assert Person.objects.get(user=nadia).email_verified_at is not None
    # Used once.
    assert 'data-reason="link_invalid"' in client.get(link, follow=True).content.decode()


def test_without_a_language_of_their_own_the_reset_is_in_their_organisations(client, django_user_model):
    user = django_user_model.objects.create_user("claire", email="claire@example.org", password=PASSWORD)
    library = the_library()
    library.language = "fr"
    library.save()
    give_role(user, None, library)
    client.post("/password/reset/", {"email": "claire@example.org"})
    assert mail.outbox[0].subject == "Ludolog\u00a0: choisissez un nouveau mot de passe"


def test_an_unknown_address_reads_the_same_page_and_nothing_is_sent(client):
    answer = client.post("/password/reset/", {"email": "nobody@example.org"})
    assert answer.status_code == 302 and answer["Location"] == "/password/reset/sent/"
    assert not mail.outbox


def test_a_signed_in_person_changes_their_password(client, make_person):
    nadia = make_person("nadia", "nadia@example.org")
    client.force_login(nadia)
    assert 'href="/account/password/"' in client.get("/account/").content.decode()
    wrong = client.post("/account/password/", {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW})
    assert wrong.status_code == 400 and "password_incorrect" in wrong.content.decode()
    nadia.refresh_from_db()
    assert nadia.check_password(PASSWORD)
    answer = client.post("/account/password/", {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW})
    assert answer.status_code == 302 and answer["Location"] == "/account/password/done/"
    nadia.refresh_from_db()
    assert nadia.check_password(NEW)
    assert client.get("/account/").status_code == 200  # still signed in here
