"""The staff groups made by migration, for the Django admin (the operator's tool, with Django's own
permissions): the ``desk`` group registers households but does not edit the catalogue or the
checklists; ``librarians`` do both. Who may do what on the ludothèque's own pages is their roles
in its organisation (``accounts.roles``, ``tests/accounts/test_roles.py``), not these groups."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client

from games.models import CatalogueRecord
from loans.models import Component

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def groups(db) -> None:
    """The groups as the migration makes them (made again: a transactional test before this one
    may have emptied the tables, and making them twice changes nothing)."""
    importlib.import_module("loans.migrations.0004_desk_and_librarian_groups").make_groups(apps, None)


def staff_in(django_user_model, group: str) -> Client:
    user = django_user_model.objects.create_user(f"{group}-person", is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    client = Client()
    client.force_login(user)
    return client


def test_desk_volunteers_register_households_but_do_not_edit_the_catalogue(django_user_model):
    record = CatalogueRecord.objects.create(title="Azul")
    desk = staff_in(django_user_model, "desk")
    assert desk.get("/admin/loans/household/add/").status_code == 200
    assert desk.get(f"/admin/games/cataloguerecord/{record.pk}/change/").status_code == 200  # may look
    # Seen, not changed: the admin's change page is read-only for them, and a post is refused.
    answer = desk.post(f"/admin/games/cataloguerecord/{record.pk}/change/", {"title": "Changed"})
    assert answer.status_code == 403
    assert CatalogueRecord.objects.get(pk=record.pk).title == "Azul"
    assert desk.get("/admin/games/cataloguerecord/add/").status_code == 403
    assert desk.post(f"/catalogue/{record.pk}/checklist/", {}).status_code == 403


def test_librarians_edit_the_catalogue_and_the_checklists(django_user_model):
    record = CatalogueRecord.objects.create(title="Azul", contents="100 tuiles, 4 plateaux")
    librarian = staff_in(django_user_model, "librarians")
    assert librarian.get("/admin/games/cataloguerecord/add/").status_code == 200
    assert librarian.get(f"/admin/games/cataloguerecord/{record.pk}/change/").status_code == 200
    assert librarian.get("/admin/loans/component/add/").status_code == 200
    assert not Component.objects.filter(record=record).exists()
