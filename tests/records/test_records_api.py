"""The records API: create, append, list; clear 4xx answers that change nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from records.models import Event, GameRecord, Player
from tests.factories import event

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(api) -> APIClient:
    """The scorekeeper's API client (``api``, of ``tests/records/conftest.py``), which this
    module's tests call ``client``."""
    return api


@pytest.fixture
def record_id(client) -> int:
    response = client.post(
        "/api/records/",
        {
            "game_slug": "hunters-gatherers",
            "seed": 1,
            "seats": [{"player": "Ada", "colour": "red"}, {"player": "Bo"}],
        },
        format="json",
    )
    assert response.status_code == 201, response.data
    return response.data["id"]


def test_create_record_with_seats(client, record_id):
    record = GameRecord.objects.get(pk=record_id)
    assert [(s.seat_order, s.player.display_name, s.colour) for s in record.seats.all()] == [
        (0, "Ada", "red"),
        (1, "Bo", ""),
    ]
    assert record.scorekeepers.filter(username="keeper").exists()


def test_append_then_list_events(client, record_id):
    kind, payload = event(0)
    created = client.post(
        f"/api/records/{record_id}/events/", {"expected_seq": 0, "type": kind, "payload": payload}, format="json"
    )
    assert created.status_code == 201, created.data
    assert created.data["seq"] == 1 and created.data["recorded_by"] == "keeper"
    assert created.data["notation"].startswith(payload["tile"] + "@")
    listed = APIClient().get(f"/api/records/{record_id}/events/")
    assert listed.status_code == 200
    assert listed.data["count"] == 1
    assert [(e["seq"], e["payload"]) for e in listed.data["results"]] == [(1, payload)]


def test_taken_seq_answers_409_with_the_current_last_seq(client, record_id):
    kind, payload = event(0)
    body = {"expected_seq": 0, "type": kind, "payload": payload}
    assert client.post(f"/api/records/{record_id}/events/", body, format="json").status_code == 201
    response = client.post(f"/api/records/{record_id}/events/", body, format="json")
    assert response.status_code == 409
    assert response.data["reason"] == "seq_conflict"
    assert response.data["current_seq"] == 1
    assert Event.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "place_tile"}, "expected_seq"),
        ({"expected_seq": -1, "type": "place_tile"}, "expected_seq"),
        ({"expected_seq": 0, "type": "Not A Type!"}, "type"),
        ({"expected_seq": 0, "type": "place_tile", "payload": [1, 2]}, "payload"),
    ],
)
def test_malformed_append_answers_400_naming_the_field(client, record_id, body, field):
    response = client.post(f"/api/records/{record_id}/events/", body, format="json")
    assert response.status_code == 400
    assert response.data["reason"] == "invalid"
    assert field in response.data["fields"]
    assert Event.objects.count() == 0


def test_malformed_record_answers_400_naming_the_field(client):
    response = client.post("/api/records/", {"game_slug": "hunters-gatherers", "seats": []}, format="json")
    assert response.status_code == 400
    assert response.data["fields"] == ["seats"]
    assert GameRecord.objects.count() == 0 and Player.objects.count() == 0


def test_idempotent_retry_over_http_returns_the_same_event(client, record_id):
    kind, payload = event(0)
    body = {"expected_seq": 0, "type": kind, "payload": payload, "idempotency_key": "tablet-7-0001"}
    first = client.post(f"/api/records/{record_id}/events/", body, format="json")
    retry = client.post(f"/api/records/{record_id}/events/", body, format="json")
    assert first.status_code == 201 and retry.status_code == 201
    assert first.data == retry.data
    assert Event.objects.count() == 1


def test_strangers_may_not_append(record_id):
    stranger = APIClient()
    stranger.force_authenticate(User.objects.create_user("stranger", password="pw"))
    kind, payload = event(0)
    body = {"expected_seq": 0, "type": kind, "payload": payload}
    response = stranger.post(f"/api/records/{record_id}/events/", body, format="json")
    assert response.status_code == 403
    anonymous = APIClient().post(f"/api/records/{record_id}/events/", body, format="json")
    assert anonymous.status_code in (401, 403)
    assert Event.objects.count() == 0


def test_seated_player_with_a_login_may_append(record_id):
    user = User.objects.create_user("ada", password="pw")
    Player.objects.filter(display_name="Ada").update(user=user)
    player_client = APIClient()
    player_client.force_authenticate(user)
    kind, payload = event(0)
    body = {"expected_seq": 0, "type": kind, "payload": payload}
    response = player_client.post(f"/api/records/{record_id}/events/", body, format="json")
    assert response.status_code == 201


def test_private_records_are_hidden_from_strangers(client, record_id):
    GameRecord.objects.filter(pk=record_id).update(is_private=True)
    hidden = APIClient().get(f"/api/records/{record_id}/")
    assert hidden.status_code == 404 and hidden.data["reason"] == "not_found"
    assert client.get(f"/api/records/{record_id}/").status_code == 200


def test_schema_and_schema_ui_are_served():
    api = APIClient()
    schema = api.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/records/{id}/events/" in schema.content
    ui = api.get("/api/schema/ui/")
    assert ui.status_code == 200
    assert b"cdn" not in ui.content.lower()


def test_a_long_record_s_events_come_a_page_at_a_time_with_their_undos_marked(client, record_id):
    """A record's history is paginated (the schema says so): a page costs the same whatever the
    record's length, and an undo on a later page still marks the action it took back."""
    from tests.factories import simulated_events

    events = simulated_events(2, 1)
    for seq, (kind, payload) in enumerate(events[:5]):
        assert client.post(f"/api/records/{record_id}/events/",
                           {"expected_seq": seq, "type": kind, "payload": payload}, format="json").status_code == 201
    assert client.post(f"/api/records/{record_id}/events/", {"expected_seq": 5, "type": "undo"},
                       format="json").status_code == 201
    first = client.get(f"/api/records/{record_id}/events/?page_size=2").data
    assert first["count"] == 6 and [e["seq"] for e in first["results"]] == [1, 2] and first["next"]
    last = client.get(f"/api/records/{record_id}/events/?page_size=2&page=3").data
    assert [(e["seq"], e["retracted_by"]) for e in last["results"]] == [(5, 6), (6, None)]
    assert client.get(f"/api/records/{record_id}/events/?page=9").status_code == 404
