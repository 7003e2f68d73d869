"""`make run` loads the demo on every start: loading it again must change nothing."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from games.models import CatalogueRecord, Copy
from records.models import Event, GameRecord

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, ...]:
    return (
        CatalogueRecord.objects.count(), Copy.objects.count(), User.objects.count(),
        GameRecord.objects.count(), Event.objects.count(),
    )


def test_loading_the_demo_twice_duplicates_nothing(celery_eager):
    call_command("load_demo", "--games", "3", stdout=io.StringIO())
    first = counts()
    assert first[:4] == (3, 5, 1, 3)
    assert GameRecord.objects.filter(status=GameRecord.Status.FINISHED).count() == 3
    out = io.StringIO()
    call_command("load_demo", "--games", "3", stdout=out)
    assert counts() == first
    assert "simulated games: 0 new" in out.getvalue()
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("ludolog-demo")
