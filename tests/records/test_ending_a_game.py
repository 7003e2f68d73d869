"""Ending a game as a table ends it: the last move confirmed (and taken back before that), a game
ended early for a missing tile, a game abandoned. Each is an event, never a deletion."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.registry import get_engine
from records import files, integrity, replay
from records.models import Event, GameRecord
from records.services import SeatSpec, append_event, position, start_game
from scoring.models import SeatResult
from tests.factories import HG, create_record, keeper_api, post_event, simulated_document, simulated_events

pytestmark = pytest.mark.django_db
CC = "carcassonne"


def hg_record(keeper: User, seed: int | None = 3) -> GameRecord:
    return start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=seed, created_by=keeper)


def record_all_but_the_last(record: GameRecord, keeper: User, events: tuple[tuple[str, dict[str, Any]], ...],
                            hold_end: bool = True) -> None:
    for index, (kind, payload) in enumerate(events[:-1]):
        append_event(record, index, kind, dict(payload), recorded_by=keeper, hold_end=hold_end)


def scored(record: GameRecord) -> list[int]:
    return list(SeatResult.objects.filter(record=record).order_by("seat__seat_order").values_list("score", flat=True))


def test_at_the_table_the_last_move_waits_for_end_game_and_can_be_taken_back_until_then(
    keeper, django_capture_on_commit_callbacks, celery_eager,
):
    events = simulated_events(2, 3)
    record = hg_record(keeper)
    last = len(events)
    with django_capture_on_commit_callbacks(execute=True):
        record_all_but_the_last(record, keeper, events)
        kind, payload = events[-1]
        append_event(record, last - 1, kind, dict(payload), recorded_by=keeper, hold_end=True)
        record.refresh_from_db()
        assert record.status == GameRecord.Status.IN_PROGRESS
        assert position(record)["is_over"] is True
        # Taken back before it is confirmed: the game is on again, and the move made once more.
        append_event(record, last, "undo", {}, recorded_by=keeper, hold_end=True)
        assert position(record)["is_over"] is False
        append_event(record, last + 1, kind, dict(payload), recorded_by=keeper, hold_end=True)
        ended = append_event(record, last + 2, "end_game", {"reason": "complete"}, recorded_by=keeper, hold_end=True)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED and ended.seq == last + 3
    state, _seq = replay.state_at(record, use_snapshots=False)
    assert scored(record) == [score.score for score in get_engine(HG).final_scores(state)]
    assert integrity.verify_store(record.pk).ok


def test_the_api_still_finishes_the_record_with_the_last_move_and_refuses_an_end_after_it():
    api = keeper_api()
    record_id = create_record(api, HG, 2, 3)
    events = simulated_events(2, 3)
    for index, (kind, payload) in enumerate(events):
        assert post_event(api, record_id, index, kind, payload).status_code == 201
    assert GameRecord.objects.get(pk=record_id).status == GameRecord.Status.FINISHED
    late = post_event(api, record_id, len(events), "end_game", {"reason": "complete"})
    assert late.status_code == 409 and late.data["reason"] == "record_closed"


def test_a_game_the_rules_have_not_ended_cannot_be_confirmed_as_complete():
    api = keeper_api()
    record_id = create_record(api, HG, 2, 3)
    kind, payload = simulated_events(2, 3)[0]
    assert post_event(api, record_id, 0, kind, payload).status_code == 201
    refused = post_event(api, record_id, 1, "end_game", {"reason": "complete"})
    assert refused.status_code == 422 and refused.data["reason"] == "cannot_end", refused.data
    seeded_missing = post_event(api, record_id, 1, "end_game", {"reason": "missing_tile"})
    assert seeded_missing.status_code == 422 and seeded_missing.data["reason"] == "cannot_end"
    bad_reason = post_event(api, record_id, 1, "end_game", {"reason": "bored"})
    assert bad_reason.status_code == 400 and bad_reason.data["field"] == "payload.reason"
    assert Event.objects.filter(record_id=record_id).count() == 1
    assert GameRecord.objects.get(pk=record_id).status == GameRecord.Status.IN_PROGRESS


def unseeded_carcassonne_with_moves(api, moves: int) -> tuple[int, list[dict[str, Any]]]:
    """An unseeded record (the tiles drawn at the table) with the first ``moves`` of a simulated game."""
    record_id = create_record(api, CC, 2, None)
    played = simulated_document(CC, 2, 6)["events"][:moves]
    for index, event in enumerate(played):
        response = post_event(api, record_id, index, event["type"], event["payload"])
        assert response.status_code == 201, response.data
    return record_id, played


def test_a_missing_tile_ends_an_unseeded_game_now_with_the_final_scoring(
    django_capture_on_commit_callbacks, celery_eager,
):
    api = keeper_api()
    record_id, played = unseeded_carcassonne_with_moves(api, 12)
    before = api.get(f"/api/records/{record_id}/state/").data
    with django_capture_on_commit_callbacks(execute=True):
        response = post_event(api, record_id, len(played), "end_game", {"reason": "missing_tile"})
    assert response.status_code == 201, response.data
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == GameRecord.Status.FINISHED
    after = api.get(f"/api/records/{record_id}/state/").data
    assert after["is_over"] is True and before["is_over"] is False
    # What the rules score at the end (the figures on unfinished features) is scored now.
    engine = get_engine(CC)
    state = engine.new_state(2, None)
    for event in played:
        engine.apply(state, event["type"], event["payload"])
    on_board = [dict(s) for s in state.view()["scores"]]
    state.end_now()
    assert [s["total"] for s in after["position"]["scores"]] == engine.totals(state)
    assert sum(engine.totals(state)) > sum(s["total"] for s in on_board), "a figure stood on an unfinished feature"
    assert scored(record) == engine.totals(state)
    with_snapshots, _ = replay.state_at(record)
    assert engine.totals(with_snapshots) == engine.totals(replay.state_at(record, use_snapshots=False)[0])
    assert integrity.verify_store(record_id).ok


def test_abandoning_keeps_the_record_as_abandoned_and_it_counts_for_nothing(
    django_capture_on_commit_callbacks, celery_eager,
):
    api = keeper_api()
    record_id, played = unseeded_carcassonne_with_moves(api, 5)
    blank = post_event(api, record_id, len(played), "abandon", {"reason": "   "})
    assert blank.status_code == 400 and blank.data["field"] == "payload.reason"
    with django_capture_on_commit_callbacks(execute=True):
        response = post_event(api, record_id, len(played), "abandon", {"reason": "the café closed"})
    assert response.status_code == 201, response.data
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == GameRecord.Status.ABANDONED
    assert Event.objects.filter(record=record).count() == len(played) + 1
    assert not SeatResult.objects.filter(record=record).exists()
    later = post_event(api, record_id, len(played) + 1, "undo", {})
    assert later.status_code == 409 and later.data["reason"] == "record_closed"
    assert integrity.verify_store(record_id).ok


def test_ended_and_abandoned_records_go_out_as_files_and_come_back_the_same():
    api = keeper_api()
    ended_id, played = unseeded_carcassonne_with_moves(api, 8)
    assert post_event(api, ended_id, len(played), "end_game", {"reason": "missing_tile"}).status_code == 201
    abandoned_id, played = unseeded_carcassonne_with_moves(api, 4)
    assert post_event(api, abandoned_id, len(played), "abandon", {"reason": "rain"}).status_code == 201
    for record_id, status in ((ended_id, GameRecord.Status.FINISHED), (abandoned_id, GameRecord.Status.ABANDONED)):
        document = files.export_document(GameRecord.objects.get(pk=record_id))
        assert document["events"][-1]["type"] in ("end_game", "abandon")
        back = files.import_document(document)
        assert back.status == status
        assert position(back) == {**position(GameRecord.objects.get(pk=record_id)), "seats": position(back)["seats"]}
    document = files.export_document(GameRecord.objects.get(pk=abandoned_id))
    document["events"].append({"seq": len(document["events"]) + 1, "type": "undo", "payload": {}})
    with pytest.raises(files.RecordFileError) as refused:
        files.import_document(document)
    assert refused.value.details["event"] == len(document["events"]) and refused.value.reason == "record_closed"
