"""Hand-made tiles in a few characters, for tests, examples and rulebook positions.

A side is written ``"f0"`` (forest feature 0 on all three thirds), ``"m1"``
(meadow 1) or ``"m1 r2 m3"`` (a river side: bank meadow, river, bank meadow, read
clockwise). Feature kinds come from the letters; what a feature holds is
written ``"deer=2 tigers=1"``, ``"fire"``, ``"gold=1"``, ``"mushrooms=1"``,
``"lake=8"``/``"spring"`` for a river, and lakes (ids 8 and 9) as
``"lake fish=2"``. A river touching one side with no lake given rises at a spring.

>>> pond = sketch_tile("L01", N="m0", E="m0 r1 m0", S="m0", W="m0", features={1: "lake=8", 8: "lake fish=2"})
>>> [f["type"] for f in pond["features"]]
['meadow', 'river', 'lake']
>>> ts = sketch_tileset(start=sketch_tile("S", "start", N="m0", E="m0", S="m0", W="m0"), tiles=[pond])
>>> ts.by_id["L01"].features[8].fish
2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .tileset import Tileset

_KINDS = {"f": "forest", "m": "meadow", "r": "river"}
_ATTRIBUTES = {"gold": "gold_nuggets", "mushrooms": "mushroom_clearings"}


def sketch_tile(tile_id: str, kind: str = "landscape", *, N: str, E: str, S: str, W: str,
                features: Mapping[int, str] | None = None) -> dict[str, Any]:
    """A tile record in the tile-set file's format (see ``data/tileset.schema.json``)."""
    notes = dict(features or {})
    kinds: dict[int, str] = {}
    edges: dict[str, Any] = {}
    touched: dict[int, set[str]] = {}
    for side, text in (("N", N), ("E", E), ("S", S), ("W", W)):
        tokens = text.split()
        if len(tokens) == 1:
            tokens *= 3
        subs = []
        for token in tokens:
            fid = int(token[1:])
            kinds[fid] = _KINDS[token[0]]
            touched.setdefault(fid, set()).add(side)
            subs.append(fid)
        terrain = "river" if kinds[subs[1]] == "river" else kinds[subs[0]]
        edges[side] = {"type": terrain, "sub_edges": subs}
    for fid, text in notes.items():
        if text.split()[0] == "lake":
            kinds[fid] = "lake" if fid >= 8 else kinds[fid]
    records = []
    for fid in sorted(kinds):
        words = notes.get(fid, "").split()
        feature_kind = kinds[fid]
        record: dict[str, Any] = {"id": fid, "type": feature_kind}
        if feature_kind == "meadow":
            record.update(deer=0, mammoths=0, tigers=0, aurochs=0, fire=False, shrine=False)
        elif feature_kind == "forest":
            record.update(gold_nuggets=0, mushroom_clearings=0)
        elif feature_kind == "river":
            record.update(lake=None, spring=len(touched[fid]) == 1)
        else:
            record.update(fish=0)
            words = words[1:]
        for word in words:
            key, _, value = word.partition("=")
            key = _ATTRIBUTES.get(key, key)
            record[key] = True if not value else int(value)
            if key == "lake":
                record["spring"] = False
        records.append(record)
    return {"id": tile_id, "kind": kind_of(tile_id, kind), "source": "sketch", "edges": edges,
            "features": records}


def kind_of(tile_id: str, kind: str) -> str:
    return "bonus" if tile_id.startswith("B") and kind == "landscape" else kind


def sketch_tileset(start: Mapping[str, Any], tiles: Iterable[Mapping[str, Any]],
                   name: str = "sketch", version: str = "test") -> Tileset:
    """A small tile set (not schema-checked: the schema pins the first edition's totals)."""
    return Tileset.from_dict({"name": name, "version": version, "tiles": [dict(start), *map(dict, tiles)]},
                             validate_schema=False)
