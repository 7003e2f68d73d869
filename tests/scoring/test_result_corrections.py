"""A finished result corrected: a new event (never an edit), the record scored again, and what
moved kept and shown before → after (CoGs' session impact): whose rating and place, whose league
standing. Committed for real, scored by the pipeline as in production."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from records.models import Event, GameRecord, Player
from scoring.models import Club, League, LeagueMembership, Rating, ResultImpact, Standing

pytestmark = pytest.mark.django_db(transaction=True)

PLAYED_ON = date(2026, 11, 20)


@pytest.fixture
def club(celery_eager):
    david = User.objects.create_user("david")
    league = League.objects.create(club=Club.objects.create(name="Les Meeples"), name="Autumn", game_slugs=[],
                                   starts_on=date(2026, 9, 1), ends_on=date(2026, 12, 31), points_table={"2": [3, 1]})
    for name, user in (("David", david), ("Elif", None)):
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name, user=user))
    client = APIClient()
    client.force_authenticate(david)
    return client, league


def logged(client: APIClient, david: int, elif_: int) -> int:
    created = client.post("/api/records/", {"game_slug": "azul", "result_only": True, "played_on": PLAYED_ON.isoformat(),
                                            "seats": [{"player": "David"}, {"player": "Elif"}]}, format="json")
    assert created.status_code == 201, created.content
    record = created.json()["id"]
    stored = client.post(f"/api/records/{record}/events/", {"expected_seq": 0, "type": "result", "payload": {
        "scores": [{"seat": 0, "score": david}, {"seat": 1, "score": elif_}]}}, format="json")
    assert stored.status_code == 201, stored.content
    return record


def correct(client: APIClient, record: int, seq: int, david: int, elif_: int):
    return client.post(f"/api/records/{record}/events/", {"expected_seq": seq, "type": "correct_result", "payload": {
        "scores": [{"seat": 0, "score": david}, {"seat": 1, "score": elif_}], "reason": "scores swapped"}},
        format="json")


def test_a_correction_is_a_new_event_and_its_impact_names_who_moved(club):
    client, league = club
    first = logged(client, 61, 52)
    logged(client, 40, 45)
    david = Standing.objects.get(league=league, player__display_name="David")
    assert (david.points, david.position) == (4, 1)  # 3 + 1 against Elif's 1 + 3: shared first
    before = Rating.objects.get(game_slug="azul", club=league.club, player__display_name="David").ordinal

    answer = correct(client, first, 1, 52, 61)
    assert answer.status_code == 201, answer.content
    assert list(Event.objects.filter(record=first).values_list("seq", "type")) == [(1, "result"), (2, "correct_result")]
    assert GameRecord.objects.get(pk=first).status == GameRecord.Status.FINISHED
    after = Rating.objects.get(game_slug="azul", club=league.club, player__display_name="David").ordinal
    assert after < before
    assert Standing.objects.get(league=league, player__display_name="David").points == 2

    impact = ResultImpact.objects.get(record=first)
    assert impact.seq == 2
    ratings_moved = {(line["player"], line["club_id"]): line["moved"]["rating"]
                     for line in impact.changes if line["kind"] == "rating"}
    assert ratings_moved[("David", league.club_id)] == [round(before, 2), round(after, 2)]
    standing = next(line for line in impact.changes if line["kind"] == "standing" and line["player"] == "David")
    assert standing["league"] == "Autumn" and standing["moved"]["points"] == [4, 2]
    listed = client.get(f"/api/records/{first}/impact/").json()
    assert [entry["seq"] for entry in listed] == [2]
    assert {line["player"] for line in listed[0]["changes"]} >= {"David", "Elif"}


def test_only_a_finished_result_is_corrected_and_a_bad_correction_changes_nothing(club):
    client, _league = club
    created = client.post("/api/records/", {"game_slug": "azul", "result_only": True,
                                            "seats": [{"player": "David"}, {"player": "Elif"}]}, format="json").json()
    early = correct(client, created["id"], 0, 1, 2)
    assert early.status_code == 409 and early.json()["reason"] == "record_closed"
    record = logged(client, 61, 52)
    missing_seat = client.post(f"/api/records/{record}/events/", {"expected_seq": 1, "type": "correct_result",
                                                                  "payload": {"scores": [{"seat": 0, "score": 3}]}},
                               format="json")
    assert missing_seat.status_code in (400, 422) and "scores" in missing_seat.content.decode()
    stale = correct(client, record, 0, 52, 61)
    assert stale.status_code == 409
    assert Event.objects.filter(record=record).count() == 1
    assert not ResultImpact.objects.exists()
