"""The login brake (ludolog.middleware.LoginThrottleMiddleware) covers the forms that send mail:
after LUDOLOG_LOGIN_FAILURES sign-ups or resets from one address, or naming one e-mail, the next
is a 429 that says why, and creates and sends nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_the_braked_paths_are_the_forms_that_send_mail(settings):
    for name in ("signup", "password_reset", "email-change", "verification-send"):
        assert reverse(name) in settings.LUDOLOG_MAILING_PATHS
    assert set(settings.LUDOLOG_MAILING_PATHS) <= set(settings.LUDOLOG_LOGIN_PATHS)


def test_a_flood_of_sign_ups_from_one_address_is_stopped(client, signup_open, settings, committed):
    settings.LUDOLOG_LOGIN_FAILURES = 3
    for number in range(3):
        answer = committed(lambda: client.post("/signup/", {
            "username": f"bot{number}", "email": f"bot{number}@example.org", "language": "en",
            "password1": "tuiles-et-meeples-42", "password2": "tuiles-et-meeples-42"}))
        assert answer.status_code == 302
        client.logout()
    stopped = committed(lambda: client.post("/signup/", {
        "username": "bot9", "email": "bot9@example.org", "language": "en",
        "password1": "tuiles-et-meeples-42", "password2": "tuiles-et-meeples-42"}))
    assert stopped.status_code == 429 and int(stopped["Retry-After"]) > 0
    assert stopped["X-Ludolog-Reason"] == "too_many_tries"
    assert "Too many tries" in stopped.content.decode()
    assert get_user_model().objects.count() == 3 and len(mail.outbox) == 3


def test_a_flood_of_resets_to_one_address_is_stopped_from_anywhere(make_person, settings):
    from django.test import Client

    settings.LUDOLOG_LOGIN_FAILURES = 3
    make_person("nadia", "nadia@example.org")
    for number in range(3):
        # Each from another address: the count of the e-mail named stops them all the same.
        answer = Client(REMOTE_ADDR=f"10.0.0.{number}").post("/password/reset/", {"email": "nadia@example.org"})
        assert answer.status_code == 302
    stopped = Client(REMOTE_ADDR="10.0.0.9").post("/password/reset/", {"email": "Nadia@example.org"})
    assert stopped.status_code == 429 and stopped["X-Ludolog-Reason"] == "too_many_tries"
    assert len(mail.outbox) == 3
