"""A small ludothèque: the Hunters and Gatherers record with its contents and a checklist, copies,
households with valid memberships, and the desk's staff."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from games.models import CatalogueRecord, Copy
from loans.models import Component, Household, Member

TODAY = dt.date(2026, 12, 5)
HUNTERS_AND_GATHERERS_CONTENTS = (
    "79 tuiles paysage, 12 tuiles bonus, 5 tuiles de score, 1 piste de score, 30 hommes de Cro-Magnon en 5 "
    "couleurs, 10 huttes en bois dans 5 couleurs, 10 jetons en bois vert, Livret de règles."
)
_cards = itertools.count(1)


@pytest.fixture
def record(db) -> CatalogueRecord:
    record = CatalogueRecord.objects.create(title="Carcassonne à la prèhistoire",
                                            contents=HUNTERS_AND_GATHERERS_CONTENTS)
    for position, (kind, count) in enumerate([("tuiles paysage", 79), ("tuiles bonus", 12),
                                              ("huttes en bois", 10), ("jetons en bois vert", 10)]):
        Component.objects.create(record=record, kind=kind, count=count, position=position)
    return record


def make_copies(record: CatalogueRecord, count: int, prefix: str = "LUD-T") -> list[Copy]:
    return [Copy.objects.create(record=record, barcode=f"{prefix}-{record.pk}-{n:03d}") for n in range(1, count + 1)]


@pytest.fixture
def copies(record) -> list[Copy]:
    """Four copies of the record: one more than a household may borrow."""
    return make_copies(record, 4)


def make_household(name: str = "Martin", **fields) -> Household:
    fields.setdefault("membership_starts", dt.date(2026, 1, 1))
    fields.setdefault("membership_ends", dt.date(2026, 12, 31))
    return Household.objects.create(name=name, card_number=f"CARD-{next(_cards):05d}", fee_paid=True, **fields)


@pytest.fixture
def household(db) -> Household:
    return make_household("Martin")


@pytest.fixture
def other_household(db) -> Household:
    return make_household("Dubois")


@pytest.fixture
def desk_user(django_user_model):
    user = django_user_model.objects.create_user("desk-volunteer")
    user.groups.add(Group.objects.get_or_create(name="desk")[0])
    return user


@pytest.fixture
def desk_api(desk_user) -> APIClient:
    api = APIClient()
    api.force_authenticate(desk_user)
    return api


@pytest.fixture
def member_api(django_user_model, household) -> APIClient:
    """A signed-in member of the Martin household, who is not desk staff."""
    user = django_user_model.objects.create_user("martin-parent")
    Member.objects.create(household=household, display_name="Claire Martin", user=user)
    api = APIClient()
    api.force_authenticate(user)
    return api
