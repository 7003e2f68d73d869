"""An imported record's events are recorded by the user who imported it.

A record file says who recorded each event (``recorded_by``, a name). A file can say anything:
taken as an account, it let a user who is not staff credit an administrator with moves they
never made, hash chain included. The importer is the account credited; the file's name is kept
as text, "recorded by (per file)".
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from records.integrity import verify_store
from records.models import Event, GameRecord
from tests.factories import simulated_document

pytestmark = pytest.mark.django_db


def _file_claiming(author: str) -> dict:
    document = simulated_document("carcassonne", 2, 3)
    for event in document["events"]:
        event["recorded_by"] = author
    return document


def test_a_file_naming_an_administrator_credits_the_importer_and_keeps_the_name_as_text():
    admin = User.objects.create_superuser("admin", password="x")
    importer = User.objects.create_user("mallory")
    api = APIClient()
    api.force_authenticate(importer)
    response = api.post("/api/records/import/", _file_claiming("admin"), format="json")
    assert response.status_code == 201, response.content
    events = Event.objects.filter(record_id=response.json()["id"])
    assert events.exists()
    assert set(events.values_list("recorded_by_id", flat=True)) == {importer.pk}
    assert set(events.values_list("recorded_by_per_file", flat=True)) == {"admin"}
    assert not Event.objects.filter(recorded_by=admin).exists()
    # The chain was computed with the importer as author: it verifies as stored.
    assert verify_store(response.json()["id"]).ok
    history = api.get(f"/api/records/{response.json()['id']}/events/").json()["results"]
    assert {line["recorded_by"] for line in history} == {"mallory"}


def test_a_command_line_import_credits_no_account(tmp_path):
    User.objects.create_superuser("admin", password="x")
    path = tmp_path / "game.json"
    import json

    path.write_text(json.dumps(_file_claiming("admin")), encoding="utf-8")
    call_command("import_record", str(path))
    record = GameRecord.objects.get()
    assert set(record.events.values_list("recorded_by_id", flat=True)) == {None}
    assert set(record.events.values_list("recorded_by_per_file", flat=True)) == {"admin"}


def test_the_export_of_an_imported_record_names_the_importer():
    importer = User.objects.create_user("mallory")
    api = APIClient()
    api.force_authenticate(importer)
    record_id = api.post("/api/records/import/", _file_claiming("admin"), format="json").json()["id"]
    exported = api.get(f"/api/records/{record_id}/export/").json()
    assert {event["recorded_by"] for event in exported["events"]} == {"mallory"}
