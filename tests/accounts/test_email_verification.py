"""The link that verifies an address: good once, for a few days, for the address it was sent to.
Expired, used, cut short or altered, or for an address the account no longer has, it says which
with its status and verifies nothing. Sent again from the account page; a new address is
verified by a link of its own."""

from __future__ import annotations

import re
import time

import pytest
from django.core import mail, signing

from accounts import verification
from accounts.models import Person

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def nadia(make_person):
    return make_person("nadia", "nadia@example.org", verified=False)


def link_path(user) -> str:
    return f"/verify-email/{verification.token_for(user)}/"


def verified_at(user):
    return Person.objects.get(user=user).email_verified_at


def test_a_good_link_verifies_the_address_once(client, nadia):
    client.force_login(nadia)
    answer = client.get(link_path(nadia))
    assert answer.status_code == 302 and answer["Location"] == "/account/"
    when = verified_at(nadia)
    assert when is not None
    assert 'data-testid="email-verified"' in client.get("/account/").content.decode()
    again = client.get(link_path(nadia))
    assert again.status_code == 409 and 'data-reason="link_used"' in again.content.decode()
    assert verified_at(nadia) == when


def test_a_link_opened_on_a_device_not_signed_in_leads_to_the_login_page(client, nadia):
    answer = client.get(link_path(nadia))
    assert answer.status_code == 302 and answer["Location"] == "/login/"
    assert verified_at(nadia) is not None


def test_an_expired_link_says_so_and_verifies_nothing(client, nadia, settings, monkeypatch):
    token = verification.token_for(nadia)
    later = time.time() + settings.LUDOLOG_VERIFICATION_LINK_SECONDS + 60
    monkeypatch.setattr(signing.time, "time", lambda: later)
    answer = client.get(f"/verify-email/{token}/")
    assert answer.status_code == 410 and 'data-reason="link_expired"' in answer.content.decode()
    assert "This link has expired." in answer.content.decode()
    assert verified_at(nadia) is None


@pytest.mark.parametrize("tamper", [
    lambda token: token[:-2],                                   # cut short
    lambda token: token.replace(token[2], "A" if token[2] != "A" else "B", 1),  # a character changed
    lambda token: signing.TimestampSigner(salt="another-purpose").sign_object({"user": 1, "email": "x@y.z"}),
    lambda token: "not-a-link",
])
def test_a_tampered_link_is_refused(client, nadia, tamper):
    answer = client.get(f"/verify-email/{tamper(verification.token_for(nadia))}/")
    assert answer.status_code == 400 and 'data-reason="link_invalid"' in answer.content.decode()
    assert verified_at(nadia) is None


def test_a_link_for_an_address_the_account_no_longer_has_verifies_nothing(client, nadia, committed):
    old = link_path(nadia)
    client.force_login(nadia)
    answer = committed(lambda: client.post("/account/email/", {"email": "nadia@elsewhere.org"}))
    assert answer.status_code == 302
    refused = client.get(old)
    assert refused.status_code == 410 and 'data-reason="link_outdated"' in refused.content.decode()
    assert verified_at(nadia) is None
    (sent,) = mail.outbox
    assert sent.to == ["nadia@elsewhere.org"]
    assert client.get(re.search(r"http://testserver(/verify-email/\S+/)", sent.body)[1]).status_code == 302
    assert verified_at(nadia) is not None


def test_a_new_address_in_use_is_refused_and_nothing_changes(client, nadia, make_person, committed):
    make_person("other", "taken@example.org")
    client.force_login(nadia)
    refused = committed(lambda: client.post("/account/email/", {"email": "TAKEN@example.org"}))
    assert refused.status_code == 400 and 'data-reason="email_in_use"' in refused.content.decode()
    nadia.refresh_from_db()
    assert nadia.email == "nadia@example.org" and not mail.outbox


def test_the_same_address_typed_again_stays_verified(client, make_person, committed):
    nadia = make_person("nadia", "nadia@example.org")
    client.force_login(nadia)
    assert committed(lambda: client.post("/account/email/", {"email": "Nadia@example.org"})).status_code == 302
    assert verified_at(nadia) is not None and not mail.outbox


def test_the_link_is_sent_again_from_the_account_page(client, nadia, committed):
    client.force_login(nadia)
    assert 'data-testid="verification-send"' in client.get("/account/").content.decode()
    answer = committed(lambda: client.post("/account/email/verify/"))
    assert answer.status_code == 302 and answer["Location"] == "/account/"
    (sent,) = mail.outbox
    assert sent.to == ["nadia@example.org"] and "/verify-email/" in sent.body
    from outbox.models import Message

    kept = Message.objects.get(kind=Message.Kind.VERIFY_EMAIL)  # the link verifies: not kept once mailed
    assert kept.sent_at is not None and kept.body == "" and kept.recipient_list == ["nadia@example.org"]


def test_an_account_without_an_address_is_told_to_give_one(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("no-address"))
    refused = client.post("/account/email/verify/")
    assert refused.status_code == 400 and 'data-reason="no_email"' in refused.content.decode()
    assert not mail.outbox
