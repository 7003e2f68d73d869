"""A copy's events are append-only: the model, the admin and, on PostgreSQL, the database refuse
to change or delete one."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.admin.sites import site
from django.db import DatabaseError, connection, transaction
from django.test import RequestFactory

from loans import services
from loans.models import CopyEvent, ImmutableCopyEventError

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(copies, household, desk_user) -> CopyEvent:
    services.lend(copies[0], household, desk_user, today=dt.date(2026, 12, 5))
    return CopyEvent.objects.get()


def test_the_model_refuses_to_change_or_delete_a_stored_event(event):
    event.type = "returned"
    with pytest.raises(ImmutableCopyEventError):
        event.save()
    with pytest.raises(ImmutableCopyEventError):
        event.delete()


def test_the_admin_shows_events_and_changes_none(event, django_user_model):
    admin_user = django_user_model.objects.create_superuser("root", "root@example.org", "x")
    request = RequestFactory().get("/admin/loans/copyevent/")
    request.user = admin_user
    model_admin = site._registry[CopyEvent]
    assert model_admin.has_view_permission(request, event)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, event)
    assert not model_admin.has_delete_permission(request, event)
    assert model_admin.get_actions(request) == {}


@pytest.mark.postgres
@pytest.mark.parametrize("statement", [
    "UPDATE loans_copyevent SET type = 'returned'",
    "UPDATE loans_copyevent SET seq = seq + 1",
    "DELETE FROM loans_copyevent",
])
def test_postgresql_refuses_any_client_changing_or_deleting_events(event, statement):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)
    assert CopyEvent.objects.get().type == "lent"
