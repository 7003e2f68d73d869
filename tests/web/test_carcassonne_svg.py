"""The Carcassonne board, drawn from hand-made positions shaped like the engine's ``view()``.

No database and no engine: each test lays a few base-game tiles the way the view describes them
(printed edges, features, rotation) and reads the drawing back as XML.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from ludolog.web.tile_frame import PALETTE, seat_colour
from ludolog.web.games.carcassonne.drawing import carcassonne_svg, city_outline, describe

SVG = "{http://www.w3.org/2000/svg}"
NS = {"svg": SVG[1:-1]}
SEATS = [{"seat": 0, "player": "Ada", "colour": ""}, {"seat": 1, "player": "Bo", "colour": "blue"}]
TILE = 60


def _tile_def(sides: dict[str, list[int]], kinds: dict[int, str], pennant: int | None = None) -> dict[str, Any]:
    """A printed tile as the view gives it; a side's terrain is that of its middle third."""
    features = []
    for fid, kind in kinds.items():
        feature: dict[str, Any] = {"id": fid, "type": kind}
        if kind == "city":
            feature["pennant"] = 1 if fid == pennant else 0
        features.append(feature)
    edges = {side: {"terrain": kinds[subs[1]], "sub_edges": subs} for side, subs in sides.items()}
    return {"edges": edges, "features": features}


# Sub-edges read clockwise: N west→east, E north→south, S east→west, W south→north.
BASE = {
    "A": _tile_def({"N": [0, 0, 0], "E": [0, 0, 0], "S": [0, 2, 0], "W": [0, 0, 0]}, {0: "field", 1: "cloister", 2: "road"}),
    "B": _tile_def({"N": [0, 0, 0], "E": [0, 0, 0], "S": [0, 0, 0], "W": [0, 0, 0]}, {0: "field", 1: "cloister"}),
    "C": _tile_def({"N": [0, 0, 0], "E": [0, 0, 0], "S": [0, 0, 0], "W": [0, 0, 0]}, {0: "city"}, pennant=0),
    "D": _tile_def({"N": [0, 0, 0], "E": [2, 1, 3], "S": [3, 3, 3], "W": [3, 1, 2]},
                   {0: "city", 1: "road", 2: "field", 3: "field"}),
    "E": _tile_def({"N": [0, 0, 0], "E": [1, 1, 1], "S": [1, 1, 1], "W": [1, 1, 1]}, {0: "city", 1: "field"}),
    "F": _tile_def({"N": [1, 1, 1], "E": [0, 0, 0], "S": [2, 2, 2], "W": [0, 0, 0]},
                   {0: "city", 1: "field", 2: "field"}, pennant=0),
    "G": _tile_def({"N": [0, 0, 0], "E": [1, 1, 1], "S": [0, 0, 0], "W": [2, 2, 2]}, {0: "city", 1: "field", 2: "field"}),
    "H": _tile_def({"N": [2, 2, 2], "E": [0, 0, 0], "S": [2, 2, 2], "W": [1, 1, 1]}, {0: "city", 1: "city", 2: "field"}),
    "I": _tile_def({"N": [0, 0, 0], "E": [1, 1, 1], "S": [2, 2, 2], "W": [2, 2, 2]}, {0: "city", 1: "city", 2: "field"}),
    "J": _tile_def({"N": [0, 0, 0], "E": [2, 1, 3], "S": [3, 1, 2], "W": [2, 2, 2]},
                   {0: "city", 1: "road", 2: "field", 3: "field"}),
    "K": _tile_def({"N": [3, 1, 2], "E": [0, 0, 0], "S": [2, 2, 2], "W": [2, 1, 3]},
                   {0: "city", 1: "road", 2: "field", 3: "field"}),
    "L": _tile_def({"N": [5, 1, 7], "E": [0, 0, 0], "S": [7, 3, 6], "W": [6, 2, 5]},
                   {0: "city", 1: "road", 2: "road", 3: "road", 5: "field", 6: "field", 7: "field"}),
    "M": _tile_def({"N": [0, 0, 0], "E": [1, 1, 1], "S": [1, 1, 1], "W": [0, 0, 0]}, {0: "city", 1: "field"}, pennant=0),
    "N": _tile_def({"N": [0, 0, 0], "E": [1, 1, 1], "S": [1, 1, 1], "W": [0, 0, 0]}, {0: "city", 1: "field"}),
    "O": _tile_def({"N": [0, 0, 0], "E": [2, 1, 3], "S": [3, 1, 2], "W": [0, 0, 0]},
                   {0: "city", 1: "road", 2: "field", 3: "field"}, pennant=0),
    "P": _tile_def({"N": [0, 0, 0], "E": [2, 1, 3], "S": [3, 1, 2], "W": [0, 0, 0]},
                   {0: "city", 1: "road", 2: "field", 3: "field"}),
    "Q": _tile_def({"N": [0, 0, 0], "E": [0, 0, 0], "S": [1, 1, 1], "W": [0, 0, 0]}, {0: "city", 1: "field"}, pennant=0),
    "R": _tile_def({"N": [0, 0, 0], "E": [0, 0, 0], "S": [1, 1, 1], "W": [0, 0, 0]}, {0: "city", 1: "field"}),
    "S": _tile_def({"N": [0, 0, 0], "E": [0, 0, 0], "S": [2, 1, 3], "W": [0, 0, 0]},
                   {0: "city", 1: "road", 2: "field", 3: "field"}, pennant=0),
    "T": _tile_def({"N": [0, 0, 0], "E": [0, 0, 0], "S": [2, 1, 3], "W": [0, 0, 0]},
                   {0: "city", 1: "road", 2: "field", 3: "field"}),
    "U": _tile_def({"N": [2, 1, 3], "E": [3, 3, 3], "S": [3, 1, 2], "W": [2, 2, 2]}, {1: "road", 2: "field", 3: "field"}),
    "V": _tile_def({"N": [2, 2, 2], "E": [2, 2, 2], "S": [2, 1, 3], "W": [3, 1, 2]}, {1: "road", 2: "field", 3: "field"}),
    "W": _tile_def({"N": [4, 4, 4], "E": [4, 1, 5], "S": [5, 2, 6], "W": [6, 3, 4]},
                   {1: "road", 2: "road", 3: "road", 4: "field", 5: "field", 6: "field"}),
    "X": _tile_def({"N": [8, 1, 5], "E": [5, 2, 6], "S": [6, 3, 7], "W": [7, 4, 8]},
                   {1: "road", 2: "road", 3: "road", 4: "road", 5: "field", 6: "field", 7: "field", 8: "field"}),
}


