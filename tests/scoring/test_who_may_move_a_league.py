"""Who may move a league table.

A league counts a game only when it was recorded by the account of one of the players seated,
by one of its organisers or trusted scorekeepers, or by the operator, or when an organiser approved
it; anything else is a friendly game until approved. The attack this stops: a logged-in user who
is no member, not an organiser and not seated recorded a public result-only game "David 500 – Elif 0",
and David's league line gained a game and its points.

Per actor: who records the game (anonymous, an unrelated user, a seated player, a member not
seated, a trusted scorekeeper, an organiser, the operator), and who may approve it or rule it out.
Committed for real, the standings and ratings refreshed as they are in production (in-process).
"""

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
ACTORS = ["anonymous", "unrelated", "seated", "member", "trusted_scorekeeper", "organiser", "operator"]
COUNTS_WITHOUT_APPROVAL = {"seated", "trusted_scorekeeper", "organiser", "operator"}
MAY_RULE = {"organiser", "operator"}


@pytest.fixture
def club(celery_eager):
    users = {
        "anonymous": None,
        "unrelated": User.objects.create_user("mallory"),
        "seated": User.objects.create_user("david"),
        "member": User.objects.create_user("ada"),
        "trusted_scorekeeper": User.objects.create_user("tess"),
        "organiser": User.objects.create_user("olga"),
        "operator": User.objects.create_user("root", is_staff=True, is_superuser=True),
    }
    league = League.objects.create(
        club=Club.objects.create(name="Les Meeples"), name="Spring", game_slugs=["stone-age"],
        starts_on=date(2026, 3, 1), ends_on=date(2026, 5, 31), points_table={"2": [3, 1]},
    )
    for name, user in (("David", users["seated"]), ("Elif", None), ("Ada", users["member"])):
        player = Player.objects.create(display_name=name, user=user)
        LeagueMembership.objects.create(league=league, player=player)
    league.trusted_scorekeepers.add(users["trusted_scorekeeper"])
    league.organisers.add(users["organiser"])
    return league, users


def record_result(user: User | None, scores: dict[str, int]) -> tuple[int, int | None]:
    """Through the API as ``user``: a public result-only Stone Age game; (status, record id)."""
    client = api(user)
    created = client.post("/api/records/", {
        "game_slug": "stone-age", "result_only": True, "played_on": PLAYED_ON.isoformat(),
        "seats": [{"player": name} for name in scores],
    }, format="json")
    if created.status_code != 201:
        return created.status_code, None
    record_id = created.json()["id"]
    result = client.post(f"/api/records/{record_id}/events/", {
        "expected_seq": 0, "type": "result",
        "payload": {"scores": [{"seat": seat, "score": score} for seat, score in enumerate(scores.values())]},
    }, format="json")
    assert result.status_code == 201, result.content
    tasks.score_record(record_id)
    return 201, record_id


def line(league: League, name: str) -> tuple[int, float] | None:
    standing = Standing.objects.filter(league=league, player__display_name=name).first()
    return None if standing is None else (standing.games, standing.points)


def test_who_records_a_game_decides_whether_it_counts_at_once(club):
    """Each actor in turn records a game in the same league (one world for all: building it and
    emptying the database after it were most of each actor's test): those who may move the table
    add a game to David's line at once, the others' games wait for approval and move nothing."""
    league, users = club
    expected_counted: set[int] = set()
    expected_awaiting: set[int] = set()
    for actor in ACTORS:
        status, record_id = record_result(users[actor], {"David": 500, "Elif": 0})
        if actor == "anonymous":
            assert status in (401, 403), actor
            assert not GameRecord.objects.exists(), actor
            continue
        assert status == 201, actor
        record = GameRecord.objects.get(pk=record_id)
        if actor in COUNTS_WITHOUT_APPROVAL:
            expected_counted.add(record_id)
            assert standings.leagues_of(record) == [league], actor
        else:
            expected_awaiting.add(record_id)
            assert standings.leagues_of(record) == [], actor
        counted = set(standings.league_records(league).values_list("pk", flat=True))
        awaiting = set(standings.awaiting_approval(league).values_list("pk", flat=True))
        assert (counted, awaiting) == (expected_counted, expected_awaiting), actor
        games = len(expected_counted)
        assert line(league, "David") == ((games, 3.0 * games) if games else None), actor


