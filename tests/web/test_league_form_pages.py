"""The organiser's league pages ("New league", "Edit the league") through the test client: who
sees them and their links, games offered by their names (never their identifiers), players and
co-organisers of the organisation only, the points presets and rows, and every refusal a 4xx in
the reader's language that saves nothing."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Organisation
from accounts.roles import Role
from games.models import CatalogueRecord
from records.models import Player
from scoring import leagues
from scoring.models import League
from tests.factories import give_role

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def world(django_user_model):
    a = Organisation.objects.create(name="Club A", slug="club-a")
    b = Organisation.objects.create(name="Club B", slug="club-b")
    found = {"a": a, "b": b}
    for username, organisation, role in [("orga-a", a, Role.ORGANISER), ("ada", a, None), ("bea", a, None),
                                         ("orga-b", b, Role.ORGANISER), ("zoe", b, None)]:
        user = give_role(django_user_model.objects.create_user(username), role, organisation)
        found[username] = user
        found[f"{username}-player"] = Player.objects.create(display_name=username.title(), user=user)
    CatalogueRecord.objects.create(title="Les Colons de Catane")
    return found


def client_of(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def text_of(response) -> str:
    """What a person reads of the page: its text, without tags and attributes."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def posted(world, **changes) -> dict:
    data = {"name": "Saison 2027", "starts_on": "2027-01-01", "ends_on": "2027-06-30", "games_scope": "all",
            "record_kinds": "all", "scoring_system": "points", "points_preset": "places", "min_games": "0",
            "tie_breaker_1": "wins", "tie_breaker_2": "average_score",
            "members": [world["ada-player"].pk, world["bea-player"].pk],
            "organisers": [world["ada"].pk, world["bea"].pk]}
    data.update(changes)
    return data


def a_league(world) -> League:
    return leagues.create_league(world["a"], leagues.LeagueSettings(
        name="Printemps", starts_on=dt.date(2027, 3, 1), ends_on=dt.date(2027, 5, 31),
        points_table=leagues.preset_table(leagues.WIN_ONLY), members=[world["ada-player"].pk],
        organisers=[world["ada"].pk]), by=world["orga-a"])


def test_the_links_are_for_those_who_run_the_leagues(world):
    league = a_league(world)
    organiser, member = client_of(world["orga-a"]), client_of(world["ada"])
    new = "/organisations/club-a/leagues/new/"
    assert new in organiser.get("/leagues/").content.decode()
    assert new in organiser.get("/organisations/club-a/").content.decode()
    assert f"/leagues/{league.pk}/edit/" in organiser.get(f"/leagues/{league.pk}/").content.decode()
    # ada organises this league (she rules on its games) but does not run the club's leagues.
    for page in ("/leagues/", "/organisations/club-a/", f"/leagues/{league.pk}/"):
        body = member.get(page).content.decode()
        assert new not in body and "/edit/" not in body
    assert "/leagues/new/" not in client_of(world["orga-b"]).get("/organisations/club-a/").content.decode()


def test_the_new_league_page_names_games_and_people(world):
    response = client_of(world["orga-a"]).get("/organisations/club-a/leagues/new/")
    assert response.status_code == 200
    text = text_of(response)
    for name in ("Les Colons de Catane", "Carcassonne: Hunters and Gatherers", "Stone Age", "Every game",
                 "Win = 1 point", "5 / 3 / 2 / 1 by places", "Ada", "Bea", "Orga-A"):
        assert name in text
    for identifier in ("les-colons-de-catane", "hunters-gatherers", "stone-age", "average_score"):
        assert identifier not in text
    assert "Zoe" not in text and "Orga-B" not in text  # club B's people
    assert re.search(r'value="all"[^>]*checked', response.content.decode())  # every game, unless told


def test_an_organiser_creates_a_league_for_every_game(world):
    response = client_of(world["orga-a"]).post("/organisations/club-a/leagues/new/",
                                               posted(world, points_preset="f1"))
    league = League.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.pk}/"
    assert league.game_slugs == [] and league.club.organisation == world["a"]
    assert league.points_table == leagues.preset_table(leagues.F1_LIKE)
    assert set(league.organisers.values_list("username", flat=True)) == {"ada", "bea"}
    assert league.tie_breakers == ["wins", "average_score"]