def placed(letter: str, x: int = 0, y: int = 0, rotation: int = 0, order: int = 0) -> dict[str, Any]:
    return {"tile": letter, "x": x, "y": y, "rotation": rotation, "order": order, **BASE[letter]}


def position(*tiles: dict[str, Any], meeples: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    last = max(tiles, key=lambda t: t["order"]) if tiles else None
    return {
        "tiles": list(tiles), "meeples": meeples or [],
        "last_placed": {k: last[k] for k in ("tile", "x", "y", "rotation", "order")} if last else None,
        "next_tile": None, "tiles_left": 71 - len(tiles), "current_player": 0, **extra,
    }


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, name: str, tag: str = "*") -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}" if tag != "*" else None)
            if name in e.get("class", "").split()]


def polygon_points(element: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, pair.split(","))) for pair in element.get("points").split()]


def path_points(element: ET.Element) -> list[tuple[float, float]]:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", element.get("d"))]
    return list(zip(numbers[::2], numbers[1::2]))


def translation(element: ET.Element) -> tuple[float, float]:
    x, y = re.match(r"translate\((-?[\d.]+) (-?[\d.]+)\)", element.get("transform")).groups()
    return float(x), float(y)


def test_the_root_is_one_labelled_svg_carrying_the_step():
    root = parse(carcassonne_svg(position(placed("D")) | {"at": 7}, SEATS))

    assert root.tag == f"{SVG}svg"
    assert root.get("class") == "board carcassonne"
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "board-title board-desc"
    assert root.get("data-at") == "7"
    assert root.find("svg:title", NS).get("id") == "board-title"
    assert root.find("svg:title", NS).text == "Board with 1 tiles"
    assert root.find("svg:desc", NS).get("id") == "board-desc"
    # One tile plus a quarter-tile margin all round, at 1.5 px per unit.
    assert root.get("viewBox") == "-15 -15 90 90"
    assert (root.get("width"), root.get("height")) == ("135", "135")
    assert parse(carcassonne_svg(position(placed("D")), title="Game #3")).find("svg:title", NS).text == "Game #3"


