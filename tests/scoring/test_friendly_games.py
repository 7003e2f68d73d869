"""A friendly game (not in the league): recorded by a seated member, in the league's game and
dates, with only its members seated, it still counts for no league, is awaiting no approval, and
no organiser can make it count. Committed for real, the standings refreshed as in production."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User

from records.models import GameRecord, Player
from scoring import standings, tasks
from scoring.models import Club, League, LeagueMembership, LeagueRuling, Standing
from tests.factories import api_client as api

pytestmark = pytest.mark.django_db(transaction=True)

PLAYED_ON = date(2026, 3, 14)


@pytest.fixture
def league(celery_eager) -> tuple[League, User, User]:
    david, olga = User.objects.create_user("david"), User.objects.create_user("olga")
    league = League.objects.create(
        club=Club.objects.create(name="Les Meeples"), name="Spring", game_slugs=["stone-age"],
        starts_on=date(2026, 3, 1), ends_on=date(2026, 5, 31), points_table={"2": [3, 1]},
    )
    for name, user in (("David", david), ("Elif", None)):
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name, user=user))
    league.organisers.add(olga)
    return league, david, olga


def record_result(user: User, **fields) -> dict:
    """Through the API as ``user``: a finished result-only Stone Age game, David 50 – Elif 40."""
    client = api(user)
    created = client.post("/api/records/", {
        "game_slug": "stone-age", "result_only": True, "played_on": PLAYED_ON.isoformat(),
        "seats": [{"player": "David"}, {"player": "Elif"}], **fields,
    }, format="json")
    assert created.status_code == 201, created.content
    result = client.post(f"/api/records/{created.json()['id']}/events/", {
        "expected_seq": 0, "type": "result", "payload": {"scores": [{"seat": 0, "score": 50}, {"seat": 1, "score": 40}]},
    }, format="json")
    assert result.status_code == 201, result.content
    tasks.score_record(created.json()["id"])
    return created.json()


def david_s_line(league: League) -> tuple[int, float] | None:
    standing = Standing.objects.filter(league=league, player__display_name="David").first()
    return None if standing is None else (standing.games, standing.points)


def test_a_friendly_game_by_a_seated_member_counts_for_no_league(league):
    league, david, _olga = league
    friendly = record_result(david, is_friendly=True)
    assert friendly["is_friendly"] is True
    record = GameRecord.objects.get(pk=friendly["id"])
    assert record.status == GameRecord.Status.FINISHED and record.is_friendly
    assert not standings.league_candidates(league).filter(pk=record.pk).exists()
    assert not standings.league_records(league).exists()
    assert not standings.awaiting_approval(league).exists()
    assert standings.leagues_of(record) == []
    assert david_s_line(league) is None

    counted = record_result(david)  # the same game, not marked friendly: it counts at once
    assert counted["is_friendly"] is False
    assert list(standings.league_records(league).values_list("pk", flat=True)) == [counted["id"]]
    assert david_s_line(league) == (1, 3.0)


def test_no_organiser_makes_a_friendly_game_count(league):
    league, david, olga = league
    friendly = record_result(david, is_friendly=True)
    answer = api(olga).post(f"/api/leagues/{league.pk}/rulings/", {"record": friendly["id"], "counts": True},
                            format="json")
    assert answer.status_code == 422 and answer.json()["reason"] == "not_a_league_game"
    assert not LeagueRuling.objects.exists() and david_s_line(league) is None


def test_the_friendly_flag_must_be_a_boolean(league):
    _league, david, _olga = league
    answer = api(david).post("/api/records/", {
        "game_slug": "stone-age", "result_only": True, "played_on": PLAYED_ON.isoformat(),
        "seats": [{"player": "David"}, {"player": "Elif"}], "is_friendly": "perhaps",
    }, format="json")
    assert answer.status_code == 400 and "is_friendly" in answer.content.decode()
    assert not GameRecord.objects.exists()
