"""A record's set-up: what it chose at its start besides the seed, checked by its game's rules
engine, pinned with the record, carried by its record file, never typed in the admin."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from records.files import export_document, import_document, simulate_document
from records.models import GameRecord

pytestmark = pytest.mark.django_db


def create(api: APIClient, **fields):
    body = {"game_slug": "hunters-gatherers", "seed": 1, "seats": [{"player": "Ada"}, {"player": "Bo"}], **fields}
    return api.post("/api/records/", body, format="json")


def test_a_game_without_set_up_choices_pins_an_empty_set_up(api):
    response = create(api)
    assert response.status_code == 201, response.data
    assert response.data["setup"] == {}
    assert GameRecord.objects.get(pk=response.data["id"]).setup == {}


def test_a_choice_the_game_does_not_know_is_refused_naming_it_and_nothing_is_stored(api):
    response = create(api, setup={"expansions": ["inns_cathedrals"]})
    assert response.status_code == 400
    assert response.data["reason"] == "invalid_setup"
    assert response.data["field"] == "setup.expansions"
    assert not GameRecord.objects.exists()


def test_a_result_only_record_has_no_set_up(api):
    response = create(api, result_only=True, setup={"anything": 1})
    assert response.status_code == 400 and response.data["field"] == "setup"
    assert not GameRecord.objects.exists()


def test_a_record_file_carries_the_set_up_beside_the_seed():
    document = simulate_document("hunters-gatherers", 2, 5)
    assert document["setup"] == {"seed": 5}
    record = import_document(document)
    assert record.setup == {} and export_document(record)["setup"] == {"seed": 5}


def test_a_record_file_with_a_set_up_its_game_refuses_is_not_imported():
    from records.files import RecordFileError

    document = simulate_document("hunters-gatherers", 2, 5)
    document["setup"]["map"] = "benelux"
    with pytest.raises(RecordFileError) as refused:
        import_document(document)
    assert refused.value.reason == "invalid_setup" and refused.value.details["field"] == "setup.map"
    assert not GameRecord.objects.exists()


def carcassonne(api: APIClient, players: int = 2, **setup):
    seats = [{"player": name} for name in ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"][:players]]
    return api.post("/api/records/", {"game_slug": "carcassonne", "seed": 4, "seats": seats, "setup": setup},
                    format="json")


def test_carcassonne_with_both_expansions_pins_them_with_their_rules(api):
    response = carcassonne(api, expansions=["traders_builders", "inns_cathedrals"])
    assert response.status_code == 201, response.data
    record = GameRecord.objects.get(pk=response.data["id"])
    assert record.setup == {"expansions": ["inns_cathedrals", "traders_builders"],
                            "rules": ["inns_cathedrals", "traders_builders"], "meeples": 7}
    state = api.get(f"/api/records/{record.pk}/state/").data
    assert state["position"]["tiles_left"] == 71 + 18 + 24


def test_carcassonne_tiles_only_and_nine_meeples_as_the_maps_recommend(api):
    response = carcassonne(api, expansions=["inns_cathedrals", "traders_builders"], rules=[], meeples=9)
    assert response.status_code == 201, response.data
    state = api.get(f"/api/records/{response.data['id']}/state/").data["position"]
    assert state["meeples_left"] == [9, 9] and state["figures_left"] == [{}, {}]


def test_a_sixth_carcassonne_player_needs_inns_and_cathedrals(api):
    refused = carcassonne(api, players=6)
    assert refused.status_code == 400 and refused.data["field"] == "setup.expansions"
    assert carcassonne(api, players=6, expansions=["inns_cathedrals"]).status_code == 201


@pytest.mark.parametrize("setup, field", [
    ({"expansions": ["river"]}, "setup.expansions.0"),
    ({"expansions": [], "rules": ["inns_cathedrals"]}, "setup.rules"),
    ({"meeples": 0}, "setup.meeples"),
])
def test_a_carcassonne_set_up_the_rules_refuse_names_its_field(api, setup, field):
    response = carcassonne(api, **setup)
    assert response.status_code == 400 and response.data["field"] == field, response.data
    assert not GameRecord.objects.exists()


def test_an_expansion_game_travels_whole_in_its_record_file():
    setup = {"expansions": ["inns_cathedrals", "traders_builders"]}
    document = simulate_document("carcassonne", 3, 8, setup=setup)
    assert document["setup"]["expansions"] == ["inns_cathedrals", "traders_builders"]
    assert any(e["payload"]["tile"].startswith(("IC", "TB")) for e in document["events"])
    record = import_document(document)
    again = export_document(record)
    assert again["setup"] == document["setup"] and again["final_scores"] == document["final_scores"]
