"""The base Carcassonne tile set (``games/engines/carcassonne/data/base_tiles_v1.json``) against the
tile table of ``shared/reference/carcassonne/FACTS.md`` (plain pytest, no Django).

The expected values below are copied from FACTS.md's table, not from the data file, so a
transcription slip in either shows up here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engines.carcassonne import TILESET_VERSION, load_tileset
from games.engines.tiles import SIDES

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA_DIR = REPO_ROOT / "games" / "engines" / "carcassonne" / "data"
DATA_FILE = DATA_DIR / "base_tiles_v1.json"
BUILD_SCRIPT = DATA_DIR / "build_tileset.py"
REFERENCE_DIR = (REPO_ROOT / ".." / "shared" / "reference" / "carcassonne").resolve()
REFERENCE = REFERENCE_DIR / "base_and_expansions_tiles.json"

# FACTS.md: letter -> (count, terrains N E S W, pennants)
FACTS = {
    "A": (2, "FFRF", 0), "B": (4, "FFFF", 0), "C": (1, "CCCC", 1), "D": (4, "CRFR", 0),
    "E": (5, "CFFF", 0), "F": (2, "FCFC", 1), "G": (1, "FCFC", 0), "H": (3, "CFCF", 0),
    "I": (2, "CFFC", 0), "J": (3, "CRRF", 0), "K": (3, "CFRR", 0), "L": (3, "CRRR", 0),
    "M": (2, "CFFC", 1), "N": (3, "CFFC", 0), "O": (2, "CRRC", 1), "P": (3, "CRRC", 0),
    "Q": (1, "CCFC", 1), "R": (3, "CCFC", 0), "S": (2, "CCRC", 1), "T": (1, "CCRC", 0),
    "U": (8, "FRFR", 0), "V": (9, "FFRR", 0), "W": (4, "FRRR", 0), "X": (1, "RRRR", 0),
}
TERRAIN = {"C": "city", "R": "road", "F": "field"}

# FACTS.md "Fields -> adjacent cities" for a few letters, as half edges -> the city edges touched.
# Half edges read N.w N.e E.n E.s S.e S.w W.s W.n; a city is named by the sides it covers.
FIELDS = {
    "D": {("E.n", "W.n"): {"N"}, ("E.s", "S.e", "S.w", "W.s"): set()},
    "H": {("E.n", "E.s", "W.s", "W.n"): {"N", "S"}},
    "I": {("E.n", "E.s", "S.e", "S.w"): {"N", "W"}},
    "L": {("E.n", "W.n"): {"N"}, ("S.w", "W.s"): set(), ("E.s", "S.e"): set()},
    "S": {("S.e",): {"NEW"}, ("S.w",): {"NEW"}},
}
HALF_EDGES = {side: (f"{side}.{a}", f"{side}.{b}") for side, a, b in
              (("N", "w", "e"), ("E", "n", "s"), ("S", "e", "w"), ("W", "s", "n"))}
"""The outer thirds of each side read clockwise: the first and last sub-edge."""


@pytest.fixture(scope="module")
def tileset():
    return load_tileset()


@pytest.fixture(scope="module")
def raw() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def test_24_types_72_tiles_71_to_draw_start_d(tileset):
    """24 tile types, 72 tiles; one D is the start tile, so 71 go into the pile."""
    assert sorted(tileset.types) == list("ABCDEFGHIJKLMNOPQRSTUVWX")
    assert sum(t.count for t in tileset.types.values()) == 72
    assert tileset.start == "D"
    pile = tileset.pile()
    assert len(pile) == 71 and pile.count("D") == 3


@pytest.mark.parametrize("letter", sorted(FACTS))
def test_counts_and_terrains_as_facts(tileset, letter):
    """Each letter has FACTS.md's count and its terrains north, east, south, west."""
    count, terrains, pennants = FACTS[letter]
    tile_type = tileset.types[letter]
    assert tile_type.count == count
    assert [tile_type.tile.edge(side).terrain for side in SIDES] == [TERRAIN[c] for c in terrains]
    assert sum(tile_type.pennants.values()) == pennants
    assert tileset.pile().count(letter) == count - (letter == "D")


