"""Starting a record from a phone: club members offered first, new players added on purpose, the box used."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.models import Organisation
from accounts.roles import Role
from games.models import Copy
from games.services import demo_catalogue_data, load_catalogue
from records.models import GameRecord, Player
from records.services import SeatSpec, start_game
from scoring.models import Club
from tests.factories import HG, club_with_league, give_role

pytestmark = pytest.mark.django_db

MEMBERS = ["Alice", "Bastien", "Chloé", "David"]


@pytest.fixture
def club() -> Club:
    """The ludothèque's club, whose 2026 league has the ``MEMBERS``."""
    return club_with_league("Club de la ludothèque", "Saison 2026", MEMBERS)


@pytest.fixture
def keeper_client(keeper_client: Client, club, keeper) -> Client:
    """The scorekeeper logged in (``tests/web/conftest.py``), a member of the club."""
    give_role(keeper, Role.MEMBER, club.organisation)
    return keeper_client


@pytest.fixture
def copies(club) -> dict[str, Copy]:
    """The demo's boxes, on the club's shelves (a club's start form offers its own boxes only)."""
    load_catalogue(demo_catalogue_data())
    Copy.objects.update(organisation=club.organisation)
    return {copy.barcode: copy for copy in Copy.objects.select_related("record")}


def start(client: Client, **fields) -> tuple[int, str]:
    response = client.post("/scorekeeping/", {"game": HG, "played_on": "2026-11-28", **fields})
    return response.status_code, response.content.decode()


def seated(record: GameRecord) -> list[str]:
    return [seat.player.display_name for seat in record.seats.order_by("seat_order")]


def test_the_club_members_are_chips_and_the_first_names_suggested(keeper_client: Client, club, keeper):
    # Zacharie played one of the club's games but is no member: suggested after them. Yvonne is
    # known only from another organisation's game: not offered here (accounts.scoping).
    start_game(game_slug=HG, seats=[SeatSpec("Zacharie"), SeatSpec("Alice")], created_by=keeper,
               organisation=club.organisation)
    elsewhere = Organisation.objects.create(name="Les Dunes", slug="les-dunes")
    start_game(game_slug=HG, seats=[SeatSpec("Yvonne"), SeatSpec("Xavier")], created_by=keeper, organisation=elsewhere)
    html = keeper_client.get("/scorekeeping/").content.decode()
    chips = re.findall(r'<button type="button" class="chip" data-name="([^"]+)"', html)
    assert chips == MEMBERS
    datalist = re.search(r'<datalist id="known-players">(.*?)</datalist>', html, re.S)[1]
    assert re.findall(r'<option value="([^"]+)">', datalist) == [*MEMBERS, "Zacharie"]
    assert "Yvonne" not in datalist and "Xavier" not in datalist
    assert html.count('list="known-players"') == 6, "every seat suggests the known players"
    assert 'id="member-chips" hidden' in html, "the chips need start.js; without it the seats are plain fields"
    assert '<script src="/static/ludolog/start.js" defer></script>' in html


def test_the_game_is_a_radio_button_per_game_with_the_first_chosen(keeper_client: Client):
    html = keeper_client.get("/scorekeeping/").content.decode()
    radios = re.findall(r'<input type="radio" name="game" value="([^"]+)"[^>]*>', html)
    assert sorted(radios) == ["carcassonne", "carcassonne-maps", "hunters-gatherers", "stone-age"]
    assert html.count('name="game"') == 4 and re.search(r'<input type="radio" name="game"[^>]* checked', html)
    assert "<span>Carcassonne: Hunters and Gatherers</span>" in html


def test_a_refused_seed_is_shown_with_its_reason(keeper_client: Client):
    status, html = start(keeper_client, seat_1="Alice", seat_2="Bastien", ludolog_draws="on", seed="-1")
    assert status == 400
    assert re.search(r'id="seed-field">.*<span class="error" role="alert">[^<]+</span>', html, re.S), \
        "a refused seed is shown"


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
    assert "Ludolog pioche et lance les dés" in html and "Partie amicale (hors ligue)" in html
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


