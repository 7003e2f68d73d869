"""Results told otherwise than by scores: places only (Codenames has no score), who won and
nobody else's place, and cooperative games won or lost together (Pandemic, Hanabi with its score).
Each is a result-only record whose seat results carry the places as told; a cooperative game
counts in the statistics (how often the table beat the game) and never in a league's standings
or in ratings; a line that tells nothing, or a cooperative outcome on a game that is not one, is
refused with the field named and nothing stored."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from records.models import GameRecord
from scoring.models import PlayerStatistics, RatingChange, SeatResult, Standing
from tests.web.test_log_result import club, form  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def results(record: GameRecord) -> list[tuple[str, int | None, int]]:
    return [(row.player.display_name, row.score, row.rank)
            for row in SeatResult.objects.filter(record=record).select_related("player").order_by("seat__seat_order")]


def test_places_without_scores(club):  # noqa: F811
    answer = club["client"].post("/scorekeeping/result/", form(title="Azul", told="places", score_1=2, score_2=1))
    assert answer.status_code == 302
    record = GameRecord.objects.get()
    assert record.events.get().payload == {"scores": [{"seat": 0, "rank": 2}, {"seat": 1, "rank": 1}]}
    assert results(record) == [("David", None, 2), ("Élif", None, 1)]
    elif_ = PlayerStatistics.objects.get(player__display_name="Élif", game_slug="azul")
    assert (elif_.games, elif_.wins, elif_.average_score, elif_.best_score) == (1, 1, None, None)
    assert Standing.objects.get(league=club["league"], player__display_name="Élif").points == 3
    page = club["client"].get(f"/games/{record.pk}/").content.decode()
    assert "None" not in page


def test_who_won_and_no_scores(club):  # noqa: F811
    answer = club["client"].post("/scorekeeping/result/", form(title="Azul", score_1="", score_2="", won_2="on"))
    assert answer.status_code == 302
    assert results(GameRecord.objects.get()) == [("David", None, 2), ("Élif", None, 1)]


def test_no_scores_and_nobody_ticked_is_refused(club):  # noqa: F811
    answer = club["client"].post("/scorekeeping/result/", form(title="Azul", score_1="", score_2=""))
    assert answer.status_code == 400
    assert "Give the scores, or tick who won." in answer.context["form"].non_field_errors()
    assert not GameRecord.objects.exists()


@pytest.mark.parametrize("fields, field, message", [
    ({"told": "places", "score_2": ""}, "score_2", "Give ELIF's place, from 1 to 2."),
    ({"told": "places", "score_1": 3}, "score_1", "Give david's place, from 1 to 2."),
    ({"score_1": ""}, "score_1", "Give david's score, or no score at all."),
])
def test_a_place_missing_or_out_of_range_is_refused(club, fields, field, message):  # noqa: F811
    answer = club["client"].post("/scorekeeping/result/", form(title="Azul", **fields))
    assert answer.status_code == 400 and message in answer.context["form"].errors[field]
    assert not GameRecord.objects.exists()


@pytest.mark.parametrize("outcome, rank, win_rate", [("won", 1, 1.0), ("lost", 2, 0.0)])
def test_a_cooperative_game_counts_in_the_statistics_never_in_the_league_or_the_ratings(club, outcome, rank,
                                                                                       win_rate):  # noqa: F811
    answer = club["client"].post("/scorekeeping/result/", form(title="Azul", told=outcome, score_1=23, score_2=23))
    assert answer.status_code == 302
    record = GameRecord.objects.get()
    assert record.is_cooperative
    assert record.events.get().payload == {"cooperative": outcome,
                                           "scores": [{"seat": 0, "score": 23}, {"seat": 1, "score": 23}]}
    assert results(record) == [("David", 23, rank), ("Élif", 23, rank)]
    assert PlayerStatistics.objects.get(player__display_name="David", game_slug="azul").win_rate == win_rate
    assert not Standing.objects.filter(league=club["league"], games__gt=0).exists()
    assert not RatingChange.objects.exists()
    club["client"].get(f"/games/{record.pk}/")  # the message of the logging read
    page = club["client"].get(f"/games/{record.pk}/").content.decode()
    assert f'data-testid="cooperative-outcome">{outcome} together' in page


def test_a_cooperative_result_corrected_from_won_to_lost(club):  # noqa: F811
    club["client"].post("/scorekeeping/result/", form(title="Azul", told="won", score_1="", score_2=""))
    record = GameRecord.objects.get()
    answer = club["client"].post(f"/games/{record.pk}/correct/", {
        "told": "lost", "score_0": "", "score_1": "", "reason": "the last epidemic came first"})
    assert answer.status_code == 302
    assert record.events.order_by("seq").last().payload == {
        "cooperative": "lost", "scores": [{"seat": 0}, {"seat": 1}], "reason": "the last epidemic came first"}
    assert [rank for _name, _score, rank in results(record)] == [2, 2]


def api_result(client: Client, record: GameRecord, payload: dict):
    return client.post(f"/api/records/{record.pk}/events/", json.dumps(
        {"expected_seq": 0, "type": "result", "payload": payload}), content_type="application/json")


@pytest.mark.parametrize("cooperative, payload, field", [
    (False, {"scores": [{"seat": 0}, {"seat": 1, "score": 3}]}, "payload.scores"),
    (False, {"scores": [{"seat": 0, "rank": 1}, {"seat": 1, "score": 3}]}, "payload.scores"),
    (False, {"cooperative": "won", "scores": [{"seat": 0}, {"seat": 1}]}, "payload.cooperative"),
    (True, {"scores": [{"seat": 0, "score": 1}, {"seat": 1, "score": 2}]}, "payload.cooperative"),
    (True, {"cooperative": "won", "scores": [{"seat": 0, "rank": 1}, {"seat": 1}]}, "payload.scores"),
    (True, {"cooperative": "drawn", "scores": [{"seat": 0}, {"seat": 1}]}, "payload.cooperative"),
])
def test_the_api_refuses_a_result_that_tells_nothing_or_the_wrong_kind(club, cooperative, payload, field):  # noqa: F811
    from records.services import SeatSpec, start_game

    record = start_game(game_slug="azul", seats=[SeatSpec("David"), SeatSpec("Élif")], result_only=True,
                        is_cooperative=cooperative, created_by=club["david"])
    answer = api_result(club["client"], record, payload)
    assert answer.status_code == 400, answer.content
    assert answer.json()["field"] == field, answer.json()
    assert not record.events.exists()


def test_a_cooperative_record_made_through_the_api(club):  # noqa: F811
    client = club["client"]
    made = client.post("/api/records/", json.dumps({
        "game_slug": "pandemic", "result_only": True, "is_cooperative": True,
        "seats": [{"player": "David"}, {"player": "Élif"}]}),
        content_type="application/json")
    assert made.status_code == 201, made.content
    record = GameRecord.objects.get(pk=made.json()["id"])
    assert record.is_cooperative and made.json()["is_cooperative"] is True
    assert api_result(client, record, {"cooperative": "lost", "scores": [{"seat": 0}, {"seat": 1}]}).status_code == 201
    refused = client.post("/api/records/", json.dumps({
        "game_slug": "carcassonne", "is_cooperative": True,
        "seats": [{"player": "David"}, {"player": "Élif"}]}),
        content_type="application/json")
    assert refused.status_code == 400 and "is_cooperative" in refused.content.decode()


def test_a_cooperative_record_file_reads_back_as_one(club):  # noqa: F811
    from records.files import export_document, import_document

    club["client"].post("/scorekeeping/result/", form(title="Azul", told="lost", score_1="", score_2=""))
    document = export_document(GameRecord.objects.get())
    assert document["cooperative"] is True
    again = import_document(json.loads(json.dumps(document)))
    assert again.is_cooperative and again.events.get().payload["cooperative"] == "lost"
