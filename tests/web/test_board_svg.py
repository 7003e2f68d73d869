"""The SVG board, drawn from the engine's JSON view of a position: no database, no Django.

Each test builds a position the way the state API gives it and reads the drawing back as XML.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from games.registry import get_engine
from ludolog.web.games.hunters_gatherers.drawing import MARKS, describe
from ludolog.web.games.hunters_gatherers.drawing import hunters_gatherers_svg as board_svg
from ludolog.web.tile_frame import PALETTE, seat_colour
from tests.factories import HG, simulated_events

NS = {"svg": "http://www.w3.org/2000/svg"}
SEATS = [{"seat": 0, "player": "Ada", "colour": ""}, {"seat": 1, "player": "Bo", "colour": "blue"}]


def position_after(events: int, players: int = 2, seed: int = 1) -> dict:
    engine = get_engine(HG)
    state = engine.new_state(players, seed)
    for kind, payload in simulated_events(players, seed)[:events]:
        engine.apply(state, kind, dict(payload))
    return dict(engine.view(state), at=events)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def tiles(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "tile" in g.get("class", "").split()]


def test_the_start_position_is_the_start_tile_alone_highlighted_with_a_text_alternative():
    root = parse(board_svg(position_after(0), SEATS))

    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "board-title board-desc"
    drawn = tiles(root)
    assert [g.get("data-tile") for g in drawn] == ["S"]
    assert "last-placed" in drawn[0].get("class")
    desc = root.find("svg:desc", NS).text
    # The start tile: a meadow with a mammoth, a forest with gold, a river into a lake with a fish.
    assert "Tile S at (0, 0), turned 0°" in desc
    assert "1 mammoth" in desc and "1 gold nugget" in desc and "lake (1 fish)" in desc
    assert "Last tile placed: S at (0, 0)." in desc
    assert root.find("svg:title", NS).text == "Board with 1 tiles"


def test_every_placed_tile_is_drawn_once_and_only_the_last_one_is_highlighted():
    position = position_after(12)
    root = parse(board_svg(position, SEATS))

    drawn = tiles(root)
    assert sorted(g.get("data-tile") for g in drawn) == sorted(t["tile"] for t in position["tiles"])
    highlighted = [g.get("data-tile") for g in drawn if "last-placed" in g.get("class")]
    assert highlighted == [position["last_placed"]["tile"]]
    assert len(root.findall(".//svg:rect[@class='last-placed-outline']", NS)) == 1
    # Told by its shape too: a triangle in its corner (the recorder's squares have none).
    assert len(root.findall(".//svg:path[@class='last-placed-mark']", NS)) == 1


def test_figures_are_drawn_in_their_players_colours_and_listed_in_the_description():
    position = position_after(30)
    assert position["figures"], "the simulated game has figures by then"
    svg = board_svg(position, SEATS)
    root = parse(svg)

    desc = root.find("svg:desc", NS).text
    figures = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "figure" in g.get("class", "").split()]
    assert len(figures) == len(position["figures"])
    for figure, drawn in zip(position["figures"], figures):
        assert figure["kind"] in drawn.get("class")
        fill = drawn.find("svg:path", NS).get("fill")
        assert fill == (PALETTE[0] if figure["owner"] == 0 else "#1d4ed8")
        name = SEATS[figure["owner"]]["player"]
        assert drawn.find("svg:title", NS).text == f"{name}'s {figure['kind']}"
        assert f"{name}'s {figure['kind']} on tile {figure['tile']} at ({figure['x']}, {figure['y']})." in desc
    hunters = [g for g in figures if "hunter" in g.get("class")]
    assert all("rotate(-90)" in g.get("transform") for g in hunters), "hunters lie down"


MARKED_TILE = {
    "id": "L99", "kind": "landscape", "x": 0, "y": 0, "rotation": 0, "order": 0,
    "edges": {
        "N": {"type": "forest", "sub_edges": [1, 1, 1]},
        "E": {"type": "river", "sub_edges": [0, 3, 2]},
        "S": {"type": "meadow", "sub_edges": [2, 2, 2]},
        "W": {"type": "river", "sub_edges": [2, 4, 0]},
    },
    "features": [
        {"id": 0, "type": "meadow", "deer": 1, "mammoths": 1, "tigers": 1, "aurochs": 1, "fire": True, "shrine": True},
        {"id": 1, "type": "forest", "gold_nuggets": 1, "mushroom_clearings": 1},
        {"id": 2, "type": "meadow", "deer": 0, "mammoths": 0, "tigers": 0, "aurochs": 0, "fire": False, "shrine": False},
        {"id": 3, "type": "river", "lake": 8, "spring": False},
        {"id": 4, "type": "river", "lake": None, "spring": True},
        {"id": 8, "type": "lake", "fish": 2},
    ],
}


def test_each_printed_mark_has_its_own_picture():
    position = {"tiles": [MARKED_TILE], "figures": [], "last_placed": {"id": "L99", "x": 0, "y": 0}}
    root = parse(board_svg(position))

    marks = [use.get("href") for use in root.iter("{http://www.w3.org/2000/svg}use")]
    assert sorted(marks) == sorted([
        "#hg-deer", "#hg-mammoth", "#hg-tiger", "#hg-aurochs", "#hg-fire", "#hg-shrine",
        "#hg-gold", "#hg-mushroom", "#hg-fish", "#hg-fish",
    ])
    symbols = {symbol.get("id") for symbol in root.iter("{http://www.w3.org/2000/svg}symbol")}
    assert {mark[1:] for mark in marks} <= symbols
    assert len(root.findall(".//svg:circle[@class='lake']", NS)) == 1
    assert len(root.findall(".//svg:circle[@class='spring']", NS)) == 1
    assert len(root.findall(".//svg:path[@class='river']", NS)) == 2
    desc = root.find("svg:desc", NS).text
    assert ("meadow (1 deer, 1 mammoth, 1 aurochs, 1 sabre-tooth tiger, fire, shrine), "
            "forest (1 gold nugget, 1 mushroom clearing), meadow, river, river (spring), lake (2 fish)") in desc


def _forest_box(position: dict) -> tuple[float, float, float, float]:
    root = parse(board_svg(position))
    polygon = root.find(".//svg:polygon[@class='forest']", NS)
    points = [tuple(map(float, pair.split(","))) for pair in polygon.get("points").split()]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def test_a_tile_turned_a_quarter_clockwise_shows_its_north_forest_on_the_east():
    tile = {
        "id": "L98", "kind": "landscape", "x": 0, "y": 0, "rotation": 0, "order": 0,
        "edges": {"N": {"type": "forest", "sub_edges": [1, 1, 1]}, "E": {"type": "meadow", "sub_edges": [0, 0, 0]},
                  "S": {"type": "meadow", "sub_edges": [0, 0, 0]}, "W": {"type": "meadow", "sub_edges": [0, 0, 0]}},
        "features": [{"id": 0, "type": "meadow"}, {"id": 1, "type": "forest"}],
    }
    left, top, right, bottom = _forest_box({"tiles": [tile], "figures": []})
    assert (top, left, right) == (0, 0, 60) and bottom < 30, "a band along the north side"
    left, top, right, bottom = _forest_box({"tiles": [dict(tile, rotation=90)], "figures": []})
    assert (right, top, bottom) == (60, 0, 60) and left > 30, "a band along the east side"


def test_player_names_and_colours_cannot_break_out_of_the_drawing():
    seats = [{"seat": 0, "player": "<script>alert(1)</script>", "colour": "red\" onload=\"x"}]
    svg = board_svg(position_after(30, players=2), seats)
    assert "<script>" not in svg and "onload" not in svg
    parse(svg)  # still well-formed XML


def test_seat_colours_accept_names_and_hex_codes_and_fall_back_to_the_palette():
    assert seat_colour(0, "Blue") == "#1d4ed8"
    assert seat_colour(1, "#a0b1c2") == "#a0b1c2"
    assert seat_colour(2, "url(#x)") == PALETTE[2]
    assert seat_colour(6, "") == PALETTE[1]


def test_free_cells_show_the_coordinates_a_scorekeeper_types():
    root = parse(board_svg(position_after(0), free_cells=True))
    labels = sorted(text.text for text in root.iter("{http://www.w3.org/2000/svg}text"))
    assert labels == ["-1,0", "0,-1", "0,1", "1,0"]


def test_the_description_can_be_translated():
    words = {"meadow": "pré", "Last tile placed: %(tile)s at (%(x)s, %(y)s).": "Dernière tuile : %(tile)s (%(x)s, %(y)s)."}
    svg = board_svg(position_after(0), translate=lambda text: words.get(text, text))
    desc = parse(svg).find("svg:desc", NS).text
    assert desc.startswith("Dernière tuile : S (0, 0).")
    assert re.search(r"pré \(1 mammoth\)", desc)


def test_counted_marks_take_the_plural_the_language_gives():
    forms = {"%(count)s fish": ("%(count)s poisson", "%(count)s poissons")}

    def french_plural(singular: str, plural: str, count: int) -> str:
        one, many = forms.get(singular, (singular, plural))
        return one if count <= 1 else many

    lake = {"tiles": [{"id": "L1", "x": 0, "y": 0, "rotation": 0,
                       "features": [{"type": "lake", "fish": 3}, {"type": "river", "fish": 1}]}]}
    assert "lake (3 fish), river (1 fish)" in describe(lake)
    assert "lake (3 poissons), river (1 poisson)" in describe(lake, translate_plural=french_plural)


def test_every_counted_mark_has_its_french_singular_and_plural():
    from django.utils import translation

    expected = {
        "deer": ("1 cerf", "3 cerfs"),
        "mammoths": ("1 mammouth", "3 mammouths"),
        "aurochs": ("1 aurochs", "3 aurochs"),
        "tigers": ("1 tigre à dents de sabre", "3 tigres à dents de sabre"),
        "gold_nuggets": ("1 pépite d'or", "3 pépites d'or"),
        "mushroom_clearings": ("1 clairière aux champignons sacrés", "3 clairières aux champignons sacrés"),
        "fish": ("1 poisson", "3 poissons"),
    }
    assert set(expected) == set(MARKS)
    with translation.override("fr"):
        french = {
            field: tuple(translation.ngettext(one, many, n) % {"count": n} for n in (1, 3))
            for field, (one, many) in MARKS.items()
        }
    assert french == expected


def test_at_the_end_the_figures_stand_where_they_were_those_sent_home_faded():
    """A finished game: hunters and huts stay on the board, each drawn once and marked with its
    final award; the gatherers and fishers the end sent home are drawn where they stood, faded."""
    position = position_after(len(simulated_events(2, 1)))
    finals = {index: award for index, award in enumerate(position["awards"]) if "tiles" in award}
    assert finals, "the game ends with a final scoring"
    position["sent_home"] = [{"seat": 1, "kind": "gatherer", "x": 0, "y": 0, "tile": "S", "feature": 0}]
    root = parse(board_svg(position, SEATS))

    marked = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-award") is not None]
    standing = sum(len(award["figures"]) for award in finals.values())
    assert len(marked) == 2 * standing, "each scored figure on the board and over its feature's outline"
    assert {int(g.get("data-award")) for g in marked} == {i for i, a in finals.items() if a["figures"]}
    [home] = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-sent-home")]
    assert home.get("opacity") == "0.5" and "gatherer" in home.get("class")
    assert home.find("svg:title", NS).text == "Bo's gatherer, sent home without points at the end"
    assert "Bo's gatherer on tile S at (0, 0) went home without points at the end." in root.find("svg:desc", NS).text


def test_a_final_feature_is_outlined_only_when_asked_for():
    position = position_after(len(simulated_events(2, 1)))
    index, award = next((i, a) for i, a in enumerate(position["awards"]) if "tiles" in a)
    quiet = parse(board_svg(position, SEATS))
    outlines = [g for g in quiet.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "final-feature"]
    assert len(outlines) == sum(1 for a in position["awards"] if "tiles" in a)
    assert {g.get("display") for g in outlines} == {"none"}

    shown = parse(board_svg(position, SEATS, show=f"award-{index}"))
    [outline] = [g for g in shown.iter("{http://www.w3.org/2000/svg}g") if g.get("display") == "inline"]
    assert outline.get("data-target") == f"award-{index}"
    shade, casing, line = outline.findall("svg:path", NS)[:3]
    assert shade.get("fill-rule") == "evenodd" and shade.get("d").count("h60v60h-60Z") == len(award["tiles"])
    # The outline runs round the feature's tiles: one side for each side no other of its tiles shares.
    cells = {tuple(t) for t in award["tiles"]}
    sides = sum((x + dx, y + dy) not in cells for x, y in cells for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))
    assert line.get("d").count("M") == sides and casing.get("d") == line.get("d")
