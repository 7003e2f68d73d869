"""Carcassonne Maps: the map layer, the map files and the board laid over a map.

The rules quoted in French are seed 003's (Wikicarpedia, "Jetons de Carte – Benelux"); the
general Maps rules are read from Wikicarpedia's "Carcassonne Maps - Germany" page (large cities,
border squares) and the C&Co English rules (start squares).
"""

from __future__ import annotations

import copy
import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped, unused-ignore]
import pytest

from games.engines.carcassonne.tileset import load_tileset
from games.engines.carcassonne_maps import (
    Beyond, IllegalAction, MapBoard, MapContact, MapDefinition, MapFileError, SquareKind, load_benelux, load_map_file,
    load_map_text, map_from_dict, packaged_map,
)
from games.engines.tiles import Side, TileDef

DATA = resources.files("games.engines.carcassonne_maps").joinpath("data")


def benelux_raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.joinpath("benelux_approximate_v1.json").read_text("utf-8"))
    return data


# -- tiles for the board tests: a meadow, a city cap (city north), a straight road (east-west) --------
FIELD = TileDef.build("F", {s: ("field", (0, 0, 0)) for s in "NESW"}, {0: "field"})
CAP = TileDef.build("E", {"N": ("city", (0, 0, 0)), "E": ("field", (1, 1, 1)), "S": ("field", (1, 1, 1)),
                          "W": ("field", (1, 1, 1))}, {0: "city", 1: "field"})
ROAD = TileDef.build("U", {"N": ("field", (0, 0, 0)), "E": ("road", (0, 1, 2)), "S": ("field", (2, 2, 2)),
                           "W": ("road", (2, 1, 0))}, {0: "field", 1: "road", 2: "field"})
TILES = {t.id: t for t in (FIELD, CAP, ROAD)}

# A small map to see every rule at once: x east, y south.
#   y0  II.....     violet island, stacks (0,0) and (1,0)
#   y1  .S##C#.     start square West (1,1), large city Metropolis (4,1): open edges W and S
#   y2  .##~##.     wave (3,2); a road printed across the border west of (1,2)
#   y3  .#T###S     town Village (2,3), start square East (6,3)
#   y4  .......
SMALL: dict[str, Any] = {
    "name": "small", "version": "small-test@1", "approximate": True, "provenance": "made for the tests",
    "grid": ["II.....", ".S##C#.", ".##~##.", ".#T###S", "......."],
    "start_squares": [{"name": "West", "at": [1, 1]}, {"name": "East", "at": [6, 3]}],
    "towns": [{"name": "Village", "at": [2, 3]}],
    "large_cities": [{"name": "Metropolis", "squares": [[4, 1]], "coats_of_arms": 1,
                      "open_edges": [{"at": [4, 1], "side": "W"}, {"at": [4, 1], "side": "S"}]}],
    "islands": [{"colour": "violet", "name": "Isle", "stacks": [[0, 0], [1, 0]]}],
    "border_edges": [{"at": [1, 2], "side": "W", "terrain": "road"}],
}


def small_map() -> MapDefinition:
    return map_from_dict(SMALL)


def reason(problem: IllegalAction | None) -> str | None:
    return None if problem is None else problem.reason


# -- the Benelux map file -----------------------------------------------------------------------------

