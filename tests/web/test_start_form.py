"""Starting a record from a phone: club members offered first, new players added on purpose, the box used."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Copy
from games.services import demo_catalogue_data, load_catalogue
from records.models import GameRecord, Player
from scoring.models import Club, League, LeagueMembership
from tests.factories import HG

pytestmark = pytest.mark.django_db

MEMBERS = ["Alice", "Bastien", "Chloé", "David"]


@pytest.fixture
def club() -> Club:
    club = Club.objects.create(name="Club de la ludothèque")
    league = League.objects.create(club=club, name="Saison 2026", starts_on=dt.date(2026, 1, 1),
                                   ends_on=dt.date(2026, 12, 31))
    for name in MEMBERS:
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name))
    return club


@pytest.fixture
def keeper_client(client: Client, club) -> Client:
    client.force_login(get_user_model().objects.create_user("keeper", password="keeper-pw-123456"))
    return client


@pytest.fixture
def copies() -> dict[str, Copy]:
    load_catalogue(demo_catalogue_data())
    return {copy.barcode: copy for copy in Copy.objects.select_related("record")}


def start(client: Client, **fields) -> tuple[int, str]:
    response = client.post("/scorekeeping/", {"game": HG, "played_on": "2026-11-28", **fields})
    return response.status_code, response.content.decode()


def seated(record: GameRecord) -> list[str]:
    return [seat.player.display_name for seat in record.seats.order_by("seat_order")]


def test_the_club_members_are_chips_and_the_first_names_suggested(keeper_client: Client):
    Player.objects.create(display_name="Zacharie")  # known, but not a member
    html = keeper_client.get("/scorekeeping/").content.decode()
    chips = re.findall(r'<button type="button" class="chip" data-name="([^"]+)"', html)
    assert chips == MEMBERS
    datalist = re.search(r'<datalist id="known-players">(.*?)</datalist>', html, re.S)[1]
    assert re.findall(r'<option value="([^"]+)">', datalist) == [*MEMBERS, "Zacharie"]
    assert html.count('list="known-players"') == 6, "every seat suggests the known players"
    assert 'id="member-chips" hidden' in html, "the chips need start.js; without it the seats are plain fields"
    assert '<script src="/static/ludolog/start.js" defer></script>' in html


def test_the_game_is_a_radio_button_per_game_with_the_first_chosen(keeper_client: Client):
    html = keeper_client.get("/scorekeeping/").content.decode()
    radios = re.findall(r'<input type="radio" name="game" value="([^"]+)"[^>]*>', html)
    assert sorted(radios) == ["carcassonne", "carcassonne-maps", "hunters-gatherers", "stone-age"]
    assert html.count('name="game"') == 4 and re.search(r'<input type="radio" name="game"[^>]* checked', html)
    assert "<span>Carcassonne: Hunters and Gatherers</span>" in html


def test_the_seed_is_folded_away_until_it_is_used(keeper_client: Client):
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert '<details class="seed">' in html and "<summary>Let Ludolog draw and roll (seed)</summary>" in html
    status, html = start(keeper_client, seat_1="Alice", seat_2="Bastien", seed="-1")
    assert status == 400 and '<details class="seed" open>' in html, "a refused seed is shown"


@pytest.mark.parametrize("typed", ["alice", "ALICE ", "Alíce"])
def test_any_spelling_of_a_known_name_seats_that_player_without_asking(keeper_client: Client, typed):
    status, _html = start(keeper_client, seat_1=typed, seat_2="chloe")
    assert status == 302
    assert seated(GameRecord.objects.get()) == ["Alice", "Chloé"]
    assert Player.objects.count() == len(MEMBERS)


def test_a_name_nobody_has_is_refused_until_added_as_a_new_player(keeper_client: Client):
    status, html = start(keeper_client, seat_1="Alice", seat_2="Bastien", seat_3="Zoé")
    assert status == 400
    assert "No player called “Zoé” yet." in html
    assert re.search(r'<input type="checkbox" name="new_3" value="Zoé">\s*<span>Add Zoé as a new player</span>', html)
    assert not GameRecord.objects.exists() and not Player.objects.filter(display_name="Zoé").exists()

    status, _html = start(keeper_client, seat_1="Alice", seat_2="Bastien", seat_3="Zoé", new_3="Zoé")
    assert status == 302
    assert seated(GameRecord.objects.get()) == ["Alice", "Bastien", "Zoé"]
    assert Player.objects.filter(display_name="Zoé").count() == 1


def test_a_tick_given_for_another_name_does_not_add_this_one(keeper_client: Client):
    # The page asked about "Zoé"; the name was then changed to "Zoey" without asking again.
    status, html = start(keeper_client, seat_1="Alice", seat_2="Zoey", new_2="Zoé")
    assert status == 400 and "No player called “Zoey” yet." in html
    assert 'name="new_2" value="Zoey">' in html and 'value="Zoey" checked' not in html
    assert not Player.objects.filter(display_name__startswith="Zo").exists()


def test_a_ticked_new_player_stays_ticked_when_something_else_is_refused(keeper_client: Client):
    status, html = start(keeper_client, seat_1="Alice", seat_2="Zoé", new_2="Zoé", played_on="someday")
    assert status == 400 and '<input type="checkbox" name="new_2" value="Zoé" checked>' in html
    assert "No player called" not in html
    assert not Player.objects.filter(display_name="Zoé").exists()


@pytest.mark.parametrize(
    "seats",
    [
        {"seat_1": "Alice", "seat_2": "alice"},
        {"seat_1": "Chloé", "seat_2": "Bastien", "seat_3": "CHLOE"},
        {"seat_1": "Zoé", "new_1": "Zoé", "seat_2": "zoe", "new_2": "zoe"},
    ],
)
def test_two_seats_for_one_player_are_refused(keeper_client: Client, seats):
    status, html = start(keeper_client, **seats)
    assert status == 400 and "Each player can take only one seat." in html
    assert not GameRecord.objects.exists() and Player.objects.count() == len(MEMBERS)


def test_too_many_players_for_the_game_are_refused_in_the_readers_words(keeper_client: Client):
    status, html = start(keeper_client, game="stone-age", seat_1="Alice", seat_2="Bastien", seat_3="Chloé",
                         seat_4="David", seat_5="Zoé", new_5="Zoé")
    assert status == 400 and "Stone Age is for 2 to 4 players." in html
    assert not GameRecord.objects.exists() and not Player.objects.filter(display_name="Zoé").exists()


def test_the_copy_used_is_offered_by_game_and_linked_to_the_record(keeper_client: Client, copies):
    html = keeper_client.get("/scorekeeping/").content.decode()
    copy = copies["LUD-HG-0002"]
    assert re.search(
        rf'<option value="{copy.pk}" data-game="hunters-gatherers">'
        r"Carcassonne à la prèhistoire · LUD-HG-0002 · [^<]+</option>", html)
    withdrawn = [c for c in copies.values() if c.status == Copy.Status.WITHDRAWN]
    assert withdrawn and all(f'<option value="{c.pk}"' not in html for c in withdrawn)

    status, _html = start(keeper_client, seat_1="Alice", seat_2="Bastien", copy=str(copy.pk))
    assert status == 302
    record = GameRecord.objects.get()
    assert (record.copy, record.catalogue_record) == (copy, copy.record)


def test_a_copy_of_another_game_is_refused(keeper_client: Client, copies):
    stone_age = copies["LUD-SA-0001"]
    status, html = start(keeper_client, seat_1="Alice", seat_2="Bastien", copy=str(stone_age.pk))
    assert status == 400
    assert f"This copy is a box of {stone_age.record.title}, not of Carcassonne: Hunters and Gatherers." in html
    assert not GameRecord.objects.exists()


def test_no_copy_is_a_record_without_one(keeper_client: Client, copies):
    assert start(keeper_client, seat_1="Alice", seat_2="Bastien", copy="")[0] == 302
    record = GameRecord.objects.get()
    assert record.copy is None and record.catalogue_record is None


def test_the_page_speaks_french(keeper_client: Client):
    keeper_client.cookies["django_language"] = "fr"
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert "Laisser Ludolog piocher et lancer les dés (graine)" in html
    assert "Touchez un membre du club" in html and "joue en premier" in html
    status, html = start(keeper_client, seat_1="Alice", seat_2="Zoé")
    assert status == 400
    assert "Pas encore de joueur nommé « Zoé »." in html and "Ajouter Zoé comme nouveau joueur" in html


def test_the_date_is_filled_in_for_a_date_input_in_french_too(keeper_client: Client):
    keeper_client.cookies["django_language"] = "fr"
    html = keeper_client.get("/scorekeeping/").content.decode()
    played_on = re.search(r'<input type="date" name="played_on" value="([^"]*)"', html)[1]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", played_on), "a date input shows only ISO dates"


def test_a_link_from_a_catalogue_record_chooses_its_game(keeper_client):
    html = keeper_client.get("/scorekeeping/?game=stone-age").content.decode()
    assert re.search(r'<input[^>]*value="stone-age"[^>]*checked', html) or \
        re.search(r'<input[^>]*checked[^>]*value="stone-age"', html)
    assert keeper_client.get("/scorekeeping/?game=chess").status_code == 200


def test_carcassonne_s_expansions_and_meeples_are_chosen_at_the_start(keeper_client: Client):
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert 'fieldset class="setup-choices" data-game="carcassonne"' in html
    status, _html = start(keeper_client, game="carcassonne", seat_1="Alice", seat_2="Bastien",
                          **{"setup-carcassonne-expansions": ["inns_cathedrals", "traders_builders"],
                             "setup-carcassonne-tiles_only": "on", "setup-carcassonne-meeples": "9"})
    assert status == 302
    record = GameRecord.objects.get()
    assert record.setup == {"expansions": ["inns_cathedrals", "traders_builders"], "rules": [], "meeples": 9}


def test_another_game_s_set_up_answers_are_not_read(keeper_client: Client):
    status, _html = start(keeper_client, seat_1="Alice", seat_2="Bastien",
                          **{"setup-carcassonne-expansions": ["inns_cathedrals"]})
    assert status == 302 and GameRecord.objects.get().setup == {}


def test_six_players_need_inns_and_cathedrals(keeper_client: Client):
    six = {f"seat_{n}": name for n, name in enumerate(MEMBERS + ["Elif", "Fei"], start=1)}
    six |= {"new_5": "Elif", "new_6": "Fei"}
    status, html = start(keeper_client, game="carcassonne", **six)
    assert status == 400 and "need Inns &amp; Cathedrals" in html and not GameRecord.objects.exists()
    status, _html = start(keeper_client, game="carcassonne", **six, **{"setup-carcassonne-expansions": ["inns_cathedrals"]})
    assert status == 302 and GameRecord.objects.get().seats.count() == 6


def test_stone_age_is_started_under_the_newest_rules_unless_the_older_one_is_chosen(keeper_client: Client):
    from games.registry import get_engine

    first, newest = get_engine("stone-age").rulesets
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert 'data-game="stone-age"' in html and "feeding as published" in html
    status, _html = start(keeper_client, game="stone-age", seat_1="Alice", seat_2="Bastien",
                          **{"setup-stone-age-variants": ["newborn_eats_next_round"]})
    assert status == 302
    record = GameRecord.objects.get()
    assert (record.ruleset_version, record.setup) == (newest, {"variants": ["newborn_eats_next_round"]})
    status, _html = start(keeper_client, game="stone-age", seat_1="Alice", seat_2="Bastien",
                          **{"setup-stone-age-ruleset": first})
    assert status == 302 and GameRecord.objects.order_by("-pk").first().ruleset_version == first


def test_a_hunters_and_gatherers_variant_is_pinned(keeper_client: Client):
    status, _html = start(keeper_client, seat_1="Alice", seat_2="Bastien",
                          **{"setup-hunters-gatherers-variants": ["figures_home_at_end_of_turn"]})
    assert status == 302 and GameRecord.objects.get().setup == {"variants": ["figures_home_at_end_of_turn"]}
