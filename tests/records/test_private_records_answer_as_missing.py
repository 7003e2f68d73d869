"""A private record answers exactly as a missing one to someone who may not see it.

Whoever may not read a record (the anonymous visitor, a logged-in user who neither keeps it nor sits
at it, with a session or an API token) gets, from every route that names a record by its id, the
same status and the same body for a private record as for an id that was never used: nothing tells
them that the id is taken. Someone who may read a record but not record its actions (a public
record, an unrelated user) is still told 403, with the reason.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from records.models import GameRecord
from records.services import SeatSpec, start_game
from scoring.models import Club, League
from tests.factories import HG, event

APPEND = {"expected_seq": 0, "type": "place", "payload": {}}

ROUTES = [
    ("GET", "/api/records/{id}/"),
    ("GET", "/api/records/{id}/events/"),
    ("GET", "/api/records/{id}/state/"),
    ("GET", "/api/records/{id}/state/?at=1"),
    ("GET", "/api/records/{id}/options/"),
    ("GET", "/api/records/{id}/export/"),
    ("GET", "/api/records/{id}/results/"),
    ("GET", "/api/records/{id}/scoring/"),
    ("POST", "/api/records/{id}/events/"),
    ("OPTIONS", "/api/records/{id}/events/"),
    ("HEAD", "/api/records/{id}/"),
    ("DELETE", "/api/records/{id}/"),
    ("GET", "/games/{id}/"),
    ("GET", "/games/{id}/replay/"),
    ("GET", "/games/{id}/replay/board/?at=1"),
    ("GET", "/scorekeeping/{id}/"),
    ("POST", "/scorekeeping/{id}/"),
    ("GET", "/scorekeeping/{id}/table/"),
    ("POST", "/scorekeeping/{id}/table/"),
    ("POST", "/api/leagues/{league}/rulings/"),  # the record named in the body
]

VIEWERS = ["anonymous", "unrelated_session", "unrelated_token"]


@pytest.fixture
def private_record(db) -> GameRecord:
    keeper = User.objects.create_user("keeper")
    record = start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=1, created_by=keeper,
                        is_private=True)
    from records.services import append_event

    kind, payload = event(0)
    append_event(record, 0, kind, payload, recorded_by=keeper)
    League.objects.create(club=Club.objects.create(name="Club"), name="Season", starts_on=dt.date(2026, 1, 1),
                          ends_on=dt.date(2026, 12, 31))
    return record


def client_for(viewer: str) -> APIClient:
    client = APIClient()
    if viewer == "anonymous":
        return client
    user = User.objects.create_user(f"stranger-{viewer}")
    if viewer == "unrelated_session":
        client.force_login(user)
    else:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def answer(client: APIClient, method: str, route: str, pk: int) -> tuple[int, str, bytes]:
    league = League.objects.values_list("pk", flat=True).first()
    path = route.format(id=pk, league=league)
    if method != "POST":
        response = client.generic(method, path)
    elif route.startswith("/scorekeeping/{id}/") and not route.endswith("table/"):
        response = client.post(path, {"action": "undo", "expected_seq": "1"})
    elif "{league}" in route:
        response = client.post(path, {"record": pk, "counts": True}, format="json")
    else:
        response = client.post(path, json.dumps(APPEND), content_type="application/json")
    # The id the asker typed is theirs to see again (a login redirect's "next", a 404 page's path);
    # anything else that differs would tell a taken id from a free one.
    body = response.content.replace(path.encode(), route.encode())
    return response.status_code, response.get("Location", "").replace(path, route), body


@pytest.mark.django_db
@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("method, route", ROUTES)
def test_a_private_record_answers_as_a_missing_one(private_record, viewer, method, route):
    client = client_for(viewer)
    missing = GameRecord.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
    hidden = answer(client, method, route, private_record.pk)
    absent = answer(client, method, route, missing)
    assert hidden == absent
    if method == "OPTIONS":  # the route's description, the same for any id
        assert hidden[0] == 200
    else:
        assert hidden[0] in (302, 403, 404, 405), hidden
    if hidden[0] == 404 and route.startswith("/api/") and method != "HEAD":
        assert json.loads(hidden[2]) == {"reason": "not_found", "detail": "Not found."}


@pytest.mark.django_db
def test_who_may_read_but_not_record_is_told_so(private_record):
    """A public record's actions are recorded by its scorekeepers and seated players only: an
    unrelated user learns that with a 403 and its reason, and nothing is stored."""
    GameRecord.objects.filter(pk=private_record.pk).update(is_private=False)
    for viewer in ("unrelated_session", "unrelated_token"):
        response = client_for(viewer).post(f"/api/records/{private_record.pk}/events/", APPEND, format="json")
        assert response.status_code == 403
        assert response.json()["reason"] == "permission_denied"
    assert private_record.events.count() == 1