def test_the_games_in_progress_name_the_game_the_players_and_the_moves(keeper_client: Client):
    from games.registry import UNDO
    from records.services import append_event
    from tests.factories import event

    assert start(keeper_client, seat_1="Alice", seat_2="Bastien", seed="", ludolog_draws="on")[0] == 302
    assert start(keeper_client, game="stone-age", seat_1="Chloé", seat_2="David")[0] == 302
    tiles = GameRecord.objects.get(game_slug=HG)
    for seq in range(3):
        kind, payload = event(seq, seed=tiles.seed)
        append_event(tiles, seq, kind, payload)
    append_event(tiles, 3, UNDO, {})  # takes back the third move
    html = keeper_client.get("/scorekeeping/").content.decode()
    lines = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line)).strip()
             for line in re.findall(r"<li class=\"in-progress-game\">(.*?)</li>", html, re.S)]
    assert len(lines) == 2
    assert "Stone Age" in lines[0] and "Chloé, David" in lines[0] and "no moves yet" in lines[0]
    assert "Carcassonne: Hunters and Gatherers" in lines[1] and "Alice, Bastien" in lines[1]
    assert "2 moves" in lines[1]


def test_ludolog_draws_and_rolls_is_a_toggle_with_a_seed_picked_and_editable(keeper_client: Client):
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert re.search(r'<input type="checkbox" name="ludolog_draws"[^>]*>\s*Ludolog draws and rolls', html)
    offered = int(re.search(r'<input type="number" name="seed"[^>]* data-picked="(\d+)"', html)[1])
    assert offered >= 0, "a seed is picked for the experts to see or change"

    assert start(keeper_client, seat_1="Alice", seat_2="Bastien", ludolog_draws="on", seed="")[0] == 302
    assert GameRecord.objects.get().seed is not None, "the toggle alone seeds the record"
    assert start(keeper_client, seat_1="Alice", seat_2="Bastien", ludolog_draws="on", seed="7")[0] == 302
    assert GameRecord.objects.order_by("-pk").first().seed == 7
    assert start(keeper_client, seat_1="Alice", seat_2="Bastien", seed="")[0] == 302
    assert GameRecord.objects.order_by("-pk").first().seed is None, "toggled off: every draw is recorded"
    status, html = start(keeper_client, seat_1="Alice", seat_2="Bastien", ludolog_draws="on", seed="-1")
    assert status == 400 and GameRecord.objects.count() == 3


def test_each_seat_takes_one_of_the_game_s_own_colours(keeper_client: Client):
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert html.count('name="colour_') == 6
    seat_1 = html.split('name="colour_1"')[1].split("</select>")[0]
    stone_age = re.findall(r'<option value="([a-z]+)" data-games="[^"]*stone-age[^"]*"', seat_1)
    assert sorted(stone_age) == ["blue", "green", "red", "yellow"]
    status, _html = start(keeper_client, game="stone-age", seat_1="Alice", seat_2="Bastien", seat_3="Chloé",
                          colour_1="blue", colour_3="red")
    assert status == 302
    record = GameRecord.objects.get()
    assert [seat.colour for seat in record.seats.order_by("seat_order")] == ["blue", "yellow", "red"], \
        "a seat left to the default takes the game's first colour nobody chose"

    status, html = start(keeper_client, game="stone-age", seat_1="Alice", seat_2="Bastien", colour_2="grey")
    assert status == 400 and "not a colour of Stone Age" in html
    status, html = start(keeper_client, game="stone-age", seat_1="Alice", seat_2="Bastien", colour_1="red",
                         colour_2="red")
    assert status == 400 and "Each colour can be taken only once." in html
    assert GameRecord.objects.count() == 1


def test_a_random_first_player_shuffles_the_seats_with_their_colours(keeper_client: Client):
    names = ["Alice", "Bastien", "Chloé", "David"]
    colours = ["red", "yellow", "green", "blue"]
    orders = set()
    for _attempt in range(12):
        fields = {f"seat_{n}": name for n, name in enumerate(names, start=1)}
        fields |= {f"colour_{n}": colour for n, colour in enumerate(colours, start=1)}
        assert start(keeper_client, game="stone-age", shuffle_seats="on", **fields)[0] == 302
        record = GameRecord.objects.order_by("-pk").first()
        seats = list(record.seats.order_by("seat_order"))
        assert sorted(seat.player.display_name for seat in seats) == sorted(names)
        assert all(seat.colour == colours[names.index(seat.player.display_name)] for seat in seats)
        orders.add(tuple(seat.player.display_name for seat in seats))
    assert len(orders) > 1, "12 shuffles of 4 players all alike: the seats were not shuffled"
    start(keeper_client, game="stone-age", seat_1="Alice", seat_2="Bastien")
    assert seated(GameRecord.objects.order_by("-pk").first()) == ["Alice", "Bastien"], "unticked: the order typed"


