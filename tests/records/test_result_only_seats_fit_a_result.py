"""A result-only record has no more seats than its one result may list scores (100): more is
refused at creation with a reason, and nothing is created."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from records.models import GameRecord, Player
from records.services import RESULT_SCHEMA

pytestmark = pytest.mark.django_db

MOST = RESULT_SCHEMA["properties"]["scores"]["maxItems"]


def create(api: APIClient, seats: int):
    return api.post("/api/records/", {"game_slug": "chess", "result_only": True,
                                      "seats": [{"player": f"P{n}"} for n in range(seats)]}, format="json")


@pytest.mark.parametrize("seats", [MOST + 1, 1000])
def test_more_seats_than_a_result_lists_are_refused(api, seats):
    response = create(api, seats)
    assert response.status_code == 400, response.content[:300]
    assert response.json()["reason"] == "too_many_seats" and response.json()["field"] == "seats"
    assert response.json()["limit"] == MOST == 100
    assert GameRecord.objects.count() == 0 and Player.objects.count() == 0


def test_as_many_seats_as_a_result_lists_take_their_result(api):
    response = create(api, MOST)
    assert response.status_code == 201
    scores = [{"seat": seat, "score": seat} for seat in range(MOST)]
    appended = api.post(f"/api/records/{response.json()['id']}/events/",
                        {"expected_seq": 0, "type": "result", "payload": {"scores": scores}}, format="json")
    assert appended.status_code == 201
    assert GameRecord.objects.get().status == GameRecord.Status.FINISHED
