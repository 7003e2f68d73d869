"""The loans desk in the admin: every page opens; checklists are the librarians' to edit, and the
desk's staff may read them."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.admin.sites import site
from django.contrib.auth.models import Group
from django.test import Client, RequestFactory

from loans import services
from loans.models import Component

from tests.factories import TODAY

pytestmark = pytest.mark.django_db


def test_every_loans_admin_page_opens(django_user_model, copies, household, other_household, desk_user):
    services.lend(copies[0], household, desk_user, today=TODAY)
    services.place_hold(copies[0].record, other_household, today=TODAY)
    admin_user = django_user_model.objects.create_superuser("root", "root@example.org", "x")
    client = Client()
    client.force_login(admin_user)
    for model in ("household", "copyevent", "copystate", "hold", "notification", "component", "loanrules",
                  "householdevent", "tariff"):
        assert client.get(f"/admin/loans/{model}/").status_code == 200, model
    assert client.get(f"/admin/loans/household/{household.pk}/change/").status_code == 200
    assert client.get(f"/admin/loans/copyevent/{copies[0].loan_events.get().pk}/change/").status_code == 200


def request_by(user):
    request = RequestFactory().get("/admin/loans/component/")
    request.user = user
    return request


def test_the_admins_checklists_follow_djangos_permissions(django_user_model, record):
    """The admin is the operator's tool: who may do what there is Django's permissions, which the
    ``desk`` and ``librarians`` groups carry (loans 0004); the ludothèque's people keep the
    checklists on their own page (``tests/loans/test_checklist_page.py``)."""
    # The groups as the migration makes them (a transactional test before may have emptied them).
    importlib.import_module("loans.migrations.0004_desk_and_librarian_groups").make_groups(apps, None)
    component = Component.objects.filter(record=record).first()
    component_admin = site._registry[Component]
    librarian = django_user_model.objects.create_user("librarian", is_staff=True)
    librarian.groups.add(Group.objects.get_or_create(name="librarians")[0])
    desk = django_user_model.objects.create_user("desk", is_staff=True)
    desk.groups.add(Group.objects.get_or_create(name="desk")[0])
    reader = django_user_model.objects.create_user("reader")

    assert component_admin.has_change_permission(request_by(librarian), component)
    assert component_admin.has_add_permission(request_by(librarian))
    assert component_admin.has_view_permission(request_by(desk), component)
    assert not component_admin.has_change_permission(request_by(desk), component)
    assert not component_admin.has_delete_permission(request_by(desk), component)
    assert not component_admin.has_view_permission(request_by(reader), component)


def test_the_operator_reads_where_a_household_lives_and_its_members_years_of_birth(django_user_model, household):
    from loans.models import Member

    household.town, household.phone = "Wimereux", "03 21 00 00 00"
    household.save()
    Member.objects.create(household=household, display_name="Léo", birth_year=2016)
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "x"))
    listed = client.get("/admin/loans/household/", {"q": "wimereux"}).content.decode()
    assert household.name in listed and "03 21 00 00 00" in listed
    page = client.get(f"/admin/loans/household/{household.pk}/change/").content.decode()
    for field in ('name="address"', 'name="postcode"', 'name="town"', 'name="phone"', 'value="2016"'):
        assert field in page, field