def test_an_empty_board_is_still_a_drawing():
    root = parse(carcassonne_svg({"tiles": [], "meeples": []}))
    assert root.get("data-at") == ""
    assert with_class(root, "tile", "g") == []


def test_each_tile_is_one_group_placed_on_its_square_and_turned_about_its_centre():
    board = position(placed("D", 0, 0, 0, 0), placed("U", 1, 0, 90, 1), placed("E", 0, -1, 180, 2))
    root = parse(carcassonne_svg(board))

    groups = with_class(root, "tile", "g")
    assert [(g.get("data-tile"), g.get("data-x"), g.get("data-y"), g.get("data-rotation")) for g in groups] == [
        ("D", "0", "0", "0"), ("U", "1", "0", "90"), ("E", "0", "-1", "180")]
    # The board's origin is the north-west-most square: (0, -1).
    assert groups[0].get("transform") == "translate(0 60)"
    assert groups[1].get("transform") == "translate(60 60) rotate(90 30 30)"
    assert groups[2].get("transform") == "translate(0 0) rotate(180 30 30)"
    assert root.get("viewBox") == "-15 -15 150 150"


def test_a_city_on_one_side_is_a_cap_and_on_four_sides_the_whole_tile():
    cap = with_class(parse(carcassonne_svg(position(placed("E")))), "city", "polygon")
    whole = with_class(parse(carcassonne_svg(position(placed("C")))), "city", "polygon")

    assert len(cap) == 1 and len(whole) == 1
    whole_points = polygon_points(whole[0])
    assert sorted(whole_points) == [(0, 0), (0, 60), (60, 0), (60, 60)]
    cap_points = polygon_points(cap[0])
    assert len(cap_points) > 4, "a cap's inner side is a curve"
    ys = [y for _, y in cap_points]
    assert min(ys) == 0 and 15 <= max(ys) <= 20, "it hugs the north side, reaching 0.3 of the way in"
    assert {(0, 0), (60, 0)} <= set(cap_points)


def test_two_and_three_sided_cities_join_their_sides_through_the_middle():
    # N: the north and west sides, cut across by a line through the centre.
    assert city_outline(["N", "W"]) == [(0.0, 1.0), (0.0, 0.0), (1.0, 0.0), (0.5, 0.5)]
    # F: east and west joined by a band, leaving fields 0.3 deep along the free north and south.
    band = [(round(x, 6), round(y, 6)) for x, y in city_outline(["E", "W"])]
    assert (0.5, 0.3) in band and (0.5, 0.7) in band
    # R: three sides, the free south side keeping a field 0.3 deep.
    three = [(round(x, 6), round(y, 6)) for x, y in city_outline(["N", "E", "W"])]
    assert max(y for _, y in three) == 1.0 and (0.5, 0.7) in three
    assert (0.5, 1.0) not in three


def test_two_separate_cities_on_one_tile_are_two_caps():
    root = parse(carcassonne_svg(position(placed("H"))))
    cities = with_class(root, "city", "polygon")
    assert sorted(c.get("data-feature") for c in cities) == ["0", "1"]
    east, west = sorted(cities, key=lambda c: -max(x for x, _ in polygon_points(c)))
    assert min(x for x, _ in polygon_points(east)) >= 40
    assert max(x for x, _ in polygon_points(west)) <= 20


@pytest.mark.parametrize("letter, pennants", [("C", 1), ("F", 1), ("M", 1), ("N", 0), ("Q", 1), ("R", 0),
                                              ("S", 1), ("T", 0), ("D", 0), ("E", 0)])
def test_a_pennant_shield_is_drawn_exactly_on_pennant_cities(letter, pennants):
    root = parse(carcassonne_svg(position(placed(letter))))
    shields = with_class(root, "pennant")
    assert len(shields) == pennants
    for shield in shields:
        city = next(c for c in with_class(root, "city", "polygon") if c.get("data-feature") == shield.get("data-feature"))
        x, y = translation(shield)
        assert _inside((x, y), polygon_points(city)), "the shield sits on its city"


