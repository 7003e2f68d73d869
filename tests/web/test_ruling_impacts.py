"""What an organiser's ruling moved (CoGs' impact): a game ruled out, then counted again, each
lists on the league page and in the API whose standing and club rating moved, before → after."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client

from records.models import Player
from scoring import tasks
from scoring.models import Club, League, LeagueMembership, RulingImpact, Standing
from tests.factories import result_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def league(celery_eager):
    """David and Elif have played two trusted games of Stone Age (one each won); Olga organises."""
    league = League.objects.create(
        club=Club.objects.create(name="Les Meeples"), name="Spring", game_slugs=["stone-age"],
        starts_on=date(2026, 3, 1), ends_on=date(2026, 5, 31), points_table={"2": [3, 1]},
    )
    for name in ("David", "Elif"):
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name))
    olga = User.objects.create_user("olga")
    league.organisers.add(olga)
    league.games = [result_game({"David": 120, "Elif": 90}, date(2026, 3, 14), created_by=olga),
                    result_game({"David": 80, "Elif": 110}, date(2026, 3, 21), created_by=olga)]
    for record in league.games:
        tasks.score_record(record.pk)
    return league


def test_ruling_a_game_out_and_counting_it_again_say_what_moved(league):
    organiser = Client()
    organiser.force_login(User.objects.get(username="olga"))
    first = league.games[0]
    assert Standing.objects.get(league=league, player__display_name="David").points == 4
    organiser.post(f"/leagues/{league.pk}/rulings/", {"record": first.pk, "counts": "0", "reason": "wrong box"})
    assert Standing.objects.get(league=league, player__display_name="David").points == 1
    impact = RulingImpact.objects.get(ruling__counts=False)
    david = next(line for line in impact.changes if line["kind"] == "standing" and line["player"] == "David")
    assert david["moved"]["points"] == [4, 1] and david["moved"]["games"] == [2, 1]
    assert any(line["kind"] == "rating" and line["player"] == "David" for line in impact.changes)

    page = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert 'data-testid="ruling-impacts"' in page and f"Game #{first.pk} ruled out" in page
    assert 'data-testid="impact-line" data-player="David"' in page and "4 → 1 points" in page

    organiser.post(f"/leagues/{league.pk}/rulings/", {"record": first.pk, "counts": "1", "reason": "box found"})
    again = RulingImpact.objects.get(ruling__counts=True)
    david = next(line for line in again.changes if line["kind"] == "standing" and line["player"] == "David")
    assert david["moved"]["points"] == [1, 4]
    body = json.loads(Client().get(f"/api/leagues/{league.pk}/rulings/").content)
    listed = body.get("results", body)
    assert [len(ruling["impact"]) > 0 for ruling in listed] == [True, True]
    assert any(line["player"] == "David" and line["moved"].get("points") == [4, 1] for line in listed[0]["impact"])
