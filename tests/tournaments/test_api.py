"""The tournaments' API: each endpoint over the same services as the pages, refusals answered
with their reason and a message in the request's language, seen only by those who see the
organisation's tournaments on the pages."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import Organisation
from accounts.roles import Role
from tests.factories import give_role
from tournaments import services
from tournaments.models import Round, TableResult

from .test_services import table_of


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_list_the_tournament_and_a_round_drawn_through_the_api(api, tournament, library):
    listed = api.get(f"/api/organisations/{library.pk}/tournaments/").json()
    assert [(t["id"], t["status"], t["rounds_drawn"], t["game"]["title"]) for t in listed["results"]] == [
        (tournament.pk, "registration", 0, "Terra Mystica")]
    detail = api.get(f"/api/tournaments/{tournament.pk}/").json()
    assert (detail["table_size"], detail["placement_points"]["4"], len(detail["entrants"])) == (4, [6, 4, 2, 1], 13)
    assert detail["tiebreakers"] == ["opponents_points", "score_ratio", "head_to_head"]
    drawn = api.post(f"/api/tournaments/{tournament.pk}/rounds/")
    assert drawn.status_code == 201
    tables = drawn.json()["tables"]
    assert [len(table["players"]) for table in tables] == [4, 3, 3, 3]
    assert [player["seat"] for player in tables[0]["players"]] == [0, 1, 2, 3]
    assert tables[0]["why"][0] == {"code": "drawn", "params": {"seed": tournament.pk * 1000 + 1}}
    assert tables[0]["result"] is None and tables[0]["recording"] is None
    again = api.get(f"/api/tournaments/{tournament.pk}/rounds/1/").json()
    assert again["tables"] == tables and again["game"]["title"] == "Terra Mystica"
    assert api.get(f"/api/tournaments/{tournament.pk}/rounds/2/").status_code == 404


def test_a_result_posted_then_the_standings_with_exact_points(api, tournament, organiser):
    drawn = services.draw_round(tournament, organiser)
    seats = table_of(drawn, 2).seats
    url = f"/api/tournaments/{tournament.pk}/rounds/1/tables/2/result/"
    entered = api.post(url, {"scores": [{"entrant": s.entrant_id, "score": v} for s, v in zip(seats, (30, 30, 12))]},
                       format="json")
    assert entered.status_code == 201, entered.json()
    assert entered.json()["result"]["places"] == [1, 1, 3] and entered.json()["result"]["scores"] == [30, 30, 12]
    standings = api.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    first = standings["lines"][0]
    assert (first["rank"], first["points"], first["points_number"], first["played"]) == (1, "4", 4.0, 1)
    assert set(first["tiebreaks"]) == {"opponents_points", "score_ratio", "head_to_head"}
    assert standings["csv_url"] == f"http://testserver/tournaments/{tournament.pk}/standings.csv"
    third = standings["lines"][2]
    assert third["entrant"] == seats[2].entrant_id and third["points"] == "1"
    corrected = api.post(url, {"places": [{"entrant": s.entrant_id, "place": p} for s, p in zip(seats, (1, 2, 2))],
                               "reason": "mal recopié"}, format="json")
    assert corrected.status_code == 201 and corrected.json()["result"]["corrects"] is True
    lines = {line["entrant"]: line["points"] for line in api.get(f"/api/tournaments/{tournament.pk}/standings/").json()["lines"]}
    assert [lines[s.entrant_id] for s in seats] == ["5", "2", "2"]


def test_refusals_carry_their_reason_in_the_readers_language_and_change_nothing(api, tournament, organiser):
    services.draw_round(tournament, organiser)
    early = api.post(f"/api/tournaments/{tournament.pk}/rounds/", HTTP_ACCEPT_LANGUAGE="fr")
    assert early.status_code == 409 and early.json()["reason"] == "round_incomplete"
    assert early.json()["detail"].startswith("La table 1 de la ronde 1 n'a pas encore de résultat")
    assert (early.json()["round"], early.json()["table"]) == (1, 1)
    url = f"/api/tournaments/{tournament.pk}/rounds/1/tables/1/result/"
    seats = table_of(Round.objects.get(), 1).seats
    short = api.post(url, {"scores": [{"entrant": seats[0].entrant_id, "score": 3}]}, format="json")
    assert short.status_code == 422 and short.json()["reason"] == "wrong_count"
    both = api.post(url, {"scores": [{"entrant": 1, "score": 3}], "places": [{"entrant": 1, "place": 1}]},
                    format="json")
    assert both.status_code == 400 and both.json()["reason"] == "invalid"
    assert api.post(f"/api/tournaments/{tournament.pk}/rounds/1/tables/9/result/",
                    {"places": [{"entrant": 1, "place": 1}]}, format="json").json()["reason"] == "table_not_in_round"
    assert not TableResult.objects.exists() and Round.objects.count() == 1


def test_who_sees_and_who_acts(tournament, organiser, member, library, django_user_model):
    base = f"/api/tournaments/{tournament.pk}/"
    anonymous = APIClient()
    assert anonymous.get(base).status_code == 401
    assert anonymous.get(f"/api/organisations/{library.pk}/tournaments/").status_code == 401
    elsewhere = Organisation.objects.create(slug="autre-club", name="Autre club", kind=Organisation.Kind.CLUB)
    stranger = as_user(give_role(django_user_model.objects.create_user("etranger"), Role.ORGANISER, elsewhere))
    hidden = stranger.get(f"/api/organisations/{library.pk}/tournaments/", HTTP_ACCEPT_LANGUAGE="fr")
    assert hidden.status_code == 403 and hidden.json() == {
        "reason": "tournaments_hidden", "detail": "Seuls les membres de ce club voient ses tournois."}
    assert stranger.get(base).status_code == 404 and stranger.get(f"{base}standings/").status_code == 404
    assert stranger.post(f"{base}rounds/").status_code == 404
    player = as_user(member)
    assert player.get(base).status_code == 200 and player.get(f"{base}standings/").status_code == 200
    refused = player.post(f"{base}rounds/", HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 403 and refused.json() == {
        "reason": "not_an_organiser", "detail": "Seuls les organisateurs de ce club gèrent ses tournois."}
    services.draw_round(tournament, organiser)
    seats = table_of(Round.objects.get(), 1).seats
    answer = player.post(f"{base}rounds/1/tables/1/result/",
                         {"places": [{"entrant": s.entrant_id, "place": s.position + 1} for s in seats]}, format="json")
    assert answer.status_code == 403 and answer.json()["reason"] == "not_at_this_table"
    assert not TableResult.objects.exists()