def _inside(point, polygon):
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > point[1]) != (y2 > point[1]) and point[0] < x1 + (point[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_a_straight_road_is_one_path_through_the_centre():
    root = parse(carcassonne_svg(position(placed("D"))))
    roads = with_class(root, "road", "path")
    assert len(roads) == 1 and roads[0].get("data-feature") == "1"
    points = path_points(roads[0])
    assert points[0] == (60, 30) and points[-1] == (0, 30) and (30, 30) in points
    assert len(with_class(root, "road-casing", "path")) == 1, "a darker casing under it"
    assert with_class(root, "junction") == []


def test_a_three_way_junction_is_three_roads_meeting_at_a_village():
    root = parse(carcassonne_svg(position(placed("W"))))
    roads = with_class(root, "road", "path")
    assert sorted(r.get("data-feature") for r in roads) == ["1", "2", "3"]
    starts = sorted(path_points(r)[0] for r in roads)
    assert starts == [(0, 30), (30, 60), (60, 30)], "from the middles of the west, south and east sides"
    assert all(path_points(r)[-1] == (30, 30) for r in roads)
    assert len(with_class(root, "junction")) == 1
    assert len(with_class(parse(carcassonne_svg(position(placed("X")))), "road", "path")) == 4


def test_a_curved_road_bends_round_the_centre_without_a_village():
    root = parse(carcassonne_svg(position(placed("V"))))
    (road,) = with_class(root, "road", "path")
    points = path_points(road)
    assert points[0] == (30, 60) and points[-1] == (0, 30)
    assert (30, 30) not in points and len(points) > 3
    assert with_class(root, "junction") == []


def test_a_cloister_is_a_building_in_the_middle_that_stops_its_road():
    root = parse(carcassonne_svg(position(placed("A"))))
    (cloister,) = with_class(root, "cloister", "g")
    assert cloister.get("data-feature") == "1"
    assert translation(cloister) == (30, 30)
    (road,) = with_class(root, "road", "path")
    assert path_points(road) == [(30, 60), (30, 30)]
    assert with_class(root, "junction") == [], "the cloister, not a village, ends the road"
    assert with_class(parse(carcassonne_svg(position(placed("D")))), "cloister") == []


def meeples(root: ET.Element) -> list[ET.Element]:
    return with_class(root, "meeple", "g")


def test_meeples_stand_in_their_players_colours_on_their_features():
    board = position(placed("D", 0, 0, 0, 0), placed("B", 1, 0, 0, 1), meeples=[
        {"seat": 0, "x": 0, "y": 0, "feature": 0, "type": "city"},
        {"seat": 1, "x": 0, "y": 0, "feature": 1, "type": "road"},
        {"seat": 2, "x": 1, "y": 0, "feature": 1, "type": "cloister"},
    ])
    seats = [{"seat": 0, "player": "Ada", "colour": ""}, {"seat": 1, "player": "Bo", "colour": "green"}]
    root = parse(carcassonne_svg(board, seats))

    drawn = meeples(root)
    assert [(m.get("data-seat"), m.get("data-feature")) for m in drawn] == [("0", "0"), ("1", "1"), ("2", "1")]
    fills = [m.find("svg:path", NS).get("fill") for m in drawn]
    assert fills == [seat_colour(0, ""), seat_colour(1, "green"), seat_colour(2)]
    assert fills == [PALETTE[0], "#2f9e44", PALETTE[2]], "the recorded colour, else the palette's"
    knight, thief, monk = (translation(m) for m in drawn)
    assert 20 <= knight[0] <= 40 and knight[1] < 18, "inside the north city cap"
    assert abs(thief[1] - 30) < 1, "on the road"
    assert monk == (90, 30), "on the cloister"
    assert [m.find("svg:title", NS).text for m in drawn] == ["Ada's knight", "Bo's thief", "Seat 3's monk"]


def test_a_farmer_lies_down_in_its_own_field_clear_of_roads_and_cities():
    board = position(placed("D"), meeples=[{"seat": 0, "x": 0, "y": 0, "feature": 2, "type": "field"},
                                           {"seat": 1, "x": 0, "y": 0, "feature": 3, "type": "field"},
                                           {"seat": 1, "x": 0, "y": 0, "feature": 0, "type": "city"}])
    root = parse(carcassonne_svg(board, SEATS))

    north, south, knight = meeples(root)
    assert "farmer" in north.get("class").split() and "rotate(-90)" in north.get("transform")
    assert "rotate" not in knight.get("transform"), "only farmers lie down"
    nx, ny = translation(north)
    sx, sy = translation(south)
    assert ny < 30 - 4 and sy > 30 + 4, "each farmer on its side of the road"
    cap = polygon_points(with_class(root, "city", "polygon")[0])
    assert not _inside((nx, ny), cap), "the north farmer is not in the city"


def test_a_meeple_on_a_turned_tile_turns_with_it():
    # The D tile turned a quarter clockwise: its city faces east, its road runs north-south.
    board = position(placed("D", 0, 0, 90), meeples=[{"seat": 0, "x": 0, "y": 0, "feature": 0, "type": "city"}])
    root = parse(carcassonne_svg(board, SEATS))
    x, y = translation(meeples(root)[0])
    assert x > 42 and 20 <= y <= 40
    assert "city (east); road (north, south)" in root.find("svg:desc", NS).text


def test_the_last_placed_tile_is_outlined():
    board = position(placed("D", 0, 0, 0, 0), placed("U", 1, 0, 90, 1))
    root = parse(carcassonne_svg(board))

    highlighted = [g.get("data-tile") for g in with_class(root, "tile", "g") if "last-placed" in g.get("class").split()]
    assert highlighted == ["U"]
    (outline,) = with_class(root, "last-placed-outline", "rect")
    assert (float(outline.get("x")), float(outline.get("y"))) == (61.5, 1.5)
    assert outline.get("stroke") == "#ff7a00"


def test_two_tiles_of_the_same_kind_are_told_apart_by_their_square():
    board = position(placed("U", 0, 0, 0, 0), placed("U", 0, 1, 0, 1))
    highlighted = [g.get("data-y") for g in with_class(parse(carcassonne_svg(board)), "tile", "g")
                   if "last-placed" in g.get("class").split()]
    assert highlighted == ["1"]


def test_free_cells_show_the_coordinates_a_scorekeeper_types():
    root = parse(carcassonne_svg(position(placed("D", 0, 0, 0, 0), placed("U", 1, 0, 90, 1)), free_cells=True))
    labels = sorted(text.text for text in root.iter(f"{SVG}text"))
    assert labels == ["-1,0", "0,-1", "0,1", "1,-1", "1,1", "2,0"]
    assert len(with_class(root, "free-cell", "g")) == 6
    assert not list(parse(carcassonne_svg(position(placed("D")))).iter(f"{SVG}text"))


def test_the_description_names_every_tile_meeple_and_the_last_tile():
    board = position(placed("D", 0, 0, 0, 0), placed("F", 0, -1, 90, 1), placed("A", 1, 0, 0, 2), meeples=[
        {"seat": 0, "x": 0, "y": 0, "feature": 3, "type": "field"},
        {"seat": 1, "x": 1, "y": 0, "feature": 1, "type": "cloister"},
        {"seat": 1, "x": 0, "y": -1, "feature": 0, "type": "city"},
    ], next_tile="U")
    desc = parse(carcassonne_svg(board, SEATS)).find("svg:desc", NS).text

    assert desc.startswith("Last tile placed: A at (1, 0).")
    assert "Tile D at (0, 0), turned 0°: city (north); road (east, west)." in desc
    assert "Tile F at (0, -1), turned 90°: city with a pennant (north, south)." in desc
    assert "Tile A at (1, 0), turned 0°: cloister; road (south)." in desc
    assert "Ada's farmer on the field (south) of tile D at (0, 0)." in desc
    assert "Bo's monk on the cloister of tile A at (1, 0)." in desc
    assert "Bo's knight on the city with a pennant (north, south) of tile F at (0, -1)." in desc
    assert desc.endswith("Next tile: U. Tiles left: 68.")


def test_the_description_can_be_translated():
    words = {
        "Last tile placed: %(tile)s at (%(x)s, %(y)s).": "Dernière tuile : %(tile)s (%(x)s, %(y)s).",
        "city (%(sides)s)": "ville (%(sides)s)", "north": "nord", "road (%(sides)s)": "route (%(sides)s)",
        "east": "est", "west": "ouest", "knight": "chevalier", "Seat %(seat)s": "Place %(seat)s",
        "Board with %(count)s tiles": "Plateau de %(count)s tuiles",
    }
    board = position(placed("D"), meeples=[{"seat": 0, "x": 0, "y": 0, "feature": 0, "type": "city"}])
    root = parse(carcassonne_svg(board, translate=lambda text: words.get(text, text)))

    desc = root.find("svg:desc", NS).text
    assert desc.startswith("Dernière tuile : D (0, 0).")
    assert "ville (nord); route (est, ouest)" in desc
    assert "Place 1's chevalier on the ville (nord)" in desc
    assert root.find("svg:title", NS).text == "Plateau de 1 tuiles"
    assert meeples(root)[0].find("svg:title", NS).text == "Place 1's chevalier"


def test_names_and_colours_cannot_break_out_of_the_drawing():
    seats = [{"seat": 0, "player": "<script>alert(1)</script>", "colour": "red\" onload=\"x"}]
    board = position(placed("D"), meeples=[{"seat": 0, "x": 0, "y": 0, "feature": 1, "type": "road"}]) | {"at": '"><x'}
    board["tiles"][0] = dict(board["tiles"][0], tile="<b>")
    svg = carcassonne_svg(board, seats)
    assert "<script>" not in svg and "onload" not in svg and "<b>" not in svg
    parse(svg)


@pytest.mark.parametrize("letter", sorted(BASE))
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_every_base_tile_gives_each_feature_a_spot_on_the_tile(letter, rotation):
    tile = placed(letter, 0, 0, rotation)
    board = position(tile, meeples=[{"seat": 0, "x": 0, "y": 0, "feature": f["id"], "type": f["type"]}
                                    for f in tile["features"]])
    root = parse(carcassonne_svg(board))
    spots = [translation(m) for m in meeples(root)]
    assert len(spots) == len(tile["features"])
    assert all(0 < x < TILE and 0 < y < TILE for x, y in spots)
    assert len(set(spots)) == len(spots), "no two features share a spot"
    assert all(math.dist(a, b) >= 6 for i, a in enumerate(spots) for b in spots[i + 1:])


def test_describe_alone_needs_no_seats():
    text = describe(position(placed("X"), meeples=[{"seat": 4, "x": 0, "y": 0, "feature": 6, "type": "field"}]))
    assert "Tile X at (0, 0), turned 0°: road (north); road (east); road (south); road (west)." in text
    assert "Seat 5's farmer on the field (south-east) of tile X at (0, 0)." in text


def test_at_the_end_the_meeples_the_final_scoring_sent_home_stand_where_they_were():
    """Once the final scoring has scored them, no meeple is left on the board; its awards say where
    each stood, and the drawing puts them back there (a farmer lying in its field), marked with
    their award, with each feature's outline hidden until asked for."""
    awards = [
        {"source": "city", "points": 4, "seats": [1], "action": 3, "final": False},
        {"source": "road", "points": 2, "seats": [0], "action": 3, "final": True, "tiles": [[0, 0], [1, 0]],
         "figures": [{"seat": 0, "kind": "meeple", "x": 1, "y": 0, "tile": "U", "feature": 1}], "contents": {}},
        {"source": "field", "points": 3, "seats": [1], "action": 3, "final": True, "tiles": [[0, 0]],
         "figures": [{"seat": 1, "kind": "meeple", "x": 0, "y": 0, "tile": "D", "feature": 3}],
         "contents": {"cities": 1}},
    ]
    board = position(placed("D", 0, 0, 0, 0), placed("U", 1, 0, 90, 1), awards=awards)
    root = parse(carcassonne_svg(board, SEATS, show="award-2"))

    drawn = meeples(root)
    # On the board, then again over each feature's outline.
    assert [(m.get("data-seat"), m.get("data-award")) for m in drawn] == [("0", "1"), ("1", "2")] * 2
    farmer = drawn[1]
    assert "farmer" in farmer.get("class").split() and "rotate(-90)" in farmer.get("transform")
    assert "Bo's farmer on the" in root.find("svg:desc", NS).text
    outlines = {g.get("data-target"): g.get("display") for g in with_class(root, "final-feature", "g")}
    assert outlines == {"award-1": "none", "award-2": "inline"}, "only final awards, only the one asked for"
