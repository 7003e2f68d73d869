"""The people of the joining tests: the tests' library (organisation A, which runs a club too)
with its organiser, librarian and a plain member; a second club (B, Les Dunes) with its
organiser; and a newcomer with an account and no organisation."""

from __future__ import annotations

import pytest

from accounts.models import Organisation
from accounts.roles import Role
from tests.factories import give_role, the_library


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
