"""Stone Age on the platform: recorded through the API, replayed, exported, drawn, kept by hand."""

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
SA = "stone-age"


def document(players: int, seed: int) -> dict:
    return simulated_document(SA, players, seed)


def create(api: APIClient, players: int, seed: int | None) -> int:
    return create_record(api, SA, players, seed)


post = post_event


def test_a_simulated_game_recorded_event_by_event_gives_the_engines_final_scores(
    api, celery_eager, django_capture_on_commit_callbacks,
):
    game = document(3, 5)
    record_id = create(api, 3, 5)
    with django_capture_on_commit_callbacks(execute=True):
        for index, event in enumerate(game["events"]):
            response = post(api, record_id, index, event["type"], event["payload"])
            assert response.status_code == 201, (index, response.data)
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == GameRecord.Status.FINISHED
    stored = [r.score for r in SeatResult.objects.filter(record=record).order_by("seat__seat_order")]
    assert stored == game["final_scores"]
    engine = get_engine(SA)
    state = engine.new_state(3, 5)
    for event in game["events"]:
        engine.apply(state, event["type"], event["payload"])
    assert [s.score for s in engine.final_scores(state)] == stored
    assert post(api, record_id, len(game["events"]), "feed", {"starve": True}).status_code == 409


def test_a_seeded_record_rolls_the_dice_itself_and_stores_them(api):
    record_id = create(api, 2, 11)
    assert post(api, record_id, 0, "place", {"location": "forest", "people": 5}).status_code == 201
    state = api.get(f"/api/records/{record_id}/state/").data["position"]
    assert state["current_player"] == 1 and state["phase"] == "placement"
    refused = post(api, record_id, 1, "place", {"location": "forest", "people": 2})
    assert refused.status_code == 422 and refused.data["reason"] == "site_limit", "two players: one tribe a site"
    assert Event.objects.filter(record_id=record_id).count() == 1
    post(api, record_id, 1, "place", {"location": "hunting_grounds", "people": 5})
    gathered = post(api, record_id, 2, "resolve", {"location": "forest"})
    assert gathered.status_code == 201, gathered.data
    dice = Event.objects.get(record_id=record_id, seq=3).payload["dice"]
    assert len(dice) == 5 and all(1 <= d <= 6 for d in dice)
    wood = api.get(f"/api/records/{record_id}/state/").data["position"]["tribes"][0]["resources"]["wood"]
    assert wood == sum(dice) // 3
    assert api.get(f"/api/records/{record_id}/events/").data["results"][2]["notation"] == (
        "resolve forest dice=" + ",".join(map(str, dice)))


def test_an_unseeded_record_is_told_the_cards_and_buildings_turned_up(api):
    record_id = create(api, 2, None)
    waiting = api.get(f"/api/records/{record_id}/state/").data["position"]
    assert waiting["current_player"] is None and waiting["prompt"] == {
        "phase": "reveal", "seat": None, "cards": 4, "stacks": ["building1", "building2"]}, "the table names, no one plays"
    early = post(api, record_id, 0, "place", {"location": "forest", "people": 1})
    assert early.status_code == 422 and early.data["reason"] == "wrong_phase"
    bad = post(api, record_id, 0, "reveal", {"cards": ["C01", "C01", "C02", "C03"],
                                             "buildings": {"building1": "B01", "building2": "B02"}})
    assert bad.status_code == 422 and bad.data["reason"] == "wrong_card"
    shape = post(api, record_id, 0, "reveal", {"cards": ["C1"]})
    assert shape.status_code == 400 and shape.data["field"] == "payload.cards.0"
    good = post(api, record_id, 0, "reveal", {"cards": ["C07", "C17", "C30", "C09"],
                                              "buildings": {"building1": "B03", "building2": "B21"}})
    assert good.status_code == 201, good.data
    position_now = api.get(f"/api/records/{record_id}/state/").data["position"]
    assert [slot["card"] for slot in position_now["civilisation_cards"]] == ["C07", "C17", "C30", "C09"]
    assert [stack["top"] for stack in position_now["building_stacks"]] == ["B03", "B21"]
    assert post(api, record_id, 1, "place", {"location": "card2"}).status_code == 201
    no_dice = post(api, record_id, 2, "place", {"location": "hunting_grounds", "people": 5})
    assert no_dice.status_code == 201


