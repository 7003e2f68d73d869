"""Leagues made and changed outside the admin (``scoring.leagues``): every game by default, games
by the catalogue's titles, players and co-organisers of the organisation only, points tables that
hold together; a refusal says why and saves nothing, and an organiser of one club cannot touch
another's leagues."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from accounts.models import Organisation
from accounts.roles import Role
from games.models import CatalogueRecord
from records.models import Player
from scoring import leagues
from scoring.leagues import LeagueRefused, LeagueSettings, MayNotRunLeagues
from scoring.models import Club, League
from tests.factories import give_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(django_user_model):
    """Club A with its organiser, two members who may co-organise and a player of its history;
    club B with its organiser and a member."""
    a = Organisation.objects.create(name="Club A", slug="club-a")
    b = Organisation.objects.create(name="Club B", slug="club-b")
    people = {}
    for username, organisation, role in [("orga-a", a, Role.ORGANISER), ("ada", a, None), ("bea", a, None),
                                         ("orga-b", b, Role.ORGANISER), ("zoe", b, None)]:
        user = give_role(django_user_model.objects.create_user(username), role, organisation)
        people[username] = user
        people[f"{username}-player"] = Player.objects.create(display_name=username.title(), user=user)
    catan = CatalogueRecord.objects.create(title="Les Colons de Catane")
    return {"a": a, "b": b, "catan": catan, **people}


def settings_for(world, **changes) -> LeagueSettings:
    base = LeagueSettings(
        name="Saison 2027", starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2027, 6, 30),
        points_table=leagues.preset_table(leagues.BY_PLACES),
        tie_breakers=[League.TieBreaker.WINS, League.TieBreaker.AVERAGE_SCORE],
        members=[world["ada-player"].pk, world["bea-player"].pk, world["orga-a-player"].pk],
        organisers=[world["ada"].pk, world["bea"].pk])
    return dataclasses.replace(base, **changes)


def test_a_league_for_every_game_with_a_preset_and_two_co_organisers(world):
    league = leagues.create_league(world["a"], settings_for(world), by=world["orga-a"])

    league.refresh_from_db()
    assert league.game_slugs == []
    assert league.club.organisation == world["a"] and league.club.name == "Club A"
    assert league.points_table == {"2": [5, 3], "3": [5, 3, 2], "4": [5, 3, 2, 1], "5": [5, 3, 2, 1, 0],
                                   "6": [5, 3, 2, 1, 0, 0], "7": [5, 3, 2, 1, 0, 0, 0],
                                   "8": [5, 3, 2, 1, 0, 0, 0, 0]}
    assert set(league.organisers.values_list("username", flat=True)) == {"ada", "bea"}
    assert set(league.members.values_list("display_name", flat=True)) == {"Ada", "Bea", "Orga-A"}
    assert league.tie_breakers == ["wins", "average_score"]


def test_games_by_the_catalogue_and_the_rules_here(world):
    chosen = ["les-colons-de-catane", "hunters-gatherers"]
    league = leagues.create_league(world["a"], settings_for(world, game_slugs=chosen), by=world["orga-a"])
    assert sorted(League.objects.get(pk=league.pk).game_slugs) == sorted(chosen)


def test_the_organisations_club_is_made_once_and_kept(world):
    Club.objects.create(name="Club A")  # a club of that name, of no organisation
    first = leagues.create_league(world["a"], settings_for(world), by=world["orga-a"])
    second = leagues.create_league(world["a"], settings_for(world, name="Été"), by=world["orga-a"])
    assert first.club == second.club and first.club.name == "Club A (2)"
    assert Club.objects.filter(organisation=world["a"]).count() == 1


def test_editing_changes_the_settings_members_and_organisers(world):
    league = leagues.create_league(world["a"], settings_for(world), by=world["orga-a"])
    leagues.edit_league(league, settings_for(
        world, name="Saison 2027 bis", game_slugs=["les-colons-de-catane"], members=[world["ada-player"].pk],
        organisers=[world["bea"].pk], trusted_scorekeepers=[world["ada"].pk],
        points_table=leagues.preset_table(leagues.WIN_ONLY, [2, 3]), min_games=3, tie_breakers=[]),
        by=world["orga-a"])
    league.refresh_from_db()
    assert league.name == "Saison 2027 bis" and league.game_slugs == ["les-colons-de-catane"]
    assert list(league.members.values_list("display_name", flat=True)) == ["Ada"]
    assert list(league.organisers.values_list("username", flat=True)) == ["bea"]
    assert list(league.trusted_scorekeepers.values_list("username", flat=True)) == ["ada"]
    assert league.points_table == {"2": [1, 0], "3": [1, 0, 0]} and league.min_games == 3


def _refusals(world) -> dict[str, tuple[dict, str, str]]:
    return {
        "dates": ({"ends_on": dt.date(2026, 12, 31)}, "dates_out_of_order", "ends_on"),
        "no name": ({"name": "   "}, "invalid_name", "name"),
        "unknown game": ({"game_slugs": ["no-such-game"]}, "unknown_game", "games"),
        "points rise": ({"points_table": {"3": [1, 2, 3]}}, "invalid_points_table", "points_table"),
        "points short": ({"points_table": {"4": [5, 3, 2]}}, "invalid_points_table", "points_table"),
        "points negative": ({"points_table": {"2": [1, -1]}}, "invalid_points_table", "points_table"),
        "points not whole": ({"points_table": {"2": [1.5, 0]}}, "invalid_points_table", "points_table"),
        "points size": ({"points_table": {"many": [1]}}, "invalid_points_table", "points_table"),
        "no points": ({"points_table": {"2": [0, 0]}}, "no_points", "points_table"),
        "tie-breaker twice": ({"tie_breakers": ["wins", "wins"]}, "invalid_tie_breakers", "tie_breakers"),
        "tie-breaker unknown": ({"tie_breakers": ["luck"]}, "invalid_tie_breakers", "tie_breakers"),
        "kinds": ({"record_kinds": "some"}, "invalid_record_kinds", "record_kinds"),
        "min games": ({"min_games": -1}, "invalid_min_games", "min_games"),
        "player of B": ({"members": [world["ada-player"].pk, world["zoe-player"].pk]}, "not_in_organisation",
                        "members"),
        "organiser of B": ({"organisers": [world["ada"].pk, world["orga-b"].pk]}, "not_in_organisation",
                           "organisers"),
        "scorekeeper of B": ({"trusted_scorekeepers": [world["zoe"].pk]}, "not_in_organisation",
                             "trusted_scorekeepers"),
    }


REFUSALS = ["dates", "no name", "unknown game", "points rise", "points short", "points negative", "points not whole",
            "points size", "no points", "tie-breaker twice", "tie-breaker unknown", "kinds", "min games",
            "player of B", "organiser of B", "scorekeeper of B"]


@pytest.mark.parametrize("case", REFUSALS)
def test_a_refused_league_is_not_made(world, case):
    changes, reason, field = _refusals(world)[case]
    with pytest.raises(LeagueRefused) as refused:
        leagues.create_league(world["a"], settings_for(world, **changes), by=world["orga-a"])
    assert (refused.value.reason, refused.value.field, refused.value.status_code) == (reason, field, 400)
    assert refused.value.message
    assert not League.objects.exists()


@pytest.mark.parametrize("case", REFUSALS)
def test_a_refused_change_changes_nothing(world, case):
    league = leagues.create_league(world["a"], settings_for(world), by=world["orga-a"])
    before = League.objects.filter(pk=league.pk).values().get()
    changes, reason, _field = _refusals(world)[case]
    with pytest.raises(LeagueRefused) as refused:
        leagues.edit_league(league, settings_for(world, **{"name": "Autre nom", **changes}), by=world["orga-a"])
    assert refused.value.reason == reason
    assert League.objects.filter(pk=league.pk).values().get() == before
    assert set(league.members.values_list("display_name", flat=True)) == {"Ada", "Bea", "Orga-A"}
    assert set(league.organisers.values_list("username", flat=True)) == {"ada", "bea"}


def test_a_name_the_club_has_already(world):
    leagues.create_league(world["a"], settings_for(world), by=world["orga-a"])
    with pytest.raises(LeagueRefused) as refused:
        leagues.create_league(world["a"], settings_for(world, name="saison 2027"), by=world["orga-a"])
    assert refused.value.reason == "name_taken"
    assert League.objects.count() == 1


def test_only_those_who_run_the_organisations_leagues(world):
    with pytest.raises(MayNotRunLeagues):
        leagues.create_league(world["a"], settings_for(world), by=world["ada"])
    with pytest.raises(MayNotRunLeagues):
        leagues.create_league(world["a"], settings_for(world), by=world["orga-b"])
    assert not League.objects.exists()
    league = leagues.create_league(world["a"], settings_for(world), by=world["orga-a"])
    before = League.objects.filter(pk=league.pk).values().get()
    for outsider in (world["orga-b"], world["ada"]):  # ada organises this league, not the club's leagues
        with pytest.raises(MayNotRunLeagues) as refused:
            leagues.edit_league(league, settings_for(world, name="Pris"), by=outsider)
        assert refused.value.status_code == 403
    assert League.objects.filter(pk=league.pk).values().get() == before


def test_a_game_the_league_names_already_stays_allowed(world):
    """A league made in the admin with a game no list offers any more keeps it when edited."""
    league = leagues.create_league(world["a"], settings_for(world), by=world["orga-a"])
    League.objects.filter(pk=league.pk).update(game_slugs=["old-game"])
    league.refresh_from_db()
    leagues.edit_league(league, settings_for(world, game_slugs=["old-game"]), by=world["orga-a"])
    assert League.objects.get(pk=league.pk).game_slugs == ["old-game"]


def test_the_preset_a_table_is():
    assert leagues.preset_of(leagues.preset_table(leagues.F1_LIKE)) == "f1"
    assert leagues.preset_of(leagues.preset_table(leagues.WIN_ONLY, [2, 3])) == "win"
    assert leagues.preset_of({"4": [5, 3, 2, 0]}) is None
    assert leagues.preset_of({}) is None


def test_the_operators_admin_form_takes_every_game():
    """The admin's league form once refused its own default ("[]": "This field is required")."""
    from django.forms import modelform_factory

    form = modelform_factory(League, fields=["game_slugs"])(data={"game_slugs": "[]"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["game_slugs"] == []
