"""Each engine's declaration of its box: every count follows the engine's own data (a tile set or
a card list that changes changes the declaration, and these tests say which box number then moves),
and the registry answers by the slug catalogue records use."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from games import registry
from games.engines.box import BoxContents, BoxPiece
from games.engines.carcassonne import box as carcassonne_box
from games.engines.carcassonne_maps import box as maps_box
from games.engines.hunters_gatherers import box as hunters_box
from games.engines.stone_age import box as stone_age_box


def _data(package: str, name: str) -> dict:
    return json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))


def test_hunters_and_gatherers_counts_come_from_its_tile_file():
    tiles = _data("games.engines.hunters_gatherers", "data/tileset_first_edition_v1.json")["tiles"]
    kinds = [tile["kind"] for tile in tiles]
    box = hunters_box.box_contents()
    # The box's 79 landscape tiles are the 78 of the pile and the volcano start tile.
    assert box.piece("landscape_tiles").count == kinds.count("landscape") + kinds.count("start") == 79
    assert box.piece("bonus_tiles").count == kinds.count("bonus") == 12
    assert (box.piece("tribe_members").count, box.piece("tribe_members").per_colour) == (30, 6)
    assert (box.piece("huts").count, box.piece("huts").per_colour) == (10, 2)


def test_the_tribe_members_are_the_engines_five_and_a_score_marker_per_colour():
    from games.engines.hunters_gatherers import Game

    game = Game.new(players=5, seed=1)
    in_play = game.supply(0)["tribe_members"]
    assert hunters_box.box_contents().piece("tribe_members").per_colour == in_play + 1


def test_carcassonne_counts_every_tile_of_its_file_with_the_start_tile():
    types = _data("games.engines.carcassonne", "data/base_tiles_v1.json")["types"]
    box = carcassonne_box.box_contents()
    assert box.piece("land_tiles").count == sum(entry["count"] for entry in types) == 72
    assert (box.piece("meeples").count, box.piece("meeples").colours, box.piece("meeples").per_colour) == (40, 5, 8)


def test_the_map_chips_are_ten_of_each_island_colour():
    from games.engines.carcassonne_maps.chips import ChipValues

    chips = maps_box.box_contents().piece("map_chips")
    assert chips.count == len(ChipValues.default().chips()) == 30
    assert (chips.colours, chips.per_colour) == (3, 10)


def test_stone_age_counts_its_cards_buildings_and_tribes():
    data = _data("games.engines.stone_age", "data/stone_age_v1.json")
    box = stone_age_box.box_contents()
    assert box.piece("civilization_cards").count == len(data["cards"]) == 36
    assert box.piece("building_tiles").count == len(data["buildings"]) == 28
    people = data["constants"]["people_max"] * data["constants"]["players_max"]
    assert (box.piece("tribe_members").count, box.piece("tribe_members").colours) == (people, 4) == (40, 4)
    assert box.piece("player_boards").count == data["constants"]["players_max"]
    assert box.piece("dice").count == 7
    resources_piece = box.piece("resources")
    assert [part.key for part in resources_piece.parts] == ["wood", "clay", "stone", "gold"]
    assert resources_piece.count == sum(part.count for part in resources_piece.parts) == 68


def test_the_registry_answers_by_the_records_engine_slug():
    for slug in ("hunters-gatherers", "stone-age", "carcassonne", "carcassonne-maps"):
        box = registry.box_contents(slug)
        assert isinstance(box, BoxContents) and box.pieces, slug
        assert all(piece.name_en and piece.name_fr for piece in box.pieces)
    assert registry.box_contents("") is None
    assert registry.box_contents("azul") is None


def test_a_declaration_refuses_counts_that_do_not_add_up():
    with pytest.raises(ValueError, match="split evenly"):
        BoxPiece("huts", 10, "huts", "huttes", colours=3)
    with pytest.raises(ValueError, match="parts count"):
        BoxPiece("resources", 5, "resources", "ressources", parts=(BoxPiece("wood", 4, "wood", "bois"),))
    with pytest.raises(ValueError, match="declared twice"):
        BoxContents((BoxPiece("dice", 7, "dice", "dés"), BoxPiece("dice", 7, "dice", "dés")))
    with pytest.raises(KeyError):
        BoxContents(()).piece("dice")
