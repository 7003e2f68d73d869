"""Private games stay private in every read model of the API.

The spring league of ``test_leagues`` (six public Stone Age games) plus two private games kept by
one scorekeeper the league trusts:

- P1, 15 April 2026, Cy 99 and Ed 3: it counts for the league (both are members) and moves the
  overall and the club ratings; Ed, whose login is linked to his player, sits at it.
- P2, 20 June 2026, Pia 88 and Ada 7: after the season, so overall ratings and statistics only;
  Pia played no other game.

Who may see a private game: its scorekeeper, a player seated at it, staff. Everybody else (nobody
logged in, or someone unrelated, or Ed for P2) reads the figures as if it had never been played:
the rule docs/privacy.md states.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from records.models import GameRecord, Player
from scoring import statistics, selectors, standings, tasks
from scoring.models import GameStatistics, League, Rating, RatingChange, Standing
from tests.factories import api_client, result_game
from tests.scoring.test_leagues import EXPECTED_TABLE, LEAGUE_GAMES, expected_ratings, make_league, play_and_score

pytestmark = pytest.mark.django_db

P1 = (date(2026, 4, 15), {"Cy": 99, "Ed": 3})
P2 = (date(2026, 6, 20), {"Pia": 88, "Ada": 7})

VIEWERS = ["anonymous", "unrelated", "scorekeeper", "seated", "staff"]
SEES_P1 = {"scorekeeper", "seated", "staff"}
SEES_P2 = {"scorekeeper", "staff"}  # Ed sits at P1, not at P2


@dataclass
class World:
    league: League
    public: list[GameRecord]
    p1: GameRecord
    p2: GameRecord
    users: dict

    def player(self, name: str) -> Player:
        return Player.objects.get(display_name=name)


def build_world() -> World:
    """The league, its public games, the two private games and one user of each kind."""
    users = get_user_model().objects
    people = {
        "anonymous": None,
        "unrelated": users.create_user("zoe"),
        "scorekeeper": users.create_user("keeper"),
        "seated": users.create_user("ed"),
        "staff": users.create_user("staff", is_staff=True),
    }
    league = make_league()
    public = play_and_score(LEAGUE_GAMES)
    Player.objects.filter(display_name="Ed").update(user=people["seated"])
    league.trusted_scorekeepers.add(people["scorekeeper"])  # P1 counts for the league: the keeper is trusted
    private = []
    for day, scores in (P1, P2):
        record = result_game(scores, day, is_private=True, created_by=people["scorekeeper"])
        tasks.score_record(record.pk)
        private.append(record)
    return World(league, public, *private, people)


@pytest.fixture(scope="module")
def world(module_transaction, django_db_blocker) -> World:
    """Built once for the module's tests (each test's own changes are rolled back)."""
    with django_db_blocker.unblock():
        return build_world()


def api(world: World, viewer: str) -> APIClient:
    return api_client(world.users[viewer])


def public_games_of(name: str) -> list:
    return [game for game in LEAGUE_GAMES if name in game[1]]


# --- Rating history -----------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", VIEWERS)
def test_rating_history_of_a_private_record_only_for_those_who_may_see_it(world, viewer):
    body = api(world, viewer).get("/api/ratings/history/", {"record": world.p1.pk}).json()
    lines = {(line["player"], line["club"], line["played_on"], line["rank"]) for line in body["results"]}
    if viewer in SEES_P1:
        club = world.league.club_id
        assert lines == {
            ("Cy", None, "2026-04-15", 1), ("Ed", None, "2026-04-15", 2),
            ("Cy", club, "2026-04-15", 1), ("Ed", club, "2026-04-15", 2),
        }
    else:
        assert body["count"] == 0 and lines == set()
    # A public game is everybody's.
    first = api(world, viewer).get("/api/ratings/history/", {"record": world.public[0].pk}).json()
    assert first["count"] == 8  # four players, overall and in the club


@pytest.mark.parametrize("viewer", VIEWERS)
def test_rating_history_runs_on_from_the_last_game_the_viewer_may_see(world, viewer):
    """Cy's overall history: each game starts from the rating the previous visible game left."""
    cy = world.player("Cy")
    body = api(world, viewer).get("/api/ratings/history/", {"player": cy.pk, "overall": "true"}).json()
    days = [line["played_on"] for line in body["results"]]
    expected_days = sorted(str(day) for day, _scores in public_games_of("Cy") + ([P1] if viewer in SEES_P1 else []))
    assert days == expected_days
    for before, after in zip(body["results"], body["results"][1:]):
        assert after["mu_before"] == pytest.approx(before["mu"], abs=1e-9)
        assert after["sigma_before"] == pytest.approx(before["sigma"], abs=1e-9)
    seen = LEAGUE_GAMES + ([P1] if viewer in SEES_P1 else []) + ([P2] if viewer in SEES_P2 else [])
    last = body["results"][-1]
    assert (last["mu"], last["sigma"]) == pytest.approx(expected_ratings(seen)["Cy"], abs=1e-9)