def test_the_benelux_file_validates_against_the_schema_and_loads() -> None:
    schema = json.loads(DATA.joinpath("map.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(benelux_raw(), schema)
    benelux = load_benelux()
    assert (benelux.name, benelux.version) == ("benelux", "benelux-approximate@1")
    assert benelux.ref == {"name": "benelux", "version": "benelux-approximate@1"}


def test_the_benelux_map_says_everywhere_that_it_is_approximate() -> None:
    raw, benelux = benelux_raw(), load_benelux()
    assert raw["approximate"] is True and benelux.approximate is True
    assert "approximate" in benelux.version
    assert "not public" in benelux.provenance and "APPROXIMATE" in benelux.provenance


def test_utilisez_2_des_3_cases_de_depart_meppel_eindhoven_et_charleroi_lie_where_the_towns_lie() -> None:
    """"Utilisez 2 des 3 cases de départ disponibles (Meppel, Eindhoven et Charleroi)." The map has
    exactly those three, where the real towns lie: Meppel north-east, Eindhoven in the middle,
    Charleroi south-west (y grows south, x east)."""
    starts = load_benelux().start_squares
    assert list(starts) == ["Meppel", "Eindhoven", "Charleroi"]
    meppel, eindhoven, charleroi = starts["Meppel"], starts["Eindhoven"], starts["Charleroi"]
    assert meppel[1] < eindhoven[1] < charleroi[1]
    assert charleroi[0] < eindhoven[0] < meppel[0]
    assert all(load_benelux().takes_tile(p) for p in starts.values())


def test_il_y_a_trois_cases_marquees_de_vagues_sur_la_carte() -> None:
    """"Il y a trois cases marquées de vagues sur la carte." (here the IJsselmeer, between
    North Holland and Friesland)."""
    benelux = load_benelux()
    waves = benelux.squares_of(SquareKind.WAVE)
    assert len(waves) == 3
    assert not any(benelux.takes_tile(p) for p in waves)


def test_three_islands_in_the_chip_colours_each_with_two_stack_squares_in_the_north_sea() -> None:
    """"naviguer vers différentes îles de la mer du Nord" and "les 6 carrés d'île (2 piles par île)"."""
    benelux = load_benelux()
    assert sorted(i.colour for i in benelux.islands) == ["light_blue", "orange", "violet"]
    land_rows = [p[1] for p in benelux.playable]
    for island in benelux.islands:
        assert len(set(island.stacks)) == 2
        for number, position in enumerate(island.stacks, start=1):
            square = benelux.square(position)
            assert (square.kind, square.colour, square.stack) == (SquareKind.ISLAND, island.colour, number)
            assert not benelux.takes_tile(position)
            assert position[1] < 4 and position[1] <= min(land_rows) + 2   # off the northern coast
    assert len(benelux.squares_of(SquareKind.ISLAND)) == 6


def test_large_cities_lie_in_the_order_of_the_real_ones_and_keep_open_edges_on_land() -> None:
    benelux = load_benelux()
    names = [city.name for city in benelux.large_cities]
    assert names == ["Amsterdam", "Rotterdam", "Antwerpen", "Bruxelles", "Luxembourg"]
    north_to_south = [min(p[1] for p in benelux.large_city(n).squares) for n in names]
    assert north_to_south == sorted(north_to_south)
    for city in benelux.large_cities:
        assert city.open_edges and all(benelux.takes_tile(p) for p in city.open_edge_squares)
        assert all(benelux.kind(p) is SquareKind.LARGE_CITY and not benelux.takes_tile(p) for p in city.squares)


def test_il_est_recommande_de_jouer_avec_110_120_tuiles_and_the_map_has_room_to_spare() -> None:
    """"Il est recommandé de jouer avec 110-120 tuiles": the map holds 150 to 200 tiles."""
    benelux = load_benelux()
    assert benelux.recommended_tiles == (110, 120)
    assert 150 <= len(benelux.playable) <= 200
    assert len(benelux.towns) >= 5


def test_every_playable_square_can_be_reached_from_the_start_squares() -> None:
    """No square is cut off: side to side, or through a large city's open edges."""
    benelux = load_benelux()
    links: dict[tuple[int, int], set[tuple[int, int]]] = {p: set() for p in benelux.playable}
    for p in benelux.playable:
        links[p].update(q for q in benelux.orthogonal_neighbours(p) if benelux.takes_tile(q))
    for city in benelux.large_cities:
        for p in city.open_edge_squares:
            links[p].update(city.open_edge_squares)
    seen = {benelux.start_position("Meppel")}
    todo = list(seen)
    while todo:
        for q in links[todo.pop()] - seen:
            seen.add(q)
            todo.append(q)
    assert seen == benelux.playable


def test_map_helpers_name_squares_neighbours_and_what_lies_beyond_a_side() -> None:
    small = small_map()
    assert small.kind((1, 1)) is SquareKind.START and small.square((1, 1)).name == "West"
    assert small.kind((2, 3)) is SquareKind.TOWN and small.towns == {"Village": (2, 3)}
    assert small.kind((9, 9)) is SquareKind.OUTSIDE and not small.takes_tile((9, 9))
    assert MapDefinition.orthogonal_neighbours((2, 2)) == ((2, 1), (3, 2), (2, 3), (1, 2))
    assert small.open_edge_squares() == {(3, 1), (4, 2)}
    assert [(side, city.name) for side, city in small.large_cities_beside((3, 1))] == [(Side.E, "Metropolis")]
    assert small.beyond((3, 1), Side.E) is Beyond.OPEN_EDGE and small.printed_terrain((3, 1), Side.E) == "city"
    assert small.beyond((5, 1), Side.W) is Beyond.BORDER and small.printed_terrain((5, 1), Side.W) is None
    assert small.beyond((2, 2), Side.E) is Beyond.BORDER          # a wave
    assert small.beyond((2, 2), Side.S) is Beyond.SQUARE
    assert small.printed_terrain((1, 2), Side.W) == "road"
    assert small.border_sides((5, 1)) == (Side.N, Side.E, Side.W)


def test_any_map_file_loads_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "uploaded.json"
    path.write_text(json.dumps(SMALL), encoding="utf-8")
    loaded = load_map_file(path)
    assert (loaded.name, loaded.version, len(loaded.playable)) == ("small", "small-test@1", 14)
    assert packaged_map("benelux", "benelux-approximate@1") is load_benelux()
    with pytest.raises(KeyError):
        packaged_map("benelux", "benelux-exact@1")


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(SMALL)
    change(data)
    return data


BROKEN = [
    ("no version", lambda d: d.pop("version"), "'version' is a required property"),
    ("unknown mark", lambda d: d["grid"].__setitem__(4, "...X..."), "grid/4"),
    ("island with one stack", lambda d: d["islands"][0].__setitem__("stacks", [[0, 0]]), "islands/0/stacks"),
    ("ragged grid", lambda d: d["grid"].__setitem__(4, "......"), "grid row 4 has 6 squares, row 0 has 7"),
    ("start on a normal mark", lambda d: d["start_squares"][0].__setitem__("at", [2, 1]),
     "start square 'West' at (2,1) is marked normal on the grid, not start"),
    ("start off the grid", lambda d: d["start_squares"][0].__setitem__("at", [20, 1]), "lies off the grid"),
    ("a name twice", lambda d: d["towns"][0].__setitem__("name", "West"), "the name 'West' is used twice"),
    ("unnamed mark", lambda d: d["grid"].__setitem__(3, ".#TT##S"), "marks a town at (3,3) that no list names"),
    ("same stack square twice", lambda d: d["islands"][0].__setitem__("stacks", [[0, 0], [0, 0]]),
     "island 'Isle' needs two different stack squares"),
    ("two islands one colour", lambda d: (d["grid"].__setitem__(4, "II....."), d["islands"].append(
        {"colour": "violet", "name": "Other", "stacks": [[0, 4], [1, 4]]})), "two islands are violet"),
    ("large cities overlapping", lambda d: d["large_cities"].append(
        {"name": "Other", "squares": [[4, 1]], "open_edges": [{"at": [4, 1], "side": "W"}]}), "overlaps"),
    ("large city apart", lambda d: (d["grid"].__setitem__(2, ".##~#C."), d["large_cities"][0]["squares"].append(
        [5, 2])), "its squares do not join side to side"),
    ("open edge onto a wave", lambda d: d["large_cities"][0]["open_edges"].append({"at": [4, 1], "side": "E"})
     or d["grid"].__setitem__(1, ".S##C~."), "faces wave (5,1), where no tile can ever complete it"),
    ("open edge off the map", lambda d: d["large_cities"][0]["open_edges"].append({"at": [4, 1], "side": "N"}),
     "faces outside (4,0)"),
    ("open edge on another square", lambda d: d["large_cities"][0]["open_edges"].append(
        {"at": [3, 1], "side": "W"}), "is not on one of its squares"),
    ("border crossing inland", lambda d: d["border_edges"].append({"at": [2, 2], "side": "S", "terrain": "road"}),
     "faces town (2,3), not the border"),
]


@pytest.mark.parametrize(("change", "message"), [(c, m) for _, c, m in BROKEN], ids=[n for n, _, _ in BROKEN])
def test_a_broken_map_file_is_refused_naming_the_problem(change: Any, message: str) -> None:
    with pytest.raises(MapFileError) as caught:
        map_from_dict(_broken(change))
    assert message in str(caught.value)


def test_a_file_that_is_not_json_is_refused() -> None:
    with pytest.raises(MapFileError, match="not JSON"):
        load_map_text("{grid")
    with pytest.raises(MapFileError, match="top level"):
        load_map_text("[]")


# -- the board over a map ------------------------------------------------------------------------

def test_set_up_tiles_lie_on_start_squares_and_the_game_goes_on_beside_them() -> None:
    board = MapBoard(small_map())
    board.place_on_start(FIELD, "West")
    board.place_on_start(FIELD, "East")
    assert board.frontier == {(2, 1), (1, 2), (5, 3)}        # no island, outside or off-map square
    with pytest.raises(IllegalAction) as caught:
        board.place_on_start(FIELD, "Nowhere")
    assert caught.value.reason == "not_a_start_square"
    with pytest.raises(IllegalAction) as caught:
        board.place_on_start(FIELD, "West")
    assert caught.value.reason == "occupied"


def test_vous_ne_pouvez_pas_placer_de_tuile_terrain_sur_ces_cases_the_waves() -> None:
    """"Vous ne pouvez pas placer de tuile Terrain sur ces cases." A wave square beside a laid tile
    is never offered, and laying there is refused."""
    board = MapBoard(small_map())
    board.place_on_start(FIELD, "West")
    board.place(FIELD, (2, 1), 0)
    board.place(FIELD, (2, 2), 0)
    assert (3, 2) not in board.frontier
    assert all(p != (3, 2) for p, _ in board.placements(FIELD))
    assert not board.fits(FIELD, (3, 2), 0)
    assert reason(board.placement_problem(FIELD, (3, 2), 0)) == "wave_square"
    benelux = MapBoard(load_benelux())
    benelux.place(FIELD, (8, 4), 0)                            # beside the IJsselmeer
    assert reason(benelux.placement_problem(FIELD, (9, 4), 0)) == "wave_square"
    assert not any(benelux.map.kind(p) is SquareKind.WAVE for p in benelux.frontier)


def test_the_board_refuses_large_cities_islands_outside_and_squares_beside_nothing() -> None:
    board = MapBoard(small_map())
    board.place_on_start(FIELD, "West")
    board.place(FIELD, (2, 1), 0)
    assert reason(board.placement_problem(CAP, (4, 1), 0)) == "large_city_square"
    assert reason(board.placement_problem(FIELD, (1, 0), 0)) == "island_square"
    assert reason(board.placement_problem(FIELD, (0, 1), 0)) == "off_map"
    assert reason(board.placement_problem(FIELD, (1, -1), 0)) == "off_map"
    assert reason(board.placement_problem(FIELD, (5, 2), 0)) == "not_adjacent"
    assert reason(board.placement_problem(FIELD, (2, 1), 0)) == "occupied"
    assert not board.is_adjacent((5, 2)) and board.is_adjacent((2, 2))
    assert reason(board.placement_problem(FIELD, (2, 2), 0)) is None


def test_a_tile_beside_a_large_citys_open_edge_must_show_a_city_there() -> None:
    board = MapBoard(small_map())
    board.place_on_start(FIELD, "West")
    board.place(FIELD, (2, 1), 0)
    assert not board.fits(FIELD, (3, 1), 0)                   # a field facing Metropolis' open edge
    problem = board.placement_problem(FIELD, (3, 1), 0)
    assert reason(problem) == "edge_mismatch" and problem is not None and "(4,1) shows city" in problem.message
    assert [m.side for m in board.mismatches(FIELD, (3, 1), 0)] == [Side.E]
    assert [t for t in range(4) if board.fits(CAP, (3, 1), t)] == [1]   # the city turned to face east
    assert ((3, 1), 1) in set(board.placements(CAP))


def test_once_connected_every_open_edge_of_the_large_city_is_open_to_play() -> None:
    """'As soon as you place a tile next to a city tile it is connected. From now on, everybody can
    place a tile next to the city tile.' (Wikicarpedia, Carcassonne Maps - Germany)."""
    board = MapBoard(small_map())
    board.place_on_start(FIELD, "West")
    board.place(FIELD, (2, 1), 0)
    assert (4, 2) not in board.frontier and board.connected_cities == set()
    board.place(CAP, (3, 1), 1)
    assert board.connected_cities == {"Metropolis"}
    assert (4, 2) in board.frontier                           # no laid tile touches it
    assert [t for t in range(4) if board.fits(CAP, (4, 2), t)] == [0]
    assert not board.fits(FIELD, (4, 2), 0)


def test_a_large_citys_closed_side_asks_for_nothing() -> None:
    board = MapBoard(small_map())
    board.place_on_start(FIELD, "West")
    for tile, at, turns in ((FIELD, (2, 1), 0), (CAP, (3, 1), 1), (CAP, (4, 2), 0), (FIELD, (5, 2), 0)):
        assert board.fits(tile, at, turns)
        board.place(tile, at, turns)
    assert board.fits(FIELD, (5, 1), 0)                       # a field against the city's east side
    assert board.fits(CAP, (5, 1), 3)                         # and a city too: the side is border
    assert board.map.beyond((5, 1), Side.W) is Beyond.BORDER


def test_a_road_printed_across_the_border_must_be_continued() -> None:
    board = MapBoard(small_map())
    board.place_on_start(FIELD, "West")
    assert not board.fits(FIELD, (1, 2), 0)
    assert reason(board.placement_problem(FIELD, (1, 2), 0)) == "edge_mismatch"
    assert [t for t in range(4) if board.fits(ROAD, (1, 2), t)] == [0, 2]   # the road runs west-east
    assert [t for t in range(4) if board.fits(CAP, (1, 2), t)] == []


def test_map_contacts_tell_which_features_the_map_closes_or_joins_to_a_large_city() -> None:
    board = MapBoard(small_map())
    start = board.place_on_start(FIELD, "West")
    assert board.map_contacts(start) == [MapContact(0, Side.N, Beyond.BORDER), MapContact(0, Side.W, Beyond.BORDER)]
    board.place(FIELD, (2, 1), 0)
    cap = board.place(CAP, (3, 1), 1)                          # city east, against Metropolis
    assert board.map_contacts(cap) == [MapContact(1, Side.N, Beyond.BORDER),
                                       MapContact(0, Side.E, Beyond.OPEN_EDGE, "Metropolis"),
                                       MapContact(1, Side.S, Beyond.BORDER)]          # the wave (3,2)
    road = board.place(ROAD, (1, 2), 0)
    assert MapContact(1, Side.W, Beyond.BORDER) in board.map_contacts(road)    # the road leaves the map


def test_the_board_keeps_boards_interface_and_its_state_round_trips() -> None:
    small = small_map()
    board = MapBoard(small)
    board.place_on_start(FIELD, "West")
    board.place(FIELD, (2, 1), 0)
    board.place(CAP, (3, 1), 1)
    state = json.loads(json.dumps(board.to_state()))
    assert state["map"] == {"name": "small", "version": "small-test@1"}
    assert state["placed"] == [["F", 1, 1, 0], ["F", 2, 1, 0], ["E", 3, 1, 1]]
    again = MapBoard.from_state(state, TILES, small)
    assert (again.frontier, again.connected_cities, len(again)) == (board.frontier, board.connected_cities, 3)
    assert list(again.placements(CAP)) == list(board.placements(CAP))
    assert again.fits_anywhere(FIELD)
    with pytest.raises(ValueError, match="not on"):
        MapBoard.from_state(state, TILES, load_benelux())
    with pytest.raises(ValueError, match="names no map"):
        MapBoard.from_state({"placed": state["placed"]}, TILES)
    on_a_wave = {"map": small.ref, "placed": [["F", 3, 2, 0]]}
    with pytest.raises(ValueError, match="where no tile may lie"):
        MapBoard.from_state(on_a_wave, TILES, small)
    benelux = MapBoard(load_benelux())
    benelux.place_on_start(FIELD, "Eindhoven")
    assert MapBoard.from_state(benelux.to_state(), TILES).frontier == benelux.frontier   # the packaged map
    assert copy.deepcopy(benelux).map is benelux.map


def test_base_game_tiles_laid_at_random_on_benelux_keep_every_map_rule() -> None:
    """A play-out with the base game's tiles: only playable squares, only next to laid tiles or a
    connected large city, every large city's open edge met by a city."""
    tileset = load_tileset()
    defs = tileset.tile_defs
    benelux = load_benelux()
    rng = random.Random(5)
    board = MapBoard(benelux)
    board.place_on_start(defs[tileset.start], "Meppel")
    board.place_on_start(defs[tileset.start], "Charleroi")
    pile = tileset.pile() * 2
    rng.shuffle(pile)
    for letter in pile:
        options = list(board.placements(defs[letter]))
        if options:
            before = set(board.frontier)
            position, turns = rng.choice(options)
            assert position in before and benelux.takes_tile(position)
            board.place(defs[letter], position, turns)
    assert len(board) > 100
    assert all(benelux.takes_tile(p) for p in board.tiles)
    for city in benelux.large_cities:
        for edge in city.open_edges:
            laid = board.tiles.get(edge.beyond)
            if laid is not None:
                assert laid.tile.edge(edge.side.opposite, laid.quarter_turns).terrain == "city"
