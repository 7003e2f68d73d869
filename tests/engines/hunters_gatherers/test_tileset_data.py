"""Checks on the reconstructed first-edition Hunters and Gatherers tile set (plain pytest, no Django).

The data file, its schema and the script that builds it live in
``games/engines/hunters_gatherers/data/``; they are read by path so these tests do not
depend on the engine package being importable.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA_DIR = REPO_ROOT / "games" / "engines" / "hunters_gatherers" / "data"
DATA_FILE = DATA_DIR / "tileset_first_edition_v1.json"
SCHEMA_FILE = DATA_DIR / "tileset.schema.json"
BUILD_SCRIPT = DATA_DIR / "build_tileset.py"
REFERENCE = (REPO_ROOT / ".." / "shared" / "reference" / "hunters_gatherers"
             / "second_edition_tiles_chacun.json").resolve()

SIDES = ("N", "E", "S", "W")
Tile = dict[str, Any]


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tiles(data: dict[str, Any]) -> list[Tile]:
    return data["tiles"]


def features_of(tile: Tile, ftype: str) -> list[dict[str, Any]]:
    return [f for f in tile["features"] if f["type"] == ftype]


def sides_touched(tile: Tile, feature_id: int) -> list[str]:
    return [s for s in SIDES if feature_id in tile["edges"][s]["sub_edges"]]


def all_features(tiles: list[Tile], ftype: str, kinds: tuple[str, ...] = ("start", "landscape", "bonus")):
    return [f for t in tiles if t["kind"] in kinds for f in features_of(t, ftype)]


def test_schema_is_valid_draft_2020_12() -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)


def test_file_validates_against_schema(data: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def test_schema_rejects_unknown_fields_and_types(data: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    bad = json.loads(json.dumps(data))
    bad["tiles"][1]["features"][0]["unicorns"] = 1
    assert not validator.is_valid(bad)
    bad = json.loads(json.dumps(data))
    bad["tiles"][1]["edges"]["N"]["type"] = "city"
    assert not validator.is_valid(bad)


def test_header_says_reconstructed(data: dict[str, Any]) -> None:
    assert data["name"] == "hunters-gatherers-first-edition"
    assert data["version"] == "1-reconstructed"
    assert data["reconstructed"] is True
    for needle in ("RECONSTRUCTED", "ChaCuN", "mattiamtzlr/EPFL-CS108-ChaCuN", "src/ch/epfl/chacun/Tiles.java",
                   "7268ad73ddbb2ec24b47e3bfa6ae37b71a5e9c30", "second_edition_tiles_chacun.json",
                   "Aggregate counts"):
        assert needle in data["provenance"], needle
    assert len(data["adaptation"]) >= 5


def test_totals(data: dict[str, Any], tiles: list[Tile]) -> None:
    kinds = Counter(t["kind"] for t in tiles)
    assert data["totals"] == {"landscape": 79, "start": 1, "bonus": 12}
    assert kinds == {"start": 1, "landscape": 78, "bonus": 12}
    assert kinds["start"] + kinds["landscape"] == data["totals"]["landscape"]
    ids = [t["id"] for t in tiles]
    assert len(set(ids)) == len(ids)
    assert set(ids) == {"S"} | {f"L{n:02d}" for n in range(1, 79)} | {f"B{n:02d}" for n in range(1, 13)}
    sources = [t["source"] for t in tiles]
    assert len(set(sources)) == len(sources), "each source tile is used at most once"


def test_exactly_one_fire_and_one_shrine(tiles: list[Tile]) -> None:
    meadows = all_features(tiles, "meadow")
    assert sum(m["fire"] for m in meadows) == 1
    assert sum(m["shrine"] for m in meadows) == 1
    fire_tiles = [t["id"] for t in tiles if any(m["fire"] for m in features_of(t, "meadow"))]
    shrine_tiles = [t["id"] for t in tiles if any(m["shrine"] for m in features_of(t, "meadow"))]
    assert fire_tiles[0].startswith("B") and shrine_tiles[0].startswith("B")
    assert fire_tiles != shrine_tiles


def test_aurochs_and_mushrooms_only_on_bonus_tiles(tiles: list[Tile]) -> None:
    assert sum(m["aurochs"] for m in all_features(tiles, "meadow", ("start", "landscape"))) == 0
    assert sum(f["mushroom_clearings"] for f in all_features(tiles, "forest", ("start", "landscape"))) == 0
    assert sum(m["aurochs"] for m in all_features(tiles, "meadow", ("bonus",))) >= 1
    assert sum(f["mushroom_clearings"] for f in all_features(tiles, "forest", ("bonus",))) >= 1


def test_gold_nuggets_only_on_landscape_tiles(tiles: list[Tile]) -> None:
    assert sum(f["gold_nuggets"] for f in all_features(tiles, "forest", ("bonus",))) == 0
    assert sum(f["gold_nuggets"] for f in all_features(tiles, "forest", ("start", "landscape"))) > 0


def test_fish_only_in_lakes_at_most_four(tiles: list[Tile]) -> None:
    for river in all_features(tiles, "river"):
        assert "fish" not in river
    for lake in all_features(tiles, "lake"):
        assert 0 <= lake["fish"] <= 4


def test_feature_ids_unique_and_in_range(tiles: list[Tile]) -> None:
    for tile in tiles:
        ids = [f["id"] for f in tile["features"]]
        assert len(set(ids)) == len(ids), tile["id"]
        for f in tile["features"]:
            assert (8 <= f["id"] <= 9) == (f["type"] == "lake"), (tile["id"], f)


def test_every_sub_edge_exists_and_every_border_feature_touches_a_side(tiles: list[Tile]) -> None:
    for tile in tiles:
        by_id = {f["id"]: f for f in tile["features"]}
        used = {z for s in SIDES for z in tile["edges"][s]["sub_edges"]}
        assert used <= set(by_id), (tile["id"], used - set(by_id))
        for f in tile["features"]:
            assert (f["id"] in used) == (f["type"] != "lake"), (tile["id"], f)


def test_side_shapes(tiles: list[Tile]) -> None:
    for tile in tiles:
        by_id = {f["id"]: f for f in tile["features"]}
        for side in SIDES:
            edge = tile["edges"][side]
            types = [by_id[z]["type"] for z in edge["sub_edges"]]
            where = (tile["id"], side)
            if edge["type"] == "river":
                assert types == ["meadow", "river", "meadow"], where
            elif edge["type"] == "forest":
                assert types == ["forest"] * 3 and len(set(edge["sub_edges"])) == 1, where
            else:
                assert types == ["meadow"] * 3, where


def test_rivers_and_lakes(tiles: list[Tile]) -> None:
    for tile in tiles:
        lakes = {f["id"] for f in features_of(tile, "lake")}
        fed: set[int] = set()
        for river in features_of(tile, "river"):
            touched = sides_touched(tile, river["id"])
            where = (tile["id"], river["id"])
            assert len(touched) in (1, 2), where
            if len(touched) == 1:
                assert (river["lake"] is not None) != river["spring"], where
            else:
                assert river["lake"] is None and river["spring"] is False, where
            if river["lake"] is not None:
                assert river["lake"] in lakes, where
                fed.add(river["lake"])
        assert fed == lakes, (tile["id"], "every lake is referenced by a river")


def test_start_tile(tiles: list[Tile]) -> None:
    (start,) = [t for t in tiles if t["kind"] == "start"]
    assert start["id"] == "S" and start["volcano"] is True
    types = [start["edges"][s]["type"] for s in SIDES]
    assert Counter(types) == {"forest": 2, "river": 1, "meadow": 1}
    forest_idx = [i for i, t in enumerate(types) if t == "forest"]
    assert (forest_idx[1] - forest_idx[0]) % 4 in (1, 3), "forest on two adjacent sides"
    assert sum(m["mammoths"] for m in features_of(start, "meadow")) == 1
    assert sum(lake["fish"] for lake in features_of(start, "lake")) == 1
    assert all(t.get("volcano") is None for t in tiles if t["kind"] != "start")


def test_tiles_34_42_66_keep_source_zones(tiles: list[Tile]) -> None:
    """ChaCuN 34, 42, 66: two different meadows meet at a corner; they must not be merged."""
    by_source = {t["source"]: t for t in tiles}
    for source in ("chacun:34", "chacun:42", "chacun:66"):
        assert len(features_of(by_source[source], "meadow")) >= 2, source
    t34 = by_source["chacun:34"]
    assert [t34["edges"][s]["sub_edges"][0] for s in ("N", "E", "S")] == [0, 1, 2]


def test_rebuild_is_byte_identical(tmp_path: Path) -> None:
    if not REFERENCE.is_file():
        pytest.skip(f"reference file not found: {REFERENCE} (needed to rebuild the tile set)")
    out = tmp_path / "tileset.json"
    subprocess.run([sys.executable, str(BUILD_SCRIPT), str(REFERENCE), "--output", str(out)],
                   check=True, capture_output=True)
    assert out.read_bytes() == DATA_FILE.read_bytes()


def test_geometry_is_the_sources(tiles: list[Tile]) -> None:
    """Edges, sub-edges and zone ids/types are ChaCuN's, unchanged (no zone merged or renumbered)."""
    if not REFERENCE.is_file():
        pytest.skip(f"reference file not found: {REFERENCE}")
    source = {t["id"]: t for t in json.loads(REFERENCE.read_text(encoding="utf-8"))["tiles"]}
    for tile in tiles:
        src = source[int(tile["source"].split(":")[1])]
        assert {"start": "start", "landscape": "normal", "bonus": "menhir"}[tile["kind"]] == src["kind"]
        for side in SIDES:
            assert tile["edges"][side]["type"] == src["edges"][side]["type"], (tile["id"], side)
            assert tile["edges"][side]["sub_edges"] == src["edges"][side]["sub_edges_clockwise"], (tile["id"], side)
        assert [(f["id"], f["type"]) for f in tile["features"]] == [(z["zone"], z["type"]) for z in src["zones"]]