# --- Current ratings ----------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", VIEWERS)
def test_ratings_are_those_of_the_games_the_viewer_may_see(world, viewer):
    ed = world.player("Ed")
    body = api(world, viewer).get("/api/ratings/", {"player": ed.pk}).json()
    assert {line["club"] for line in body["results"]} == {None, world.league.club_id}
    sees_p1 = viewer in SEES_P1
    for line in body["results"]:
        assert line["games"] == (2 if sees_p1 else 1)
        assert line["last_played"] == ("2026-04-15" if sees_p1 else "2026-04-10")
    club_games = LEAGUE_GAMES + ([P1] if sees_p1 else [])
    club = {line["player"]: (line["mu"], line["sigma"])
            for line in api(world, viewer).get("/api/ratings/", {"club": world.league.club_id}).json()["results"]}
    expected = expected_ratings(club_games)
    assert set(club) == set(expected)
    for name, pair in expected.items():
        assert club[name] == pytest.approx(pair, abs=1e-9), name
    # Best first, by the ratings the viewer is shown.
    ordinals = [mu - 3 * sigma for mu, sigma in club.values()]
    assert ordinals == sorted(ordinals, reverse=True)


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_player_known_only_from_a_private_game_has_no_rating_for_others(world, viewer):
    pia = world.player("Pia")
    ratings = api(world, viewer).get("/api/ratings/", {"player": pia.pk}).json()
    history = api(world, viewer).get("/api/ratings/history/", {"player": pia.pk}).json()
    if viewer in SEES_P2:
        assert [(line["games"], line["last_played"]) for line in ratings["results"]] == [(1, "2026-06-20")]
        assert [line["rank"] for line in history["results"]] == [1]
    else:  # no such player, for them: answered as a player id never used is, an empty list
        assert ratings["results"] == history["results"] == []


# --- Statistics ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", VIEWERS)
def test_player_statistics_count_only_the_games_the_viewer_may_see(world, viewer):
    cy = world.player("Cy")
    body = api(world, viewer).get("/api/statistics/players/", {"player": cy.pk}).json()
    rows = {line["game_slug"]: line for line in body["results"]}
    assert set(rows) == {"", "stone-age"}
    every, stone_age = rows[""], rows["stone-age"]
    if viewer in SEES_P1:
        assert (stone_age["games"], stone_age["wins"], stone_age["best_score"]) == (5, 3, 99)
        assert stone_age["average_score"] == pytest.approx((30 + 10 + 60 + 40 + 99) / 5)
        assert (every["games"], every["wins"]) == (5, 3)
    else:
        assert (stone_age["games"], stone_age["wins"], stone_age["best_score"]) == (4, 2, 60)
        assert stone_age["average_score"] == pytest.approx(35.0)
        assert (every["games"], every["wins"]) == (4, 2)
    # Over every game, only counts: no score averaged across games.
    assert (every["average_score"], every["best_score"], every["average_by_source"]) == (None, None, {})
    pia = api(world, viewer).get("/api/statistics/players/", {"player": world.player("Pia").pk}).json()
    if viewer in SEES_P2:
        assert [line["best_score"] for line in pia["results"]] == [None, 88]
    else:  # no such player, for them: answered as a player id never used is, an empty list
        assert pia["results"] == []


