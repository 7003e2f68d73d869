"""Tile pictures for the table recorder: every tile of a set drawn once, as an SVG ``<symbol>``,
with where each feature's figure stands and what is printed on it (for the picker's filters).

The drawings are the board's own (:mod:`ludolog.web.board_svg` for Hunters and Gatherers,
:mod:`ludolog.web.carcassonne_svg` for Carcassonne): a tile in the picker looks exactly like
the same tile on the board. Pure (no Django); the words of the filters are the page's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

from .. import board_svg, carcassonne_svg
from ..board_svg import TILE

Point = tuple[float, float]


@dataclass(frozen=True)
class TilePicture:
    """One printed tile as the recorder draws and describes it."""

    symbol: str
    """``<symbol id="tile-{id}" viewBox="0 0 60 60">…</symbol>``, drawn as printed (unturned)."""
    anchors: Mapping[int, Point]
    """Feature → where its figure stands, on the unit tile as printed."""
    terrains: Mapping[int, str]
    """Feature → its terrain (forest, river, meadow, lake; city, road, field, cloister)."""
    tags: tuple[str, ...]
    """What is on the tile, for the picker's filters (see :data:`TAG_ORDER`)."""
    kind: str
    """``landscape``, ``bonus``, ``start``; ``tile`` where a game has one kind."""


TAG_ORDER: Mapping[str, tuple[str, ...]] = {
    "hunters-gatherers": ("river", "lake", "spring", "forest", "gold", "mushroom", "deer", "mammoth", "aurochs",
                          "tiger", "fish", "fire", "shrine", "bonus"),
    "carcassonne": ("city", "pennant", "road", "cloister", "inn", "cathedral", "wine", "grain", "cloth"),
    "carcassonne-maps": ("city", "pennant", "road", "cloister", "inn", "cathedral", "wine", "grain", "cloth"),
}
"""The filters each tile game offers, in the order the picker shows them."""

_HG_MARK_TAGS = {
    "gold_nuggets": "gold", "mushroom_clearings": "mushroom", "deer": "deer", "mammoths": "mammoth",
    "aurochs": "aurochs", "tigers": "tiger", "fish": "fish",
}


def symbol_id(tile: str) -> str:
    return f"tile-{tile}"


def _symbol(tile: str, art: str) -> str:
    return (f'<symbol id="{escape(symbol_id(tile))}" viewBox="0 0 {TILE} {TILE}" overflow="hidden">'
            f"{art}</symbol>")


def _hunters_gatherers(tile: str, record: Mapping[str, Any]) -> TilePicture:
    key = json.dumps([record.get("kind"), record.get("edges"), record.get("features")], sort_keys=True)
    art, anchors = board_svg._tile_art(key, 0)
    tags: set[str] = set()
    for feature in record.get("features", []):
        kind = feature.get("type")
        if kind in ("river", "lake", "forest"):
            tags.add(kind)
        if kind == "river" and feature.get("spring"):
            tags.add("spring")
        for field, tag in _HG_MARK_TAGS.items():
            if feature.get(field):
                tags.add(tag)
        if feature.get("fire"):
            tags.add("fire")
        if feature.get("shrine"):
            tags.add("shrine")
    if record.get("kind") == "bonus":
        tags.add("bonus")
    return TilePicture(
        symbol=_symbol(tile, art),
        anchors={fid: (round(x / TILE, 3), round(y / TILE, 3)) for fid, (x, y) in anchors.items()},
        terrains={int(f["id"]): str(f["type"]) for f in record.get("features", [])},
        tags=tuple(t for t in TAG_ORDER["hunters-gatherers"] if t in tags),
        kind=str(record.get("kind", "landscape")),
    )


def _carcassonne(tile: str, record: Mapping[str, Any]) -> TilePicture:
    art, anchors = carcassonne_svg._shape_of(dict(record, rotation=0))
    tags: set[str] = set()
    for feature in record.get("features", []):
        kind = feature.get("type")
        if kind in ("city", "road", "cloister"):
            tags.add(kind)
        if kind == "city" and carcassonne_svg._pennants(feature):
            tags.add("pennant")
        if kind == "city" and (mark := carcassonne_svg._city_mark(feature)):
            tags.add(mark)
        if kind == "road" and feature.get("inn"):
            tags.add("inn")
    return TilePicture(
        symbol=_symbol(tile, art),
        anchors={fid: (round(x, 3), round(y, 3)) for fid, (x, y) in anchors.items()},
        terrains={int(f["id"]): str(f["type"]) for f in record.get("features", [])},
        tags=tuple(t for t in TAG_ORDER["carcassonne"] if t in tags),
        kind="tile",
    )


_DRAWERS: Mapping[str, Callable[[str, Mapping[str, Any]], TilePicture]] = {
    "hunters-gatherers": _hunters_gatherers,
    "carcassonne": _carcassonne,
    "carcassonne-maps": _carcassonne,
}


def tile_game(slug: str) -> bool:
    return slug in _DRAWERS


@lru_cache(maxsize=8)
def _pictures(slug: str, ruleset_version: str, records_json: str) -> dict[str, TilePicture]:
    records = json.loads(records_json)
    draw = _DRAWERS[slug]
    return {tile: draw(tile, record) for tile, record in records.items()}


def pictures(slug: str, ruleset_version: str, records: Mapping[str, Mapping[str, Any]]) -> dict[str, TilePicture]:
    """Every tile of the set, drawn once per ruleset version."""
    return _pictures(slug, ruleset_version, json.dumps(records, sort_keys=True))


def sprite(pictures_by_tile: Mapping[str, TilePicture], defs: str = "") -> str:
    """One hidden ``<svg>`` holding every tile's symbol (and the marks they use), for
    ``<use href="#tile-…">`` anywhere on the page, online or not."""
    symbols = "".join(picture.symbol for picture in pictures_by_tile.values())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-sprite" aria-hidden="true" '
            f'width="0" height="0" style="position:absolute">{defs}{symbols}</svg>')


def sprite_defs(slug: str) -> str:
    """The shared drawings the tiles of a game refer to (Hunters and Gatherers' animals, fish…)."""
    return board_svg.SYMBOLS if slug == "hunters-gatherers" else ""


def figure_glyphs(slug: str, translate: Callable[[str], str]) -> dict[str, str]:
    """Each figure a player may put on a tile, drawn at (0, 0) in ``currentColor``: by kind for
    Hunters and Gatherers, ``meeple:<terrain>`` and ``big:<terrain>`` for Carcassonne (a farmer
    lies down), its builder and pig by kind."""
    if slug == "hunters-gatherers":
        return {kind: board_svg._figure(kind, (0.0, 0.0), "currentColor", translate(kind))
                for kind in ("gatherer", "fisher", "hunter", "hut")}
    glyphs = {}
    for terrain in ("city", "road", "cloister", "field"):
        label = translate(carcassonne_svg.ROLE_WORDS[terrain])
        glyphs[f"meeple:{terrain}"] = carcassonne_svg._meeple({"type": terrain}, (0.0, 0.0), "currentColor", label)
        glyphs[f"big:{terrain}"] = carcassonne_svg._meeple(
            {"type": terrain, "kind": "big"}, (0.0, 0.0), "currentColor", translate("large meeple"))
    for kind in ("builder", "pig"):
        glyphs[kind] = carcassonne_svg._meeple({"kind": kind}, (0.0, 0.0), "currentColor",
                                               translate(carcassonne_svg.FIGURE_WORDS[kind]))
    return glyphs
