"""People with accounts for the accounts' tests: ``make_person`` (an account with its Person, its
address verified or not), ``signup_open`` (the installation's sign-up open to anyone), and
``committed``, which runs what a request left for its transaction's commit (the verification
mail is sent then; a test's transaction never commits); and the joining tests' people (below)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Organisation, Person
from accounts.roles import Role
from tests.factories import PASSWORD, give_role, the_library


@pytest.fixture(autouse=True)
def mail_at_once(celery_eager) -> None:
    """The outbox's messages go at once, as in ``make run``, even when a broker is configured:
    these tests read what was mailed (tests/outbox/ and tests/loans/test_broker_down.py test the
    worker's way)."""


@pytest.fixture
def make_person(django_user_model) -> Callable[..., Any]:
    def make(username: str, email: str = "", *, verified: bool = True, language: str = "") -> Any:
        user = django_user_model.objects.create_user(username, email=email, password=PASSWORD)
        Person.objects.create(user=user, language=language, email_verified_at=timezone.now() if verified else None)
        return user
    return make


@pytest.fixture
def signup_open(settings) -> None:
    settings.LUDOLOG_SIGNUP = "open"


@pytest.fixture
def committed(django_capture_on_commit_callbacks) -> Callable[[Callable[[], Any]], Any]:
    """``committed(lambda: client.post(...))``: the request's answer, after what it left for the
    commit of its transaction has run (the mail it sends)."""
    def run(request: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return request()
    return run


# The joining tests' people: the tests' library (organisation A, which runs a club too) with its
# organiser, librarian and a plain member; a second club (B, Les Dunes) with its organiser; and a
# newcomer with an account and no organisation.

@pytest.fixture
def library():
    return the_library()


@pytest.fixture
def dunes():
    return Organisation.objects.create(name="Club des Dunes", slug="les-dunes", language="fr", open_to_requests=True)


@pytest.fixture
def organiser(django_user_model, library):
    return give_role(django_user_model.objects.create_user("orga", email="orga@example.org"), Role.ORGANISER, library)


@pytest.fixture
def librarian(django_user_model, library):
    return give_role(django_user_model.objects.create_user("biblio"), Role.LIBRARIAN, library)


@pytest.fixture
def member(django_user_model, library):
    return give_role(django_user_model.objects.create_user("membre"), None, library)


@pytest.fixture
def dunes_organiser(django_user_model, dunes):
    return give_role(django_user_model.objects.create_user("dunes"), Role.ORGANISER, dunes)


@pytest.fixture
def newcomer(django_user_model):
    return django_user_model.objects.create_user("camille", email="camille@example.org", password="pw-camille-123")