def test_the_play_times_are_kept_and_edited_on_the_game_page(keeper_client: Client):
    status, _html = start(keeper_client, seat_1="Alice", seat_2="Bastien", play_started_at="2026-11-28T20:15")
    assert status == 302
    record = GameRecord.objects.get()
    assert timezone.localtime(record.play_started_at).strftime("%Y-%m-%d %H:%M") == "2026-11-28 20:15"
    assert record.play_ended_at is None
    page = keeper_client.get(f"/games/{record.pk}/").content.decode()
    assert 'name="play_started_at" value="2026-11-28T20:15"' in page and 'name="play_ended_at"' in page
    answer = keeper_client.post(f"/games/{record.pk}/times/",
                                {"play_started_at": "2026-11-28T20:10", "play_ended_at": "2026-11-28T21:40"})
    assert answer.status_code == 302
    record.refresh_from_db()
    assert timezone.localtime(record.play_ended_at).strftime("%H:%M") == "21:40"
    assert timezone.localtime(record.play_started_at).strftime("%H:%M") == "20:10"
    answer = keeper_client.post(f"/games/{record.pk}/times/",
                                {"play_started_at": "2026-11-28T22:00", "play_ended_at": "2026-11-28T21:40"})
    assert answer.status_code == 400 and "Play cannot end before it started." in answer.content.decode()
    record.refresh_from_db()
    assert timezone.localtime(record.play_started_at).strftime("%H:%M") == "20:10"


def test_the_play_times_are_edited_only_by_the_record_s_keepers(keeper_client: Client):
    assert start(keeper_client, seat_1="Alice", seat_2="Bastien")[0] == 302
    record = GameRecord.objects.get()
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("stranger"))
    assert 'name="play_ended_at"' not in stranger.get(f"/games/{record.pk}/").content.decode()
    assert stranger.post(f"/games/{record.pk}/times/", {"play_ended_at": "2026-11-28T21:40"}).status_code == 403
    record.refresh_from_db()
    assert record.play_ended_at is None


def test_a_friendly_game_is_started_as_such_and_shown_so(keeper_client: Client):
    assert start(keeper_client, seat_1="Alice", seat_2="Bastien", is_friendly="on")[0] == 302
    record = GameRecord.objects.get()
    assert record.is_friendly
    assert "Friendly game (not in the league)" in keeper_client.get(f"/games/{record.pk}/").content.decode()
    assert start(keeper_client, seat_1="Alice", seat_2="Bastien")[0] == 302
    assert not GameRecord.objects.order_by("-pk").first().is_friendly


def test_a_game_without_play_times_shows_its_first_and_last_moves_times(keeper_client: Client):
    from records.services import SeatSpec, append_event, start_game

    record = start_game(game_slug="stone-age", seats=[SeatSpec("Alice"), SeatSpec("Bastien")], result_only=True)
    result = append_event(record, 0, "result", {"scores": [{"seat": 0, "score": 50}, {"seat": 1, "score": 40}]})
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED and record.play_ended_at is None
    page = keeper_client.get(f"/games/{record.pk}/").content.decode()
    shown = re.findall(r'<dt>Play (started|ended)</dt><dd><time datetime="([^"]+)"', page)
    moment = timezone.localtime(result.recorded_at).isoformat()
    assert shown == [("started", moment), ("ended", moment)], "the first and the last move's times"


# -- Carcassonne Maps: a table that sets its own game up ----------------------------------------

MAPS = "carcassonne-maps"


def maps_table_answers(seed: int = 11) -> tuple[dict, dict]:
    """The start form's answers for the table a seed would have set up, and that table (what the
    engine's TableSetUp says of it)."""
    from games.registry import get_engine

    engine = get_engine(MAPS)
    table = engine.engine.setup_from_dict(engine.prepare_setup(2, seed, {})["table"]).table().to_dict()
    answers = {
        "game": MAPS, "seat_1": "Alice", "seat_2": "Bastien",
        f"setup-{MAPS}-expansions": ["inns_cathedrals", "traders_builders"], f"setup-{MAPS}-tiles_only": "on",
        f"setup-{MAPS}-meeples": "7", f"setup-{MAPS}-start_squares": table["start_squares"],
        f"setup-{MAPS}-second_start_tile": table["start_tiles"][1]["tile"],
        f"setup-{MAPS}-chip_squares": " ".join(f"{x},{y}" for x, y in table["chip_squares"]),
    }
    for face_up in table["island_face_up"]:
        answers[f"setup-{MAPS}-island_{face_up['colour']}_{face_up['stack']}"] = face_up["tile"]
    return answers, table


def test_maps_offers_a_table_set_up_with_the_map_to_lay_the_chips_on(keeper_client: Client):
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert 'class="maps-table-map"' in html and "start-maps.js" in html
    assert html.count('data-kind="normal"') == 158, "every square a chip may lie on is on the map"
    assert f'name="setup-{MAPS}-chip_squares"' in html and f'name="setup-{MAPS}-second_start_tile"' in html
    assert html.count("data-tile-pick") == 7, "the other start square's tile and six island stacks' tiles"
    assert 'id="tile-IC16"' in html, "the tiles' pictures to pick from"