@pytest.mark.parametrize("viewer", VIEWERS)
def test_game_statistics_count_only_the_games_the_viewer_may_see(world, viewer):
    body = api(world, viewer).get("/api/statistics/games/", {"game_slug": "stone-age"}).json()
    [row] = body["results"]
    seen = 6 + (viewer in SEES_P1) + (viewer in SEES_P2)
    assert row["games"] == seen
    assert ("90-99" in row["score_distribution"]) == (viewer in SEES_P1)
    assert ("80-89" in row["score_distribution"]) == (viewer in SEES_P2)
    assert sum(row["score_distribution"].values()) == 20 + 2 * (seen - 6)
    assert ("2" in row["seat_advantage"]) == (seen > 6)  # both private games have two players


# --- League standings ---------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", VIEWERS)
def test_standings_count_only_the_league_games_the_viewer_may_see(world, viewer):
    body = api(world, viewer).get(f"/api/leagues/{world.league.pk}/standings/").json()
    table = [
        (line["position"], line["player"], line["games"], line["wins"], line["points"], line["average_score"])
        for line in body["results"]
    ]
    if viewer in SEES_P1:
        # The points table has no two-player line: P1 gives Cy a win and a 99, no points, and Ed
        # the second game he needed to be ranked.
        assert table == [
            (1, "Di", 5, 2, 13.0, 33.0),
            (2, "Ada", 4, 2, 13.0, 28.75),
            (3, "Cy", 5, 3, 12.0, round((140 + 99) / 5, 6)),
            (4, "Bo", 6, 0, 10.0, 27.5),
            (5, "Ed", 2, 1, 4.0, 36.5),
        ]
    else:
        assert table == EXPECTED_TABLE


def test_stored_figures_are_unchanged_and_staff_read_them_as_stored(world):
    """What others see is worked out for them; the projections themselves keep every game."""
    assert Rating.objects.get(player__display_name="Pia").games == 1
    assert RatingChange.objects.filter(record=world.p1).count() == 4
    stored = Rating.objects.get(player__display_name="Cy", club=world.league.club)
    line = next(
        line for line in api(world, "staff").get("/api/ratings/", {"club": world.league.club_id}).json()["results"]
        if line["player"] == "Cy"
    )
    assert (line["mu"], line["sigma"], line["games"]) == (stored.mu, stored.sigma, stored.games)


def test_worked_out_over_every_game_the_figures_are_the_stored_ones(world):
    """The reckonings over a reader's visible games (the projections' own functions, given a set of
    records) agree with the stored projections when nothing is left out."""
    def fields(row, names):
        return {name: getattr(row, name) for name in names}

    every = GameRecord.objects.values("pk")
    game = ["games", "average_winning_score", "score_distribution", "seat_advantage", "average_duration_seconds"]
    assert fields(statistics.game_row("stone-age", every), game) == fields(
        GameStatistics.objects.get(game_slug="stone-age"), game
    )
    line = ["position", "player_id", "games", "wins", "points", "average_rank", "average_score"]
    assert [fields(row, line) for row in selectors._table(world.league, standings.league_records(world.league))] == [
        fields(row, line) for row in Standing.objects.filter(league=world.league)
    ]
    staff = world.users["staff"]
    for club in (None, world.league.club_id):
        replay = selectors._replayed(staff, ("stone-age", club))
        stored = Rating.objects.filter(game_slug="stone-age", club_id=club)
        assert {row.player_id: (row.mu, row.sigma, row.games, row.last_played) for row in stored} == {
            player_id: (skill.mu, skill.sigma, skill.games, skill.last_played)
            for player_id, skill in replay.skills.items()
        }
        change = ["mu_before", "sigma_before", "mu", "sigma", "ordinal", "rank", "played_on"]
        assert {(row.record_id, row.player_id): fields(row, change)
                for row in RatingChange.objects.filter(game_slug="stone-age", club_id=club)} == {
            key: fields(row, change) for key, row in replay.changes.items()
        }
