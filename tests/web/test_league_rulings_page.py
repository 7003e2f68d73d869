"""The league page lists the friendly games awaiting approval; organisers count them or keep
them friendly with a button, and nobody else can."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client

from records.models import Player
from scoring import standings, tasks
from scoring.models import Club, League, LeagueMembership, LeagueRuling
from tests.factories import result_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def league(celery_eager):
    league = League.objects.create(
        club=Club.objects.create(name="Les Meeples"), name="Spring", game_slugs=["stone-age"],
        starts_on=date(2026, 3, 1), ends_on=date(2026, 5, 31), points_table={"2": [3, 1]},
    )
    for name in ("David", "Elif"):
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name))
    league.organisers.add(User.objects.create_user("olga"))
    stranger = User.objects.create_user("mallory")
    record = result_game({"David": 500, "Elif": 0}, date(2026, 3, 14), created_by=stranger)
    tasks.score_record(record.pk)
    league.friendly = record
    return league


def page_as(username: str | None, path: str) -> tuple[Client, str]:
    client = Client()
    if username:
        client.force_login(User.objects.get(username=username))
    response = client.get(path)
    assert response.status_code == 200
    return client, response.content.decode()


def test_everyone_sees_the_friendly_game_and_only_organisers_see_the_buttons(league):
    path = f"/leagues/{league.pk}/"
    _client, anonymous = page_as(None, path)
    assert 'id="awaiting-approval"' in anonymous and f"/games/{league.friendly.pk}/" in anonymous
    assert "Count it" not in anonymous
    _client, stranger = page_as("mallory", path)
    assert "Count it" not in stranger
    _client, organiser = page_as("olga", path)
    assert "Count it" in organiser and "Keep it friendly" in organiser


def test_an_organiser_counts_a_friendly_game_with_a_button(league):
    client, _html = page_as("olga", f"/leagues/{league.pk}/")
    response = client.post(f"/leagues/{league.pk}/rulings/", {"record": league.friendly.pk, "counts": "1"}, follow=True)
    html = response.content.decode()
    assert f"Game #{league.friendly.pk} now counts for the league." in html
    assert 'id="awaiting-approval"' not in html
    assert list(standings.league_records(league).values_list("pk", flat=True)) == [league.friendly.pk]
    assert 'id="standings"' in html


def test_an_organiser_keeps_a_game_friendly_with_a_reason_shown_after(league):
    client, _html = page_as("olga", f"/leagues/{league.pk}/")
    client.post(f"/leagues/{league.pk}/rulings/",
                {"record": league.friendly.pk, "counts": "0", "reason": "nobody saw it played"})
    _client, html = page_as(None, f"/leagues/{league.pk}/")
    assert 'id="ruled-out"' in html and "nobody saw it played" in html


@pytest.mark.parametrize("username, status", [(None, 302), ("mallory", 403)])
def test_nobody_else_can_rule(league, username, status):
    client = Client()
    if username:
        client.force_login(User.objects.get(username=username))
    response = client.post(f"/leagues/{league.pk}/rulings/", {"record": league.friendly.pk, "counts": "1"})
    assert response.status_code == status
    assert not LeagueRuling.objects.exists()
    assert not standings.league_records(league).exists()
