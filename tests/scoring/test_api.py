"""The scoring API: results, standings, statistics, ratings; bad input answers 4xx with a reason."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scoring import tasks
from scoring.models import RecomputeRun
from tests.factories import result_game
from tests.scoring.test_leagues import LEAGUE_GAMES, make_league, play_and_score

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def league(module_transaction, django_db_blocker):
    """The league and its scored games, built once for the module's tests (each test's own
    changes are rolled back)."""
    with django_db_blocker.unblock():
        league = make_league()
        play_and_score(LEAGUE_GAMES)
    return league


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def test_results_of_a_record(client):
    record = result_game({"Ada": 12, "Bo": 30}, LEAGUE_GAMES[0][0])
    tasks.score_record(record.pk)
    body = client.get(f"/api/records/{record.pk}/results/").json()
    assert [(line["seat"], line["player"], line["score"], line["rank"]) for line in body] == [
        (0, "Ada", 12, 2), (1, "Bo", 30, 1),
    ]


def test_results_of_a_private_record_are_hidden_from_others(client):
    record = result_game({"Ada": 1, "Bo": 2}, LEAGUE_GAMES[0][0], is_private=True)
    response = client.get(f"/api/records/{record.pk}/results/")
    assert response.status_code == 404 and response.json()["reason"] == "not_found"


def test_standings_with_ranks_and_tie_break_values_paginated(client, league):
    body = client.get(f"/api/leagues/{league.pk}/standings/", {"page_size": 2}).json()
    assert body["count"] == 5
    first = body["results"][0]
    assert (first["position"], first["player"], first["points"], first["ranked"]) == (1, "Di", 13.0, True)
    assert first["tie_breaks"] == {"wins": 2, "average_score": 33.0}
    last = client.get(f"/api/leagues/{league.pk}/standings/", {"page": 1}).json()["results"][-1]
    assert (last["player"], last["position"], last["ranked"]) == ("Ed", None, False)


def test_player_statistics_and_ratings_are_filterable(client, league):
    ada = league.members.get(display_name="Ada")
    stats = client.get("/api/statistics/players/", {"player": ada.pk, "game_slug": "stone-age"}).json()
    assert [(s["games"], s["wins"]) for s in stats["results"]] == [(4, 2)]
    ratings = client.get("/api/ratings/", {"club": league.club_id}).json()["results"]
    assert len(ratings) == 5 and ratings[0]["ordinal"] >= ratings[-1]["ordinal"]
    overall = client.get("/api/ratings/", {"overall": "true", "game_slug": "stone-age"}).json()["results"]
    assert {r["club"] for r in overall} == {None}
    history = client.get("/api/ratings/history/", {"player": ada.pk, "club": league.club_id}).json()
    assert history["count"] == 4
    assert client.get("/api/statistics/games/", {"game_slug": "stone-age"}).json()["results"][0]["games"] == 6


@pytest.mark.parametrize("url, params", [
    ("/api/statistics/players/", {"player": "abc"}),
    ("/api/statistics/players/", {"player": "0.5"}),
    ("/api/ratings/", {"overall": "perhaps"}),
    ("/api/ratings/", {"club": ""}),
    ("/api/ratings/history/", {"since": "yesterday"}),
    ("/api/leagues/", {"club": "x"}),
    ("/api/leagues/", {"page": "two"}),
])
def test_bad_filters_answer_400_with_a_reason(client, league, url, params):
    response = client.get(url, params)
    assert response.status_code == 400
    assert response.json()["reason"] == "invalid_query" and response.json()["fields"] == sorted(params)


@pytest.mark.parametrize("url, params", [
    ("/api/statistics/players/", {"player": 999999}),
    ("/api/ratings/", {"club": 999999}),
    ("/api/ratings/history/", {"club": 0}),
    ("/api/leagues/", {"club": 0}),
])
def test_an_unknown_id_in_a_filter_answers_an_empty_list(client, league, url, params):
    response = client.get(url, params)
    assert response.status_code == 200
    assert response.json()["count"] == 0 and response.json()["results"] == []


def test_unknown_league_and_page_answer_404_with_a_reason(client, league):
    assert client.get("/api/leagues/999999/standings/").json()["reason"] == "not_found"
    assert client.get(f"/api/leagues/{league.pk}/standings/", {"page": 99}).json()["reason"] == "not_found"


def test_recompute_is_for_the_operator_and_bad_requests_change_nothing(client, league, eager):
    assert client.post("/api/recompute/", {}, format="json").status_code in (401, 403)
    client.force_authenticate(User.objects.create_user("staff", password="pw", is_staff=True))
    assert client.post("/api/recompute/", {}, format="json").status_code == 403  # staff status is not enough
    operator = User.objects.create_user("operator", password="pw", is_staff=True, is_superuser=True)
    client.force_authenticate(operator)
    for body in ({"since": "not a date"}, {"league": 999999}, {"game": "no-such-game"}, {"game": "Not A Slug!"}):
        response = client.post("/api/recompute/", body, format="json")
        assert response.status_code == 400 and response.json()["reason"] == "invalid", body
    assert not RecomputeRun.objects.exists()
    response = client.post("/api/recompute/", {"league": league.pk}, format="json")
    assert response.status_code == 202
    run = client.get(f"/api/recompute/{response.json()['id']}/").json()
    assert (run["status"], run["total"], run["done"], run["changes"]) == ("finished", 6, 6, [])


def test_the_endpoints_are_in_the_openapi_schema(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/records/{record_id}/results/", "/api/leagues/{id}/standings/", "/api/statistics/players/",
                 "/api/ratings/", "/api/ratings/history/", "/api/recompute/"):
        assert path in schema["paths"], path
