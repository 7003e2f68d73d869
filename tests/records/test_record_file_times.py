"""An imported event's ``recorded_at`` is a time the site can store and show in any time zone, or
the file is refused naming the event, whichever way it is imported: the API, ``import_record``,
``import_records``. Nothing is stored for a refused file."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from records.models import Event, GameRecord, Player
from tests.factories import simulated_document

pytestmark = pytest.mark.django_db

UNSHOWABLE_TIMES = [
    "9999-12-31T23:59:59-14:00",  # past the last year once in UTC
    "0001-01-01T00:00:00+14:00",  # before the first year once in UTC
    "9999-12-31T23:59:59",  # taken as UTC, past the last year in Paris
    "0001-01-01T00:00:00Z",  # before the first year west of Greenwich
    "1899-12-31T23:59:59Z",  # before any record was kept
    "3026-01-01T00:00:00Z",  # not recorded yet
    "2026-01-01T00:00:00+24:00",  # no such offset
    "2026-01-01T24:00:00Z",
    "garbage",
]


def file_with_time(recorded_at: str) -> dict:
    document = simulated_document("carcassonne", 2, 3)
    document["events"][1]["recorded_at"] = recorded_at
    return document


@pytest.fixture
def api() -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(get_user_model().objects.create_user("importer"))
    return client


def assert_nothing_stored() -> None:
    assert not GameRecord.objects.exists() and not Event.objects.exists() and not Player.objects.exists()


@pytest.mark.parametrize("recorded_at", UNSHOWABLE_TIMES)
def test_the_api_refuses_an_event_time_it_could_not_show_naming_the_event(api: APIClient, recorded_at: str):
    answer = api.post("/api/records/import/", file_with_time(recorded_at), format="json")
    assert answer.status_code == 400, (answer.status_code, answer.content[:300])
    body = answer.json()
    assert (body["reason"], body["field"], body["event"]) == ("invalid_record_file", "events.1.recorded_at", 2), body
    assert recorded_at in body["detail"]
    assert_nothing_stored()


@pytest.mark.parametrize("recorded_at", UNSHOWABLE_TIMES)
def test_the_import_commands_refuse_it_too(tmp_path: Path, recorded_at: str):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(file_with_time(recorded_at)), encoding="utf-8")
    with pytest.raises(CommandError, match=r"invalid_record_file: event 2: recorded_at"):
        call_command("import_record", str(path))
    with pytest.raises(CommandError, match=r"game.json: invalid_record_file: event 2: recorded_at"):
        call_command("import_records", str(path))
    assert_nothing_stored()


@pytest.mark.parametrize("recorded_at, stored", [
    ("2026-03-01T21:15:30+14:00", dt.datetime(2026, 3, 1, 7, 15, 30, tzinfo=dt.timezone.utc)),
    ("1900-01-01T00:00:00Z", dt.datetime(1900, 1, 1, tzinfo=dt.timezone.utc)),
    ("2026-03-01T21:15:30", dt.datetime(2026, 3, 1, 21, 15, 30, tzinfo=dt.timezone.utc)),  # naive: UTC
])
def test_a_time_in_range_is_stored_and_shown(api: APIClient, recorded_at: str, stored: dt.datetime):
    answer = api.post("/api/records/import/", file_with_time(recorded_at), format="json")
    assert answer.status_code == 201, answer.content[:300]
    record = answer.json()["id"]
    assert Event.objects.get(record_id=record, seq=2).recorded_at == stored
    events = api.get(f"/api/records/{record}/events/")
    assert events.status_code == 200
    assert api.get(f"/api/records/{record}/export/").json()["events"][1]["recorded_at"] == stored.isoformat()