def test_chosen_games_and_points_typed_by_table_size(world):
    data = posted(world, games_scope="chosen", games=["les-colons-de-catane", "stone-age"], points_preset="custom",
                  points_3_1="3", points_3_2="1", points_3_3="", points_4_1="4", points_4_2="2", points_4_3="1",
                  points_4_4="0", tie_breaker_1="average_score", tie_breaker_2="")
    assert client_of(world["orga-a"]).post("/organisations/club-a/leagues/new/", data).status_code == 302
    league = League.objects.get()
    assert sorted(league.game_slugs) == ["les-colons-de-catane", "stone-age"]
    assert league.points_table == {"3": [3, 1, 0], "4": [4, 2, 1, 0]}
    assert league.tie_breakers == ["average_score"]


REFUSED = {
    "a player of another club": ({"members": ["{zoe-player}"]}, "one of the organisation&#x27;s players"),
    "a co-organiser of another club": ({"organisers": ["{orga-b}"]}, "among the organisation&#x27;s members"),
    "dates the wrong way": ({"ends_on": "2026-12-31"}, "The last day comes before the first."),
    "points that rise": ({"points_preset": "custom", "points_3_1": "1", "points_3_2": "2", "points_3_3": "3"},
                         "a better place never worth fewer points"),
    "no game ticked": ({"games_scope": "chosen"}, "Tick the games that count"),
    "a game nobody has": ({"games_scope": "chosen", "games": ["no-such-game"]}, "neither one with rules here"),
    "the same tie-breaker twice": ({"tie_breaker_2": "wins"}, "Each tie-breaker once"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_bad_input_is_a_400_with_its_reason_and_nothing_saved(world, case):
    changes, words = REFUSED[case]
    ids = {key: value.pk for key, value in world.items() if hasattr(value, "pk")}
    changes = {key: [item.format(**ids) for item in value] if isinstance(value, list) else value
               for key, value in changes.items()}
    response = client_of(world["orga-a"]).post("/organisations/club-a/leagues/new/", posted(world, **changes))
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not League.objects.exists()


def test_the_edit_page_shows_the_league_and_saves_it(world):
    league = a_league(world)
    organiser = client_of(world["orga-a"])
    page = organiser.get(f"/leagues/{league.pk}/edit/").content.decode()
    assert 'value="Printemps"' in page and 'value="2027-03-01"' in page
    assert re.search(r'value="win"[^>]*checked', page)
    assert re.search(rf'name="organisers" value="{world["ada"].pk}"[^>]*checked', page)
    response = organiser.post(f"/leagues/{league.pk}/edit/", posted(
        world, name="Printemps bis", organisers=[world["bea"].pk], trusted_scorekeepers=[world["ada"].pk]))
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.name == "Printemps bis" and league.points_table == leagues.preset_table(leagues.BY_PLACES)
    assert list(league.organisers.values_list("username", flat=True)) == ["bea"]
    assert list(league.trusted_scorekeepers.values_list("username", flat=True)) == ["ada"]


@pytest.mark.parametrize("who", ["orga-b", "ada"])
def test_an_organiser_of_another_club_or_a_member_changes_nothing(world, who):
    league = a_league(world)
    before = League.objects.filter(pk=league.pk).values().get()
    visitor = client_of(world[who])
    assert visitor.get(f"/leagues/{league.pk}/edit/").status_code == 403
    response = visitor.post(f"/leagues/{league.pk}/edit/", posted(world, name="Pris", members=[]))
    assert response.status_code == 403
    assert "Only those who run this organisation&#x27;s leagues" in response.content.decode()
    assert League.objects.filter(pk=league.pk).values().get() == before
    assert visitor.post("/organisations/club-a/leagues/new/", posted(world)).status_code == 403
    assert League.objects.count() == 1


def test_anonymous_visitors_are_sent_to_log_in(world, client):
    response = client.get("/organisations/club-a/leagues/new/")
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.get("/organisations/nowhere/leagues/new/").status_code == 302
    assert client_of(world["orga-a"]).get("/organisations/nowhere/leagues/new/").status_code == 404
    assert client_of(world["orga-a"]).get("/leagues/999999/edit/").status_code == 404


def test_in_french(world):
    organiser = client_of(world["orga-a"], "fr")
    text = text_of(organiser.get("/organisations/club-a/leagues/new/"))
    for words in ("Nouvelle ligue", "Tous les jeux", "Victoire = 1 point", "Co-organisateurs de la ligue",
                  "Départages, dans l’ordre"):
        assert words in text
    response = organiser.post("/organisations/club-a/leagues/new/", posted(world, ends_on="2026-12-31"))
    assert response.status_code == 400 and "Le dernier jour précède le premier." in text_of(response)
