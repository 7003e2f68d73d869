"""A small ludothèque: the Hunters and Gatherers record with its contents and a checklist, copies,
households with valid memberships, and the desk's staff signed in (the desk volunteer,
``desk_user``, is in ``tests/conftest.py``; the builders are in ``tests/factories.py``)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import CatalogueRecord, Copy
from loans.models import Component, Household, Member
from tests.factories import HUNTERS_AND_GATHERERS_CONTENTS, api_client, make_copies, make_household


@pytest.fixture
def record(db) -> CatalogueRecord:
    record = CatalogueRecord.objects.create(title="Carcassonne à la prèhistoire",
                                            contents=HUNTERS_AND_GATHERERS_CONTENTS)
    for position, (kind, count) in enumerate([("tuiles paysage", 79), ("tuiles bonus", 12),
                                              ("huttes en bois", 10), ("jetons en bois vert", 10)]):
        Component.objects.create(record=record, kind=kind, count=count, position=position)
    return record


@pytest.fixture
def copies(record) -> list[Copy]:
    """Four copies of the record: one more than a household may borrow."""
    return make_copies(record, 4)


@pytest.fixture
def household(db) -> Household:
    return make_household("Martin")


@pytest.fixture
def other_household(db) -> Household:
    return make_household("Dubois")


@pytest.fixture
def desk(desk_user) -> Client:
    """A page client signed in as the desk volunteer."""
    client = Client()
    client.force_login(desk_user)
    return client


@pytest.fixture
def desk_api(desk_user) -> APIClient:
    return api_client(desk_user)


@pytest.fixture
def member_api(django_user_model, household) -> APIClient:
    """A signed-in member of the Martin household, who is not desk staff."""
    user = django_user_model.objects.create_user("martin-parent")
    Member.objects.create(household=household, display_name="Claire Martin", user=user)
    return api_client(user)
