"""The expansions' tile sets (``data/inns_cathedrals_tiles_v1.json``, ``data/traders_builders_tiles_v1.json``)
against the shared reference and its FACTS.md (plain pytest, no Django).

The expected numbers are the boxes' contents as the rulebooks list them (Inns & Cathedrals: 18
tiles, 6 inns, 2 cathedrals; Traders & Builders: 24 tiles, 9 wine, 6 grain, 5 cloth, 4 without
goods), not read from the data files. Tests that need ``shared/reference`` skip without it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from games.engines.carcassonne import INNS_CATHEDRALS, TRADERS_BUILDERS, load_tileset, tileset_for
from games.engines.carcassonne.tileset import load_expansion_tiles
from games.engines.tiles import SIDES

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA_DIR = REPO_ROOT / "games" / "engines" / "carcassonne" / "data"
BUILD_SCRIPT = DATA_DIR / "build_tileset.py"
REFERENCE_DIR = (REPO_ROOT / ".." / "shared" / "reference" / "carcassonne").resolve()
REFERENCE = REFERENCE_DIR / "base_and_expansions_tiles.json"
FACTS = REFERENCE_DIR / "FACTS.md"
FILES = {INNS_CATHEDRALS: DATA_DIR / "inns_cathedrals_tiles_v1.json",
         TRADERS_BUILDERS: DATA_DIR / "traders_builders_tiles_v1.json"}
REFERENCE_KEYS = {INNS_CATHEDRALS: "inns_and_cathedrals", TRADERS_BUILDERS: "traders_and_builders"}
TERRAIN = {"city": "C", "road": "R", "field": "F"}


def need_reference() -> dict:
    if not REFERENCE.is_file():
        pytest.skip(f"reference file not found: {REFERENCE} (expected in {REFERENCE_DIR})")
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("expansion, prefix, types, tiles", [(INNS_CATHEDRALS, "IC", 17, 18),
                                                              (TRADERS_BUILDERS, "TB", 24, 24)])
def test_ids_types_and_tiles(expansion: str, prefix: str, types: int, tiles: int):
    """Inns & Cathedrals: 17 types, 18 tiles, IC01..IC17; Traders & Builders: 24 types, 24 tiles,
    TB01..TB24, numbered in order; each type keeps its JCloisterZone id."""
    loaded = load_expansion_tiles(expansion)
    assert list(loaded.types) == [f"{prefix}{n:02d}" for n in range(1, types + 1)]
    assert sum(t.count for t in loaded.types.values()) == tiles
    for t in loaded.types.values():
        assert t.expansion == expansion and t.jcz_id and t.jcz_id.startswith(f"{prefix}/")
    assert len({t.jcz_id for t in loaded.types.values()}) == types


def test_inns_and_cathedrals_marks():
    """6 tiles with an inn (one road each), 2 cathedral tiles (IC01, x2), 3 pennants, 1 cloister."""
    types = load_expansion_tiles(INNS_CATHEDRALS).types.values()
    assert sum(t.count * len(t.inns) for t in types) == 6
    assert {t.letter: t.count for t in types if t.cathedrals} == {"IC01": 2}
    assert sum(t.count * sum(t.pennants.values()) for t in types) == 3
    assert sum(t.count for t in types if t.cloister is not None) == 1
    for t in types:
        assert all(t.kind(f) == "road" for f in t.inns) and all(t.kind(f) == "city" for f in t.cathedrals)
        assert not t.goods


def test_traders_and_builders_goods():
    """9 wine, 6 grain, 5 cloth on 20 tiles, 4 tiles without goods; no pennant, no inn."""
    types = load_expansion_tiles(TRADERS_BUILDERS).types.values()
    assert Counter(good for t in types for good in t.goods.values()) == {"wine": 9, "grain": 6, "cloth": 5}
    assert sum(1 for t in types if not t.goods) == 4
    for t in types:
        assert all(t.kind(f) == "city" for f in t.goods)
        assert not t.inns and not t.cathedrals and not any(t.pennants.values())


def test_combined_pile_and_the_base_set_untouched():
    """Base (71 to draw) + 18 + 24 = 113 tiles to draw; the base set is the same object either way."""
    assert len(tileset_for([INNS_CATHEDRALS, TRADERS_BUILDERS]).pile()) == 71 + 18 + 24
    assert len(tileset_for([TRADERS_BUILDERS]).pile()) == 71 + 24
    assert tileset_for([]) is load_tileset()
    both = tileset_for([TRADERS_BUILDERS, INNS_CATHEDRALS])
    assert both.expansions == (INNS_CATHEDRALS, TRADERS_BUILDERS)
    assert both.name == "carcassonne-base+carcassonne-inns-cathedrals+carcassonne-traders-builders"
    assert both.version == "1+1+1" and both.start == "D"
    with pytest.raises(ValueError):
        tileset_for(["river"])


@pytest.mark.parametrize("expansion", [INNS_CATHEDRALS, TRADERS_BUILDERS])
def test_every_side_is_well_formed(expansion: str):
    """Road sides are field, road, field; city and field sides one feature of their own kind."""
    for t in load_expansion_tiles(expansion).types.values():
        for side in SIDES:
            edge = t.tile.edge(side)
            kinds = [t.kind(f) for f in edge.sub_edges]
            expected = ["field", "road", "field"] if edge.terrain == "road" else [edge.terrain] * 3
            assert kinds == expected, (t.letter, side)


@pytest.mark.parametrize("expansion", [INNS_CATHEDRALS, TRADERS_BUILDERS])
def test_header_and_provenance(expansion: str):
    raw = json.loads(FILES[expansion].read_text(encoding="utf-8"))
    assert raw["version"] == "1" and raw["expansion"] == expansion
    assert raw["source"]["repository"] == "farin/JCloisterZone"
    assert re.fullmatch(r"[0-9a-f]{40}", raw["source"]["commit"])
    assert raw["source"]["path"].endswith(".xml") and "JCloisterZone" in raw["note"]


@pytest.mark.parametrize("expansion", [INNS_CATHEDRALS, TRADERS_BUILDERS])
def test_rebuild_is_byte_identical(expansion: str, tmp_path: Path):
    """build_tileset.py --set <expansion> on the shared reference gives the committed file byte for byte."""
    need_reference()
    out = tmp_path / FILES[expansion].name
    subprocess.run([sys.executable, str(BUILD_SCRIPT), str(REFERENCE), "--set", expansion, "--output", str(out)],
                   check=True, capture_output=True, cwd=REPO_ROOT)
    assert out.read_bytes() == FILES[expansion].read_bytes()


@pytest.mark.parametrize("expansion", [INNS_CATHEDRALS, TRADERS_BUILDERS])
def test_order_counts_and_sides_as_the_reference(expansion: str):
    """Each id's JCloisterZone id and count follow FACTS.md's list, in its order; terrains per side,
    inns, cathedrals and goods are the reference's."""
    reference = need_reference()[REFERENCE_KEYS[expansion]]
    facts = FACTS.read_text(encoding="utf-8")
    line = next(line for line in facts.splitlines() if line.startswith(REFERENCE_KEYS[expansion] + " "))
    listed = [re.fullmatch(r"(.+)x(\d+)", item).groups() for item in line.split(" ", 1)[1].split(", ")]
    loaded = list(load_expansion_tiles(expansion).types.values())
    assert [(t.jcz_id, str(t.count)) for t in loaded] == listed
    for t, entry in zip(loaded, reference):
        assert "".join(TERRAIN[t.tile.edge(side).terrain] for side in SIDES) == \
            "".join(TERRAIN[entry["edges"][s]["type"]] for s in "NESW")
        features = entry["features"]
        assert len(t.inns) == sum(1 for f in features if f.get("inn"))
        assert len(t.cathedrals) == sum(1 for f in features if f.get("cathedral"))
        assert sorted(t.goods.values()) == sorted(f["trade_good"] for f in features if f.get("trade_good"))
        assert (t.cloister is not None) == entry["cloister"]