def test_positions_equal_a_file_replay_with_and_without_snapshots_and_export_round_trips(api, settings):
    settings.LUDOLOG_SNAPSHOT_EVERY = 50
    game = document(2, 8)
    imported = api.post("/api/records/import/", game, format="json")
    assert imported.status_code == 201, imported.data
    record = GameRecord.objects.get(pk=imported.data["id"])
    last = len(game["events"])
    for at in list(range(0, last + 1, 37)) + [last]:
        answer = position(record, at)
        assert answer == files.document_position(game, at), at
        fresh, _seq = replay.state_at(record, at, use_snapshots=False)
        assert answer["position"] == fresh.view(), at
    first = files.dumps(api.get(f"/api/records/{record.pk}/export/").data)
    again = api.post("/api/records/import/", json.loads(first), format="json")
    assert files.dumps(api.get(f"/api/records/{again.data['id']}/export/").data) == first


def test_simulate_and_replay_commands(tmp_path):
    out = io.StringIO()
    call_command("simulate", SA, "--players", "4", "--seed", "3", stdout=out)
    path = tmp_path / "game.json"
    path.write_text(out.getvalue())
    again = io.StringIO()
    call_command("simulate", SA, "--players", "4", "--seed", "3", stdout=again)
    assert again.getvalue() == out.getvalue(), "the same seed gives the same file"
    shown = io.StringIO()
    call_command("replay", str(path), "--json", stdout=shown)
    final = json.loads(shown.getvalue())
    assert final["is_over"] and [s["total"] for s in final["position"]["scores"]] == json.loads(out.getvalue())[
        "final_scores"]


def test_the_replay_page_draws_the_village_the_card_row_and_the_tribes(client):
    record = files.import_document(document(3, 4))
    html = client.get(f"/games/{record.pk}/replay/?at=20").content.decode()
    assert 'class="board stone-age"' in html and 'data-at="20"' in html
    start = client.get(f"/games/{record.pk}/replay/?at=0").content.decode()
    assert "Start of the game." in start and "start tile" not in start and "Hunters lie down" not in start
    assert "Huts and hunters" not in start and "civilisation cards and their multipliers" in start
    board = client.get(f"/games/{record.pk}/replay/board/?at=20").content.decode()
    assert len(re.findall(r'<g class="tribe', board)) == 3
    assert len(re.findall(r'<g class="card-space"', board)) == 4
    assert "Hunting grounds" in board and "Stone Age, round" in board
    french = client.get(f"/games/{record.pk}/replay/board/?at=20", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Zone de chasse" in french


def test_the_scorekeeping_page_takes_stone_age_notation(client):
    keeper = User.objects.create_user("table", password="pw")
    client.force_login(keeper)
    response = client.post("/scorekeeping/", {"game": SA, "seat_1": "Ada", "seat_2": "Bo", "new_1": "Ada", "new_2": "Bo", "seed": "21",
                                               "played_on": "2026-11-29"})
    record = GameRecord.objects.get(game_slug=SA)
    assert response.status_code == 302
    start = client.get(f"/scorekeeping/{record.pk}/").content.decode()
    assert "place forest 3; resolve forest dice=3,5,6" in start, "the notation form shows the game's own example"
    assert 'data-testid="confirm"' in start and "recorder-stone-age.js" in start
    places = {p["place"]: p["counts"] for p in client.get(f"/api/records/{record.pk}/options/").json()["places"]}
    assert places["forest"] == [1, 2, 3, 4, 5] and places["hut"] == [2]
    page = client.post(f"/scorekeeping/{record.pk}/", {"action": "place forest 3", "expected_seq": 0})
    assert page.status_code == 302, page.content.decode()[:500]
    assert Event.objects.get(record=record).payload == {"location": "forest", "people": 3}
    french = client.get(f"/scorekeeping/{record.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "À Bo de jouer" in french and "Zone de chasse" in french
    places = {p["place"] for p in client.get(f"/api/records/{record.pk}/options/").json()["places"]}
    assert "clay_pit" in places and "forest" not in places, "with 2 players only one tribe uses the forest"
    refused = client.post(f"/scorekeeping/{record.pk}/", {"action": "place forest 2", "expected_seq": 1})
    assert refused.status_code == 422 and "only 1 tribe" in refused.content.decode()