def test_a_maps_table_set_up_starts_a_record_without_a_seed_keeping_what_the_table_shows(keeper_client: Client):
    answers, table = maps_table_answers()
    response = keeper_client.post("/scorekeeping/", {"played_on": "2026-11-28", **answers})
    assert response.status_code == 302
    record = GameRecord.objects.get()
    assert record.seed is None
    stored = record.setup["table"]
    assert stored["start_squares"] == table["start_squares"] and stored["chip_squares"] == table["chip_squares"]
    assert stored["island_face_up"] == table["island_face_up"]
    assert [t["tile"] for t in stored["start_tiles"]] == [t["tile"] for t in table["start_tiles"]]
    assert "chips" not in stored and "island_stacks" not in stored, "nobody at the table saw the chips' faces"


@pytest.mark.parametrize("change, field, words", [
    ("one_chip_fewer", "chip_squares", "20 chips lie on the map: 19 are marked."),
    ("chips_side_by_side", "chip_squares", "Two chips lie side by side"),
    ("chip_on_a_wave", "chip_squares", "A chip lies on a wave square"),
    ("one_start_square", "start_squares", "Tick the two start squares used at the table."),
    ("no_island_tile", "island_orange_2", "Pick the tile face up on this stack."),
    ("too_many_crossroads", None, "more copies of a tile than the expansions ticked hold: X."),
    ("not_a_square", "chip_squares", "is not a square"),
])
def test_a_maps_table_set_up_the_rules_refuse_is_answered_in_words_and_stores_nothing(
        keeper_client: Client, change: str, field: str | None, words: str):
    answers, table = maps_table_answers()
    squares = [tuple(xy) for xy in table["chip_squares"]]
    chips = f"setup-{MAPS}-chip_squares"
    if change == "one_chip_fewer":
        answers[chips] = " ".join(f"{x},{y}" for x, y in squares[:-1])
    elif change == "chips_side_by_side":
        from games.engines.carcassonne_maps import chip_squares, load_benelux

        free = set(chip_squares(load_benelux(), table["start_squares"])) - set(squares)
        beside = next((x + dx, y) for x, y in squares[1:] for dx in (1, -1) if (x + dx, y) in free)
        answers[chips] = " ".join(f"{a},{b}" for a, b in [*squares[1:], beside])
    elif change == "chip_on_a_wave":
        answers[chips] = " ".join(f"{a},{b}" for a, b in [*squares[1:], (9, 5)])
    elif change == "one_start_square":
        answers[f"setup-{MAPS}-start_squares"] = table["start_squares"][:1]
    elif change == "no_island_tile":
        answers[f"setup-{MAPS}-island_orange_2"] = ""
    elif change == "too_many_crossroads":  # the box holds one crossroads X
        answers[f"setup-{MAPS}-island_violet_1"] = answers[f"setup-{MAPS}-island_violet_2"] = "X"
    elif change == "not_a_square":
        answers[chips] += " ten,six"
    response = keeper_client.post("/scorekeeping/", {"played_on": "2026-11-28", **answers})
    html = response.content.decode()
    assert response.status_code == 400 and not GameRecord.objects.exists()
    assert words in html.replace("&#x27;", "'").replace("&quot;", '"')
    errors = response.context["form"].errors
    assert (f"setup-{MAPS}-{field}" if field else "__all__") in errors


def test_a_maps_record_ludolog_sets_up_still_needs_no_table(keeper_client: Client):
    status, _html = start(keeper_client, game=MAPS, seat_1="Alice", seat_2="Bastien", ludolog_draws="on")
    assert status == 302
    record = GameRecord.objects.get()
    assert record.seed is not None and len(record.setup["table"]["chips"]) == 20


def test_the_maps_table_set_up_speaks_french(keeper_client: Client):
    answers, _table = maps_table_answers()
    answers[f"setup-{MAPS}-chip_squares"] = answers[f"setup-{MAPS}-chip_squares"].rsplit(" ", 1)[0]
    html = keeper_client.post("/scorekeeping/", {"played_on": "2026-11-28", **answers},
                              HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "20 jetons se trouvent sur la carte\u00a0: 19 sont marqués." in html.replace("&nbsp;", " ")
    page = keeper_client.get("/scorekeeping/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    for words in ("Où se trouvent les jetons", "Tuile sur l’autre case de départ",
                  "Tuile face visible, île violette, pile 1"):
        assert words in page, words
