"""The options API tells the tile picker which tiles of the pile fit nowhere (drawn at the table,
they are discarded): the engine's own answer, the same as asking the options of each tile."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.registry import get_engine
from ludolog.web.games import web_game
from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game

pytestmark = pytest.mark.django_db


def unseeded_after(game: str, keeper, seed: int, moves: int) -> GameRecord:
    """A record without a seed holding the first ``moves`` moves of a random game."""
    record = start_game(game_slug=game, seats=[SeatSpec("Ada"), SeatSpec("Bo")], created_by=keeper)
    for seq, (kind, payload) in enumerate(get_engine(game).random_game(2, seed)[:moves]):
        append_event(record, seq, kind, dict(payload), recorded_by=keeper)
    return record


@pytest.mark.parametrize(("game", "seed", "moves", "nowhere"), [
    ("hunters-gatherers", 1, 1, ["L14", "L18"]),  # two tiles whose sides no gap on the board takes
    ("carcassonne", 2, 3, ["C"]),  # the four-sided city, with roads and fields all round the board
])
def test_the_options_list_the_tiles_of_the_pile_that_fit_nowhere(keeper, game, seed, moves, nowhere):
    record = unseeded_after(game, keeper, seed, moves)
    api = APIClient()
    body = api.get(f"/api/records/{record.pk}/options/").json()
    assert body["seq"] == moves and body["drawn"] is None
    assert body["fits_nowhere"] == nowhere
    # The same answer as the options of each tile of the pile, one by one: discard only there.
    engine = get_engine(game)
    state = engine.new_state(2, None)
    for kind, payload in engine.random_game(2, seed)[:moves]:
        engine.apply(state, kind, dict(payload))
    pile = [entry["tile"] for entry in body["pile"]]
    assert set(nowhere) < set(pile)
    assert [tile for tile in pile if engine.options(state, tile)["discard"]] == nowhere
    # And through the API for one of them: no spot, discard offered.
    picked = api.get(f"/api/records/{record.pk}/options/?tile={nowhere[0]}").json()
    assert picked["spots"] == [] and picked["discard"] is True and picked["fits_nowhere"] == nowhere


def test_every_tile_fits_somewhere_at_the_start(keeper):
    record = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bo")], created_by=keeper)
    body = APIClient().get(f"/api/records/{record.pk}/options/").json()
    assert len(body["pile"]) == 24 and body["fits_nowhere"] == []


def test_a_seeded_record_has_no_pile_to_set_apart(record):
    body = APIClient().get(f"/api/records/{record.pk}/options/").json()
    assert body["drawn"] and body["pile"] == [] and body["fits_nowhere"] == []


def test_the_recorder_page_hands_the_picker_the_same_list(keeper_client, keeper):
    record = unseeded_after("hunters-gatherers", keeper, 1, 1)
    table = keeper_client.get(f"/scorekeeping/{record.pk}/table/").json()
    assert table["options"]["fits_nowhere"] == ["L14", "L18"]


@pytest.mark.parametrize(("game", "kinds"), [
    ("hunters-gatherers", ["river", "forest", "meadow"]),
    ("carcassonne", ["city", "road", "field"]),
    ("carcassonne-maps", ["city", "road", "field"]),
])
def test_the_sketch_cycles_through_the_kinds_of_side_the_tiles_have(game, kinds):
    engine = get_engine(game)
    data = web_game(game).recorder.page_data(engine, engine.ruleset_version)
    assert [k["kind"] for k in data["edge_kinds"]] == kinds
    assert {edge for tile in data["tiles"].values() for edge in tile["edges"]} == set(kinds)
    assert all(k["colour"].startswith("#") for k in data["edge_kinds"])


def test_the_recorder_loads_the_picker_before_the_tile_games_module(keeper_client, record):
    html = keeper_client.get(f"/scorekeeping/{record.pk}/").content.decode()
    assert html.index("ludolog/recorder-picker.js") < html.index("ludolog/recorder-tiles.js")
