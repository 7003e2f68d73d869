"""Recording and replaying games through the API: the engine checks every action as it arrives."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from games.engines.hunters_gatherers import Action, Game, IllegalAction
from games.registry import get_engine
from records import files, replay
from records.models import Event, GameRecord, Snapshot
from records.services import position
from scoring.models import SeatResult
from tests import factories
from tests.factories import HG, post_event, simulated_events

pytestmark = pytest.mark.django_db

ENGINE = get_engine(HG)
ILLEGAL_REASONS = {
    "edge_mismatch", "feature_occupied", "no_supply", "not_adjacent", "not_your_turn", "occupied",
    "river_system_occupied", "tile_not_in_bag", "tile_placeable", "unknown_feature", "wrong_feature", "wrong_tile",
}
"""Every reason code the engine raises for an action, except ``game_over``: a finished record
refuses appends before the engine is asked (409, tested below)."""


def create_record(api: APIClient, players: int, seed: int | None) -> int:
    """A Hunters and Gatherers record of ``players`` created through the API."""
    return factories.create_record(api, HG, players, seed)


def record_game(api: APIClient, players: int, seed: int) -> int:
    record_id = create_record(api, players, seed)
    for index, (kind, payload) in enumerate(simulated_events(players, seed)):
        response = post_event(api, record_id, index, kind, payload)
        assert response.status_code == 201, (index, response.data)
    return record_id


def final_engine_scores(players: int, seed: int) -> list[int]:
    game = Game.new(players, seed)
    for kind, payload in simulated_events(players, seed):
        ENGINE.apply(game, kind, payload)
    return [score.total for score in game.scores()]


def test_a_simulated_game_recorded_event_by_event_reproduces_the_engine_scores(
    api, django_capture_on_commit_callbacks, celery_eager
):
    with django_capture_on_commit_callbacks(execute=True):
        record_id = record_game(api, 3, 11)
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == GameRecord.Status.FINISHED
    expected = final_engine_scores(3, 11)
    stored = list(SeatResult.objects.filter(record=record).order_by("seat__seat_order").values_list("score", flat=True))
    assert stored == expected
    state = api.get(f"/api/records/{record_id}/state/").data
    assert [s["total"] for s in state["position"]["scores"]] == expected
    assert state["is_over"] is True


def test_appending_after_the_game_is_over_answers_409(api):
    record_id = record_game(api, 2, 3)
    last = Event.objects.filter(record_id=record_id).count()
    kind, payload = simulated_events(2, 3)[0]
    response = post_event(api, record_id, last, kind, payload)
    assert response.status_code == 409
    assert response.data["reason"] == "record_closed"
    assert Event.objects.filter(record_id=record_id).count() == last


def find_illegal_examples(players: int, seed: int | None) -> dict[str, tuple[int, str, dict[str, Any]]]:
    """Walk a simulated game and mutate each real action until every refusal has an example.

    Returns reason → (step, type, payload): the action refused at that step of the game.
    """
    events = simulated_events(players, 5 if seed is None else seed)
    game = Game.new(players, seed)
    found: dict[str, tuple[int, str, dict[str, Any]]] = {}
    placed: list[str] = []
    for step, (kind, payload) in enumerate(events):
        candidates: list[tuple[str, dict[str, Any]]] = []
        if kind == "place_tile":
            x = payload["x"]
            base = {k: payload[k] for k in ("tile", "x", "y", "rotation")}
            candidates += [
                ("place_tile", dict(base, x=x + 50)),
                ("place_tile", dict(base, x=0, y=0)),
                ("discard_tile", {"tile": payload["tile"]}),
                ("place_tile", dict(base, seat=(step + 1) % players if game.current_player is None else (game.current_player + 1) % players)),
                ("place_tile", dict(base, feature=99, figure="hunter")),
            ]
            candidates += [("place_tile", dict(base, rotation=r)) for r in (0, 90, 180, 270) if r != payload["rotation"]]
            candidates += [("place_tile", dict(base, tile=t)) for t in placed[-1:]]
            candidates += [("place_tile", dict(base, tile=t)) for t in game.landscape_left[-1:] if t != payload["tile"]]
            tile = game.tileset.by_id[payload["tile"]]
            for feature in tile.record["features"]:
                for figure in ("gatherer", "fisher", "hunter", "hut"):
                    candidates.append(("place_tile", dict(base, figure=figure, feature=feature["id"])))
        for candidate_kind, candidate in candidates:
            # A refused action leaves the game unchanged; an accepted one is taken back.
            try:
                ENGINE.apply(game, candidate_kind, candidate)
            except IllegalAction as refusal:
                found.setdefault(refusal.reason, (step, candidate_kind, candidate))
            else:
                game.undo()
        if ILLEGAL_REASONS <= set(found):
            break
        ENGINE.apply(game, kind, payload)
        if kind == "place_tile":
            placed.append(payload["tile"])
    return found


@pytest.fixture(scope="module")
def illegal_examples() -> dict[str, tuple[int | None, int, str, dict[str, Any]]]:
    examples: dict[str, tuple[int | None, int, str, dict[str, Any]]] = {}
    for seed in (None, 9):
        for reason, (step, kind, payload) in find_illegal_examples(4, seed).items():
            examples.setdefault(reason, (seed, step, kind, payload))
    return examples


def test_the_walk_finds_an_example_of_every_refusal(illegal_examples):
    assert ILLEGAL_REASONS <= set(illegal_examples), ILLEGAL_REASONS - set(illegal_examples)


@pytest.mark.parametrize("reason", sorted(ILLEGAL_REASONS))
def test_every_illegal_action_is_refused_with_its_reason_and_stores_nothing(api, illegal_examples, reason):
    seed, step, kind, payload = illegal_examples[reason]
    record_id = create_record(api, 4, seed)
    for index, (good_kind, good_payload) in enumerate(simulated_events(4, 5 if seed is None else seed)[:step]):
        assert post_event(api, record_id, index, good_kind, good_payload).status_code == 201
    before = list(Event.objects.filter(record_id=record_id).values_list("seq", "payload"))
    response = post_event(api, record_id, step, kind, payload)
    assert response.status_code == 422, response.data
    assert response.data["reason"] == reason
    assert response.data["detail"]
    assert list(Event.objects.filter(record_id=record_id).values_list("seq", "payload")) == before


def test_the_edge_mismatch_message_names_the_side_and_the_neighbour(api, illegal_examples):
    seed, step, kind, payload = illegal_examples["edge_mismatch"]
    record_id = create_record(api, 4, seed)
    for index, (good_kind, good_payload) in enumerate(simulated_events(4, 5 if seed is None else seed)[:step]):
        post_event(api, record_id, index, good_kind, good_payload)
    detail = post_event(api, record_id, step, kind, payload).data["detail"]
    assert "edge is" in detail and "neighbour at (" in detail


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"tile": "L01", "x": 0, "y": 1, "rotation": 45}, "payload.rotation"),
        ({"tile": "L01", "y": 1, "rotation": 0}, "payload.x"),
        ({"tile": "L01", "x": 0, "y": 1, "rotation": 0, "figure": "wizard", "feature": 0}, "payload.figure"),
        ({"tile": "L01", "x": 0, "y": 1, "rotation": 0, "colour": "red"}, "payload.colour"),
    ],
)
def test_a_payload_that_does_not_fit_the_schema_answers_400_naming_the_field(api, payload, field):
    record_id = create_record(api, 2, None)
    response = post_event(api, record_id, 0, "place_tile", payload)
    assert response.status_code == 400, response.data
    assert response.data["field"] == field
    assert not Event.objects.filter(record_id=record_id).exists()


def test_an_unknown_event_type_answers_400(api):
    record_id = create_record(api, 2, None)
    response = post_event(api, record_id, 0, "move_pawn", {})
    assert response.status_code == 400 and response.data["reason"] == "unknown_event_type"


def test_a_seeded_record_draws_the_tile_itself_and_stores_it(api):
    record_id = create_record(api, 2, 1)
    kind, payload = simulated_events(2, 1)[0]
    without_tile = {k: v for k, v in payload.items() if k != "tile"}
    response = post_event(api, record_id, 0, kind, without_tile)
    assert response.status_code == 201, response.data
    assert Event.objects.get(record_id=record_id, seq=1).payload["tile"] == payload["tile"]


def test_undo_retracts_the_last_action_and_the_history_shows_it(api, keeper):
    record_id = create_record(api, 2, 1)
    events = simulated_events(2, 1)
    for index in range(3):
        post_event(api, record_id, index, *events[index])
    before_third = api.get(f"/api/records/{record_id}/state/", {"at": 2}).data
    assert post_event(api, record_id, 3, "undo", {}).status_code == 201
    after_undo = api.get(f"/api/records/{record_id}/state/").data
    assert after_undo["position"] == before_third["position"]
    # the same third action can be recorded again after the correction
    assert post_event(api, record_id, 4, *events[2]).status_code == 201
    history = api.get(f"/api/records/{record_id}/events/").data["results"]
    assert [(line["seq"], line["type"], line["retracted_by"]) for line in history] == [
        (1, "place_tile", None), (2, "place_tile", None), (3, "place_tile", 4), (4, "undo", None), (5, "place_tile", None),
    ]
    assert history[3]["recorded_by"] == "keeper" and history[3]["notation"] == "undo"


def test_undo_with_nothing_to_undo_is_refused(api):
    record_id = create_record(api, 2, 1)
    response = post_event(api, record_id, 0, "undo", {})
    assert response.status_code == 422 and response.data["reason"] == "nothing_to_undo"


def test_position_at_every_step_equals_a_fresh_replay_with_and_without_snapshots(api, settings):
    settings.LUDOLOG_SNAPSHOT_EVERY = 5
    record_id = record_game(api, 2, 4)
    record = GameRecord.objects.get(pk=record_id)
    assert Snapshot.objects.filter(record=record).count() == len(simulated_events(2, 4)) // 5
    document = files.simulate_document(HG, 2, 4, ["P0", "P1"])
    with_snapshots = [position(record, n) for n in range(len(document["events"]) + 1)]
    for n, answer in enumerate(with_snapshots):
        fresh, _seq = replay.state_at(record, n, use_snapshots=False)
        assert answer["position"] == get_engine(HG).view(fresh), n
        assert answer == files.document_position(document, n), n
    call_command("rebuild_snapshots", stdout=io.StringIO())
    assert [position(record, n) for n in range(len(with_snapshots))] == with_snapshots
    Snapshot.objects.all().delete()
    assert [position(record, n) for n in range(len(with_snapshots))] == with_snapshots


def test_state_at_out_of_range_answers_400(api):
    record_id = create_record(api, 2, 1)
    assert api.get(f"/api/records/{record_id}/state/", {"at": 5}).data["reason"] == "at_out_of_range"
    assert api.get(f"/api/records/{record_id}/state/", {"at": "x"}).status_code == 400


def test_export_import_export_gives_the_same_file(api):
    record_id = record_game(api, 3, 8)
    first = files.dumps(api.get(f"/api/records/{record_id}/export/").data)
    imported = api.post("/api/records/import/", json.loads(first), format="json")
    assert imported.status_code == 201, imported.data
    second = files.dumps(api.get(f"/api/records/{imported.data['id']}/export/").data)
    assert second == first


def test_an_imported_record_holds_the_snapshots_a_rebuild_writes(api, settings):
    """The import keeps its snapshots from its own validating replay (one replay, not two)."""
    settings.LUDOLOG_SNAPSHOT_EVERY = 4
    record_id = create_record(api, 2, 5)
    seq = 0
    for index, (kind, payload) in enumerate(simulated_events(2, 5)):
        assert post_event(api, record_id, seq, kind, payload).status_code == 201
        seq += 1
        if index in (5, 30):  # a correction: the undo lands on, or next to, a snapshot place
            assert post_event(api, record_id, seq, "undo", {}).status_code == 201
            assert post_event(api, record_id, seq + 1, kind, payload).status_code == 201
            seq += 2
    imported = api.post("/api/records/import/", api.get(f"/api/records/{record_id}/export/").data, format="json")
    assert imported.status_code == 201, imported.data
    record = GameRecord.objects.get(pk=imported.data["id"])

    def snapshots(of: GameRecord) -> list[tuple[int, Any]]:
        return list(Snapshot.objects.filter(record=of).order_by("seq").values_list("seq", "state"))

    on_import = snapshots(record)
    assert [seq for seq, _state in on_import] == list(range(4, seq + 1, 4))
    assert on_import == snapshots(GameRecord.objects.get(pk=record_id))
    replay.rebuild_snapshots(record)
    assert snapshots(record) == on_import


def test_import_stops_at_the_first_illegal_event_and_stores_nothing(api):
    document = files.simulate_document(HG, 2, 6)
    document["events"][9]["payload"]["x"] += 40
    records_before = GameRecord.objects.count()
    response = api.post("/api/records/import/", document, format="json")
    assert response.status_code == 422
    assert response.data["event"] == 10 and response.data["reason"] == "not_adjacent"
    assert GameRecord.objects.count() == records_before and not Event.objects.exists()


def test_import_record_command_prints_the_id_last_or_fails_with_the_event_number(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(files.dumps(files.simulate_document(HG, 2, 6)))
    out = io.StringIO()
    call_command("import_record", str(good), stdout=out)
    record_id = int(out.getvalue().strip().splitlines()[-1])
    assert GameRecord.objects.get(pk=record_id).status == GameRecord.Status.FINISHED
    broken = files.simulate_document(HG, 2, 6)
    broken["events"][3]["payload"]["rotation"] = 45
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    with pytest.raises(CommandError, match="event 4"):
        call_command("import_record", str(bad), stdout=io.StringIO())
    assert GameRecord.objects.count() == 1


def test_replay_command_json_equals_the_state_endpoint(api, tmp_path):
    record_id = record_game(api, 2, 4)
    path = tmp_path / "game.json"
    path.write_text(files.dumps(api.get(f"/api/records/{record_id}/export/").data))
    for at in (0, 17, None):
        out = io.StringIO()
        call_command("replay", str(path), "--json", *(["--at", str(at)] if at is not None else []), stdout=out)
        endpoint = api.get(f"/api/records/{record_id}/state/", {} if at is None else {"at": at}).data
        assert json.loads(out.getvalue()) == json.loads(json.dumps(endpoint))
    text = io.StringIO()
    call_command("replay", str(path), "--at", "10", stdout=text)
    assert "after event 10 of" in text.getvalue() and "P0:" in text.getvalue()


def test_simulate_prints_the_same_file_for_the_same_seed():
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        call_command("simulate", HG, "--players", "4", "--seed", "7", stdout=out)
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]
    document = json.loads(outputs[0])
    files.validate_document(document)
    assert document["final_scores"] == final_engine_scores(4, 7)


def test_result_only_record_holds_one_result_event_and_is_scored(api, django_capture_on_commit_callbacks, celery_eager):
    response = api.post(
        "/api/records/",
        {"game_slug": "stone-age", "result_only": True, "seats": [{"player": "Ada"}, {"player": "Bo"}, {"player": "Cy"}]},
        format="json",
    )
    assert response.status_code == 201, response.data
    record_id = response.data["id"]
    bad = post_event(api, record_id, 0, "result", {"scores": [{"seat": 0, "score": 10}]})
    assert bad.status_code == 400 and bad.data["field"] == "payload.scores"
    with django_capture_on_commit_callbacks(execute=True):
        good = post_event(
            api, record_id, 0, "result",
            {"scores": [{"seat": 0, "score": 120}, {"seat": 1, "score": 135}, {"seat": 2, "score": 120}]},
        )
    assert good.status_code == 201
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == GameRecord.Status.FINISHED
    assert [(r.score, r.rank) for r in SeatResult.objects.filter(record=record).order_by("seat__seat_order")] == [
        (120, 2), (135, 1), (120, 2),
    ]
    assert api.get(f"/api/records/{record_id}/state/").data["reason"] == "no_engine"


def test_a_game_without_an_engine_can_only_be_result_only(api):
    response = api.post("/api/records/", {"game_slug": "agricola", "seats": [{"player": "Ada"}, {"player": "Bo"}]},
                        format="json")
    assert response.status_code == 400 and response.data["reason"] == "unknown_game"
    assert "result-only" in response.data["detail"]
    assert not GameRecord.objects.exists()


def test_action_notation_in_the_event_list_reads_like_move_text(api):
    record_id = create_record(api, 2, 1)
    kind, payload = simulated_events(2, 1)[0]
    post_event(api, record_id, 0, kind, payload)
    line = api.get(f"/api/records/{record_id}/events/").data["results"][0]
    assert Action.from_dict(payload).to_text() == line["notation"]


def test_an_unreadable_snapshot_is_ignored_and_the_answer_is_unchanged(api, settings):
    settings.LUDOLOG_SNAPSHOT_EVERY = 4
    record_id = create_record(api, 2, 1)
    for index, (kind, payload) in enumerate(simulated_events(2, 1)[:6]):
        post_event(api, record_id, index, kind, payload)
    record = GameRecord.objects.get(pk=record_id)
    expected = position(record, 6)
    Snapshot.objects.filter(record=record).update(state={"snapshot_version": 0})
    assert position(record, 6) == expected


def test_a_result_only_file_must_score_every_seat_like_an_appended_result(api):
    document = {
        "format": "ludolog-record/1", "game": "stone-age", "ruleset_version": "-", "result_only": True,
        "players": [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bo"}, {"seat": 2, "name": "Cy"}],
        "setup": {"seed": None},
        "events": [{"seq": 1, "type": "result", "payload": {"scores": [{"seat": 0, "score": 10}, {"seat": 1, "score": 12}]}}],
    }
    response = api.post("/api/records/import/", document, format="json")
    assert response.status_code == 400, response.data
    assert response.data["event"] == 1 and response.data["field"] == "payload.scores"
    assert not GameRecord.objects.exists()
    document["events"][0]["payload"]["scores"].append({"seat": 2, "score": 9})
    assert api.post("/api/records/import/", document, format="json").status_code == 201


def test_a_clubs_history_goes_out_as_files_and_comes_back_the_same(tmp_path):
    first = files.import_document(files.simulate_document(HG, 2, 3))
    files.import_document(files.simulate_document("stone-age", 2, 4))
    out = io.StringIO()
    call_command("export_records", str(tmp_path / "backup"), stdout=out)
    assert out.getvalue().strip() == f"2 record(s) written to {tmp_path / 'backup'}"
    written = sorted((tmp_path / "backup").glob("*.json"))
    assert [p.name for p in written] == [f"record-{first.pk:06d}-hunters-gatherers.json",
                                         f"record-{first.pk + 1:06d}-stone-age.json"]
    (tmp_path / "backup" / "zz-broken.json").write_text("{not json")
    before = GameRecord.objects.count()
    with pytest.raises(CommandError, match="zz-broken.json: not JSON"):
        call_command("import_records", str(tmp_path / "backup"), stdout=io.StringIO())
    copies = GameRecord.objects.order_by("pk")[before:]
    assert len(copies) == 2, "the good files are imported, the broken one refused"
    for original, copy in zip(written, copies):
        again = files.dumps(files.export_document(copy))
        assert again == original.read_text(encoding="utf-8")
