"""The agenda's tests: the tests' library (``tests.factories.the_library``), its librarian and
its desk volunteer (``desk_user``, in ``tests/conftest.py``), and a session on now."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.roles import Role
from agenda.models import Session
from tests.factories import give_role, the_library


@pytest.fixture
def library(db):
    return the_library()


@pytest.fixture
def librarian(django_user_model, library):
    return give_role(django_user_model.objects.create_user("bibliothecaire"), Role.LIBRARIAN)


@pytest.fixture
def member(django_user_model, library):
    return give_role(django_user_model.objects.create_user("adherent"))


@pytest.fixture
def session_now(library) -> Session:
    """An opening that started an hour ago and ends in three."""
    now = timezone.now()
    return Session.objects.create(organisation=library, kind=Session.Kind.OPENING,
                                  starts_at=now - dt.timedelta(hours=1), ends_at=now + dt.timedelta(hours=3))


def at(day: str, time: str = "00:00") -> dt.datetime:
    """``2025-01-08``, ``14:00`` on the installation's clock."""
    return timezone.make_aware(dt.datetime.fromisoformat(f"{day}T{time}"))
