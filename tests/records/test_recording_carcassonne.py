"""Base Carcassonne on the platform: recorded through the API, replayed, exported, drawn, kept."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from games.registry import get_engine
from records import files, replay
from records.models import Event, GameRecord
from records.services import position
from scoring.models import SeatResult
from tests.factories import create_record, post_event, simulated_document

pytestmark = pytest.mark.django_db
CC = "carcassonne"


def document(players: int, seed: int) -> dict:
    return simulated_document(CC, players, seed)


def create(api: APIClient, players: int, seed: int | None) -> int:
    return create_record(api, CC, players, seed)


post = post_event


def test_a_simulated_game_recorded_event_by_event_gives_the_engines_final_scores(
    api, celery_eager, django_capture_on_commit_callbacks,
):
    game = document(4, 6)
    record_id = create(api, 4, 6)
    with django_capture_on_commit_callbacks(execute=True):
        for index, event in enumerate(game["events"]):
            response = post(api, record_id, index, event["type"], event["payload"])
            assert response.status_code == 201, (index, response.data)
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == GameRecord.Status.FINISHED and record.ruleset_version == "carcassonne-base@1"
    stored = [r.score for r in SeatResult.objects.filter(record=record).order_by("seat__seat_order")]
    assert stored == game["final_scores"]
    engine = get_engine(CC)
    state = engine.new_state(4, 6)
    for event in game["events"]:
        engine.apply(state, event["type"], event["payload"])
    assert [s.score for s in engine.final_scores(state)] == stored


def test_a_seeded_record_draws_the_tile_and_an_illegal_one_stores_nothing(api):
    record_id = create(api, 2, 9)
    drawn = api.get(f"/api/records/{record_id}/state/").data["position"]["next_tile"]
    wrong = post(api, record_id, 0, "place_tile", {"x": 5, "y": 5, "rotation": 0})
    assert wrong.status_code == 422 and wrong.data["reason"] == "not_adjacent"
    assert not Event.objects.filter(record_id=record_id).exists()
    engine = get_engine(CC)
    state = engine.new_state(2, 9)
    legal = next(a for a in state.legal_actions() if a.meeple is None and not a.discard)
    good = post(api, record_id, 0, "place_tile", {"x": legal.x, "y": legal.y, "rotation": legal.rotation})
    assert good.status_code == 201, good.data
    assert Event.objects.get(record_id=record_id).payload["tile"] == drawn
    shape = post(api, record_id, 1, "place_tile", {"x": 0, "y": 0, "rotation": 45})
    assert shape.status_code == 400 and shape.data["field"] == "payload.rotation"


def test_positions_equal_a_file_replay_and_export_round_trips(api, settings):
    settings.LUDOLOG_SNAPSHOT_EVERY = 10
    game = document(3, 2)
    imported = api.post("/api/records/import/", game, format="json")
    assert imported.status_code == 201, imported.data
    record = GameRecord.objects.get(pk=imported.data["id"])
    last = len(game["events"])
    for at in (0, 1, 9, 10, 11, 35, last):
        answer = position(record, at)
        assert answer == files.document_position(game, at), at
        fresh, _seq = replay.state_at(record, at, use_snapshots=False)
        assert answer["position"] == get_engine(CC).view(fresh), at
    first = files.dumps(api.get(f"/api/records/{record.pk}/export/").data)
    again = api.post("/api/records/import/", json.loads(first), format="json")
    assert files.dumps(api.get(f"/api/records/{again.data['id']}/export/").data) == first


def test_simulate_is_the_same_for_the_same_seed():
    first, second = io.StringIO(), io.StringIO()
    call_command("simulate", CC, "--players", "5", "--seed", "4", stdout=first)
    call_command("simulate", CC, "--players", "5", "--seed", "4", stdout=second)
    assert first.getvalue() == second.getvalue()
    events = json.loads(first.getvalue())["events"]
    assert len(events) == 71, "every tile of the pile is laid or discarded, one event each"


def test_the_replay_page_draws_the_tiles_and_the_meeples(client):
    game = document(3, 7)
    record = files.import_document(game)
    html = client.get(f"/games/{record.pk}/replay/?at=20").content.decode()
    assert 'class="board carcassonne"' in html and 'data-at="20"' in html
    assert "Farmers lie down" in html and "Huts and hunters" not in html
    board = client.get(f"/games/{record.pk}/replay/board/?at=20").content.decode()
    assert len(re.findall(r'<g class="tile[ "]', board)) == 21, "the start tile and the first 20 laid"
    on_board = engine_meeples(game, 20)
    assert len(re.findall(r'<g class="meeple ', board)) == on_board
    french = client.get(f"/games/{record.pk}/replay/board/?at=20", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tuiles restantes" in french


def engine_meeples(game: dict, at: int) -> int:
    engine = get_engine(CC)
    state = engine.new_state(len(game["players"]), game["setup"]["seed"])
    for event in game["events"][:at]:
        engine.apply(state, event["type"], event["payload"])
    return len(state.view()["meeples"])


def recorder_data(page: str) -> dict:
    return json.loads(re.search(r'<script id="recorder-data" type="application/json">(.*?)</script>', page, re.S)[1])


def test_the_scorekeeping_page_takes_carcassonne_notation(client):
    client.force_login(User.objects.create_user("table", password="pw"))
    client.post("/scorekeeping/", {"game": CC, "seat_1": "Ada", "seat_2": "Bo", "new_1": "Ada", "new_2": "Bo",
                                   "played_on": "2026-11-29"})
    record = GameRecord.objects.get(game_slug=CC)
    page = client.get(f"/scorekeeping/{record.pk}/").content.decode()
    assert "V@1,0r90 meeple:2" in page, "the notation form shows the game's own example"
    options = recorder_data(page)["table"]["options"]
    assert options["drawn"] is None and options["spots"] == [], "without a seed the tile is picked first"
    assert sum(entry["left"] for entry in options["pile"]) == 71
    laid = client.post(f"/scorekeeping/{record.pk}/", {"action": "E@0,-1r180 meeple:0", "expected_seq": 0})
    assert laid.status_code == 302, laid.content.decode()[:300]
    assert Event.objects.get(record=record).payload == {"tile": "E", "x": 0, "y": -1, "rotation": 180, "meeple": 0}
    scores = client.get(f"/api/records/{record.pk}/state/").json()["position"]["scores"]
    assert scores[0]["breakdown"]["city"] == 4, "E closes the start tile's city: 2 tiles, 4 points"
    refused = client.post(f"/scorekeeping/{record.pk}/", {"action": "U@5,5r0", "expected_seq": 1})
    assert refused.status_code == 422 and "not_adjacent" in refused.content.decode()


def test_a_seeded_scorekeeping_page_offers_where_the_drawn_tile_fits(client):
    client.force_login(User.objects.create_user("table", password="pw"))
    client.post("/scorekeeping/", {"game": CC, "seat_1": "Ada", "seat_2": "Bo", "new_1": "Ada", "new_2": "Bo",
                                   "seed": "9", "played_on": "2026-11-29"})
    record = GameRecord.objects.get(game_slug=CC)
    page = client.get(f"/scorekeeping/{record.pk}/").content.decode()
    state = get_engine(CC).new_state(2, 9)
    fits = {(a.x, a.y, a.rotation) for a in state.legal_actions() if a.meeple is None}
    options = recorder_data(page)["table"]["options"]
    offered = {(spot["x"], spot["y"], r["rotation"]) for spot in options["spots"] for r in spot["rotations"]}
    assert options["drawn"] == state.next_tile and offered == fits and fits
    x, y, rotation = sorted(fits)[0]
    first = client.post(f"/scorekeeping/{record.pk}/", {"action": f"{state.next_tile}@{x},{y}r{rotation}",
                                                        "expected_seq": 0})
    assert first.status_code == 302