def test_only_organisers_and_the_operator_approve_a_friendly_game(club):
    """In one league, each actor approves a friendly game recorded by an unrelated user: those who
    may not rule go first and change nothing; then each who may approves, and the game counts at
    once."""
    league, users = club
    approved = 0
    for actor in sorted(ACTORS, key=lambda actor: actor in MAY_RULE):
        _status, record_id = record_result(users["unrelated"], {"David": 500, "Elif": 0})
        answer = api(users[actor]).post(f"/api/leagues/{league.pk}/rulings/",
                                        {"record": record_id, "counts": True, "reason": "played at the club"},
                                        format="json")
        if actor in MAY_RULE:
            approved += 1
            assert answer.status_code == 201, (actor, answer.content)
            assert answer.json()["counts"] is True and answer.json()["ruled_by"] == users[actor].username, actor
            assert line(league, "David") == (approved, 3.0 * approved), actor  # the refresh ran on commit
            assert record_id in standings.league_records(league).values_list("pk", flat=True), actor
            assert standings.league_records(league).count() == approved, actor
        else:
            assert answer.status_code in ((401, 403) if actor == "anonymous" else (403,)), actor
            if actor != "anonymous":
                assert answer.json()["reason"] == "not_an_organiser", actor
            assert not LeagueRuling.objects.exists(), actor
            assert line(league, "David") is None, actor


def test_an_organiser_rules_a_game_out_and_back_in_and_the_history_is_kept(club):
    league, users = club
    _status, record_id = record_result(users["seated"], {"David": 50, "Elif": 40})
    assert line(league, "David") == (1, 3.0)
    organiser = api(users["organiser"])
    out = organiser.post(f"/api/leagues/{league.pk}/rulings/",
                         {"record": record_id, "counts": False, "reason": "wrong box: a copy missing tiles"},
                         format="json")
    assert out.status_code == 201
    assert line(league, "David") is None
    assert organiser.post(f"/api/leagues/{league.pk}/rulings/", {"record": record_id, "counts": True},
                          format="json").status_code == 201
    assert line(league, "David") == (1, 3.0)
    history = api(None).get(f"/api/leagues/{league.pk}/rulings/").json()["results"]
    assert [(ruling["counts"], ruling["reason"], ruling["ruled_by"]) for ruling in history] == [
        (False, "wrong box: a copy missing tiles", "olga"), (True, "", "olga")]
    with pytest.raises(Exception):
        LeagueRuling.objects.filter(league=league).update(counts=False)
    assert LeagueRuling.objects.count() == 2


def test_a_game_that_does_not_fit_the_league_cannot_be_approved(club):
    league, users = club
    _status, record_id = record_result(users["unrelated"], {"David": 5, "Zed": 4})  # Zed is no member
    answer = api(users["organiser"]).post(f"/api/leagues/{league.pk}/rulings/", {"record": record_id, "counts": True},
                                          format="json")
    assert answer.status_code == 422 and answer.json()["reason"] == "not_a_league_game"
    assert not LeagueRuling.objects.exists()


def test_an_organiser_cannot_rule_on_a_private_game_they_may_not_see(club):
    league, users = club
    client = api(users["unrelated"])
    record_id = client.post("/api/records/", {
        "game_slug": "stone-age", "result_only": True, "played_on": PLAYED_ON.isoformat(), "is_private": True,
        "seats": [{"player": "David"}, {"player": "Elif"}],
    }, format="json").json()["id"]
    answer = api(users["organiser"]).post(f"/api/leagues/{league.pk}/rulings/", {"record": record_id, "counts": True},
                                          format="json")
    missing = api(users["organiser"]).post(f"/api/leagues/{league.pk}/rulings/", {"record": 999999, "counts": True},
                                           format="json")
    assert answer.status_code == missing.status_code == 404
    assert answer.json()["reason"] == missing.json()["reason"] == "not_found"


def test_the_friendly_games_awaiting_approval_are_listed_for_the_organisers(club):
    league, users = club
    _status, friendly = record_result(users["member"], {"David": 7, "Elif": 9})
    _status, counted = record_result(users["seated"], {"David": 9, "Elif": 7})
    body = api(users["organiser"]).get(f"/api/leagues/{league.pk}/awaiting-approval/").json()
    assert [record["id"] for record in body["results"]] == [friendly]
    assert counted not in [record["id"] for record in body["results"]]


def test_adding_a_trusted_scorekeeper_counts_the_games_they_recorded(club):
    league, users = club
    _status, record_id = record_result(users["unrelated"], {"David": 500, "Elif": 0})
    assert line(league, "David") is None
    league.trusted_scorekeepers.add(users["unrelated"])
    assert line(league, "David") == (1, 3.0)
    league.trusted_scorekeepers.remove(users["unrelated"])
    assert line(league, "David") is None
