"""A record's set-up: what it chose at its start besides the seed, checked by its game's rules
engine, pinned with the record, carried by its record file, never typed in the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from records.files import export_document, import_document, simulate_document
from records.models import GameRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    client = APIClient()
    client.force_authenticate(User.objects.create_user("keeper"))
    return client


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
