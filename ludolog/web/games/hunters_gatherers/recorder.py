"""Hunters and Gatherers at the table recorder: each tile as the picker shows it (the board's own
drawing, with where each feature's figure stands and what is printed on it), the picker's
filters and the words of its tags, figures and terrains."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy, pgettext_lazy

from ...recorder.pictures import TilePicture, symbol
from ...recorder.tiles import tile_recorder
from ...tile_frame import TILE
from . import drawing

TAGS = {
    "river": gettext_lazy("river"), "lake": gettext_lazy("lake"), "spring": gettext_lazy("spring"),
    "forest": gettext_lazy("forest"), "gold": gettext_lazy("gold nugget"), "mushroom": gettext_lazy("mushrooms"),
    "deer": pgettext_lazy("animal", "deer"), "mammoth": gettext_lazy("mammoth"), "aurochs": gettext_lazy("aurochs"),
    "tiger": gettext_lazy("sabre-tooth tiger"), "fish": gettext_lazy("fish"), "fire": gettext_lazy("fire"),
    "shrine": gettext_lazy("shrine"), "bonus": gettext_lazy("bonus tile"),
}
"""What the picker's filters look for on a tile, in the order it shows them."""
FIGURES = {"gatherer": gettext_lazy("gatherer"), "fisher": gettext_lazy("fisher"), "hunter": gettext_lazy("hunter"),
           "hut": gettext_lazy("hut")}
TERRAINS = {"forest": gettext_lazy("forest"), "river": gettext_lazy("river"), "meadow": gettext_lazy("meadow"),
            "lake": gettext_lazy("lake")}

_MARK_TAGS = {
    "gold_nuggets": "gold", "mushroom_clearings": "mushroom", "deer": "deer", "mammoths": "mammoth",
    "aurochs": "aurochs", "tigers": "tiger", "fish": "fish",
}


def tile_picture(tile: str, record: Mapping[str, Any]) -> TilePicture:
    key = json.dumps([record.get("kind"), record.get("edges"), record.get("features")], sort_keys=True)
    art, anchors = drawing.tile_art(key, 0)
    tags: set[str] = set()
    for feature in record.get("features", []):
        kind = feature.get("type")
        if kind in ("river", "lake", "forest"):
            tags.add(kind)
        if kind == "river" and feature.get("spring"):
            tags.add("spring")
        for field, tag in _MARK_TAGS.items():
            if feature.get(field):
                tags.add(tag)
        if feature.get("fire"):
            tags.add("fire")
        if feature.get("shrine"):
            tags.add("shrine")
    if record.get("kind") == "bonus":
        tags.add("bonus")
    return TilePicture(
        symbol=symbol(tile, art),
        anchors={fid: (round(x / TILE, 3), round(y / TILE, 3)) for fid, (x, y) in anchors.items()},
        terrains={int(f["id"]): str(f["type"]) for f in record.get("features", [])},
        tags=tuple(t for t in TAGS if t in tags),
        kind=str(record.get("kind", "landscape")),
    )


def figure_glyphs(translate: Callable[[str], str]) -> dict[str, str]:
    """Each figure a player may put on a tile, by kind, drawn at (0, 0) in ``currentColor``."""
    return {kind: drawing.draw_figure(kind, (0.0, 0.0), "currentColor", translate(kind)) for kind in FIGURES}


RECORDER = tile_recorder(slug="hunters-gatherers", draw=tile_picture, tags=TAGS, figures=FIGURES, terrains=TERRAINS,
                         glyphs=figure_glyphs, defs=drawing.SYMBOLS,
                         edge_colours={"river": drawing.RIVER, "forest": drawing.FOREST, "meadow": drawing.MEADOW})
