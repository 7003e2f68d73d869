"""`make run` loads the demo on every start: loading it again must change nothing."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from games.models import CatalogueRecord, Copy
from records.models import Event, GameRecord
from scoring.models import SeatResult

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, ...]:
    return (
        CatalogueRecord.objects.count(), Copy.objects.count(), User.objects.count(),
        GameRecord.objects.count(), Event.objects.count(),
    )


def test_loading_the_demo_twice_duplicates_nothing(celery_eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", "--games", "3", "--stone-age-games", "2", "--carcassonne-games", "2",
                     stdout=io.StringIO())
    first = counts()
    assert first[:4] == (3, 5, 1, 7)
    assert GameRecord.objects.filter(status=GameRecord.Status.FINISHED).count() == 7
    carcassonne = CatalogueRecord.objects.get(engine_slug="carcassonne")
    assert carcassonne.usage.times_played == 2
    assert [g.seats.count() for g in GameRecord.objects.filter(game_slug="carcassonne").order_by("seed")] == [2, 3]
    stone_age = CatalogueRecord.objects.get(engine_slug="stone-age")
    assert stone_age.usage.times_played == 2, "the Stone Age demo games are played with the catalogued box"
    stone_age_games = GameRecord.objects.filter(game_slug="stone-age").order_by("seed")
    assert [(g.seed, g.seats.count(), g.ruleset_version) for g in stone_age_games] == [
        (2000, 2, "stone-age-first-edition@1-reconstructed"), (2001, 3, "stone-age-first-edition@1-reconstructed")]
    # the demo games are played with a copy of the catalogued box, and the usage projection knows it
    box = CatalogueRecord.objects.get(engine_slug="hunters-gatherers")
    assert box.usage.times_played == 3
    assert SeatResult.objects.filter(record__catalogue_record=box).count() == sum(2 + i % 4 for i in range(3))
    out = io.StringIO()
    call_command("load_demo", "--games", "3", "--stone-age-games", "2", "--carcassonne-games", "2", stdout=out)
    assert counts() == first
    assert "simulated games: 0 new" in out.getvalue()
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("ludolog-demo")
