"""A club that asks for Elo gets its own ratings in Elo (the ratings over every club stay
OpenSkill's): worked out again from the club's first game when it switches, each game moving them
as scoring.elo's hand-computed examples say, and named and explained on its leagues' pages."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from records.models import Player
from scoring import ratings, tasks
from scoring.models import Club, League, LeagueMembership, Rating, RatingChange
from tests.factories import result_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = Club.objects.create(name="Les Meeples")
    league = League.objects.create(club=club, name="Autumn", game_slugs=[], starts_on=date(2026, 1, 1),
                                   ends_on=date(2026, 12, 31), points_table={"2": [3, 1], "3": [5, 3, 1]})
    for name in ("Ada", "Bo", "Cy"):
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name))
    return league


def scored(scores: dict[str, int], day: int) -> None:
    tasks.score_record(result_game(scores, date(2026, 3, day), game="azul").pk)


def elo_of(club: Club) -> dict[str, float]:
    return {row.player.display_name: round(row.mu, 2) for row in
            Rating.objects.filter(club=club, game_slug="azul").select_related("player")}


def test_switching_to_elo_works_the_club_out_again_and_new_games_follow(club):
    scored({"Ada": 50, "Bo": 40}, 1)  # Ada beats Bo: 1516 / 1484 in Elo
    openskill = elo_of(club.club)
    assert openskill["Ada"] != 1516.0, "OpenSkill until the club asks"
    assert ratings.set_rating_system(club.club, Club.RatingSystem.ELO) == 1
    assert elo_of(club.club) == {"Ada": 1516.0, "Bo": 1484.0}
    overall = Rating.objects.get(club__isnull=True, player__display_name="Ada", game_slug="azul")
    assert overall.sigma > 0, "the ratings over every club stay OpenSkill's"

    scored({"Bo": 30, "Ada": 30, "Cy": 10}, 2)  # Ada and Bo tie first, Cy third: K/2 a duel
    # Ada 1516 vs Bo 1484: ½ for 0.546 expected; vs Cy 1500: 1 for 0.523 → +16 × 0.431 = +6.9
    found = elo_of(club.club)
    assert (found["Ada"], found["Bo"], found["Cy"]) == (1522.9, 1493.1, 1484.0)
    assert {change.sigma for change in RatingChange.objects.filter(club=club.club)} == {0.0}

    ratings.set_rating_system(club.club, Club.RatingSystem.OPENSKILL)
    assert elo_of(club.club)["Ada"] == pytest.approx(openskill["Ada"], abs=30), "back in OpenSkill's range"
    assert RatingChange.objects.filter(club=club.club).exclude(sigma=0.0).exists()


def test_the_league_page_names_and_explains_the_clubs_rating_system(club):
    assert "OpenSkill" in Client().get(f"/leagues/{club.pk}/").content.decode()
    ratings.set_rating_system(club.club, Club.RatingSystem.ELO)
    page = Client().get(f"/leagues/{club.pk}/").content.decode()
    assert 'data-testid="rating-system"' in page and "Elo" in page and "1500" in page
