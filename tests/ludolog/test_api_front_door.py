"""The API for a newcomer: /api/ lists every endpoint, a token for a username and password, and
positions that name the next actions as the append takes them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

from records.services import SeatSpec, start_game

pytestmark = pytest.mark.django_db


def test_the_api_root_lists_every_endpoint():
    listed = APIClient().get("/api/").json()
    for name in ("records", "catalogue", "clubs", "leagues", "player_statistics", "game_statistics", "ratings",
                 "rating_history", "recompute", "token", "schema", "health"):
        assert listed[name].startswith("http://testserver/"), name
    for name, url in listed.items():
        if name not in ("token", "recompute"):  # a POST endpoint, and one for staff only
            assert APIClient().get(url).status_code == 200, name


def test_the_api_root_links_the_apis_own_lists():
    """Each link of /api/ is an API endpoint: the leagues link named the leagues' HTML page."""
    listed = APIClient().get("/api/").json()
    assert listed["leagues"] == "http://testserver/api/leagues/"
    assert listed["clubs"] == "http://testserver/api/clubs/"
    for name, url in listed.items():
        if name not in ("health", "schema_ui"):  # the load balancer's probe, and the schema's page
            assert url.startswith("http://testserver/api/"), name
    answer = APIClient().get(listed["leagues"])
    assert answer["Content-Type"] == "application/json" and "results" in answer.json()


def test_a_token_for_a_username_and_password_and_a_brake_on_guesses():
    cache.clear()
    user = get_user_model().objects.create_user("ada", password="ada-password-1234")
    api = APIClient()
    answer = api.post("/api/auth/token/", {"username": "ada", "password": "ada-password-1234"})
    assert answer.status_code == 200
    token = answer.json()["token"]
    assert api.post("/api/auth/token/", {"username": "ada", "password": "ada-password-1234"}).json()["token"] == token
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = api.post("/api/records/", {"game_slug": "carcassonne", "seats": [{"player": "Ada"}, {"player": "Bo"}]},
                       format="json")
    assert created.status_code == 201 and user.kept_records.count() == 1
    wrong = APIClient()
    codes = [wrong.post("/api/auth/token/", {"username": "ada", "password": "nope"}).status_code for _ in range(12)]
    assert codes[0] == 400 and 429 in codes, codes
    cache.clear()


@pytest.mark.parametrize("game, kinds", [("carcassonne", ["place_tile"]), ("hunters-gatherers", ["place_tile"]),
                                         ("stone-age", ["place"])])
def test_a_position_names_the_next_actions_as_the_append_takes_them(game, kinds):
    record = start_game(game_slug=game, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=7)
    position = APIClient().get(f"/api/records/{record.pk}/state/").json()["position"]
    assert position["legal_action_kinds"] == kinds
    unseeded = start_game(game_slug="carcassonne", seats=[SeatSpec("Cy"), SeatSpec("Di")])
    assert APIClient().get(f"/api/records/{unseeded.pk}/state/").json()["position"]["legal_action_kinds"] == [
        "place_tile", "discard_tile"]