def test_ten_pennants_six_cloisters(tileset):
    """10 pennants in all (count x pennanted cities); 6 cloisters (A x2 + B x4)."""
    assert sum(t.count * sum(t.pennants.values()) for t in tileset.types.values()) == 10
    with_cloister = {t.letter: t.count for t in tileset.types.values() if t.cloister is not None}
    assert with_cloister == {"A": 2, "B": 4}
    assert sum(with_cloister.values()) == 6
    for letter in "AB":
        t = tileset.types[letter]
        assert t.kind(t.cloister) == "cloister" and t.tile.sides_touched(t.cloister) == ()


def test_road_sides_are_field_road_field(tileset):
    """Every road side: the middle sub-edge is a road feature, the outer thirds are fields;
    city and field sides are one feature of their own kind."""
    for t in tileset.types.values():
        for side in SIDES:
            edge = t.tile.edge(side)
            kinds = [t.kind(f) for f in edge.sub_edges]
            if edge.terrain == "road":
                assert kinds == ["field", "road", "field"], (t.letter, side)
            else:
                assert kinds == [edge.terrain] * 3, (t.letter, side)
                assert len(set(edge.sub_edges)) == 1, (t.letter, side)


def test_every_feature_kind_is_known_and_every_field_lists_cities_only(tileset):
    """Features are cities, roads, fields or cloisters; a field's adjacent cities are city features
    of the same tile, and only fields list any."""
    for t in tileset.types.values():
        assert set(t.tile.feature_kinds.values()) <= {"city", "road", "field", "cloister"}
        assert set(t.field_cities) == {f for f, k in t.tile.feature_kinds.items() if k == "field"}
        for cities in t.field_cities.values():
            assert all(t.kind(c) == "city" for c in cities)
        assert set(t.pennants) == {f for f, k in t.tile.feature_kinds.items() if k == "city"}


@pytest.mark.parametrize("letter", sorted(FIELDS))
def test_field_city_adjacency_as_facts(tileset, letter):
    """The fields of D, H, I, L and S cover FACTS.md's half edges and touch FACTS.md's cities."""
    t = tileset.types[letter]
    found = {}
    for field, cities in t.field_cities.items():
        halves = []
        for side in SIDES:
            sub = t.tile.edge(side).sub_edges
            first, last = HALF_EDGES[side.name]
            if sub[0] == field:
                halves.append(first)
            if sub[2] == field:
                halves.append(last)
        city_sides = {"".join(s.name for s in t.tile.sides_touched(c)) for c in cities}
        found[tuple(halves)] = city_sides
    expected = {tuple(sorted(k, key=_half_order)): v for k, v in FIELDS[letter].items()}
    assert {tuple(sorted(k, key=_half_order)): v for k, v in found.items()} == expected


def _half_order(half: str) -> int:
    return [h for side in "NESW" for h in HALF_EDGES[side]].index(half)


def test_version_and_header(raw, tileset):
    """The data file is version "1" of the base set, named so, with D as the start tile."""
    assert raw["version"] == "1" == tileset.version == TILESET_VERSION
    assert raw["name"] == "carcassonne-base"
    assert raw["start"] == "D"
    assert "JCloisterZone" in raw["note"]


def test_rebuild_is_byte_identical(tmp_path: Path):
    """build_tileset.py run on the shared reference gives the committed file byte for byte."""
    if not REFERENCE.is_file():
        pytest.skip(f"reference file not found: {REFERENCE} (needed to rebuild the tile set; "
                    f"expected in {REFERENCE_DIR})")
    out = tmp_path / "base_tiles_v1.json"
    subprocess.run([sys.executable, str(BUILD_SCRIPT), str(REFERENCE), "--output", str(out)],
                   check=True, capture_output=True, cwd=REPO_ROOT)
    assert out.read_bytes() == DATA_FILE.read_bytes()


def test_reference_agrees_on_counts_and_pennants():
    """The shared reference's base game has the same counts and pennants as FACTS.md's table."""
    if not REFERENCE.is_file():
        pytest.skip(f"reference file not found: {REFERENCE}")
    base = json.loads(REFERENCE.read_text(encoding="utf-8"))["base_game"]
    assert {e["letter"]: e["count"] for e in base} == {k: v[0] for k, v in FACTS.items()}
    assert {e["letter"]: sum(1 for f in e["features"] if f.get("pennant")) for e in base} == \
        {k: v[2] for k, v in FACTS.items()}
