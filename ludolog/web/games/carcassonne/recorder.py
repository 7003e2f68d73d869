"""Carcassonne at the table recorder (Carcassonne Maps' too: the same tiles): each tile as the
picker shows it (the board's own drawing, with where each feature's meeple stands and what is
printed on it), the picker's filters and the words of its tags, figures and terrains."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from ...games import RecorderParts
from ...recorder.pictures import TilePicture, symbol
from ...recorder.tiles import tile_recorder
from . import drawing

TAGS = {
    "city": gettext_lazy("city"), "pennant": gettext_lazy("pennant"), "road": gettext_lazy("road"),
    "cloister": gettext_lazy("cloister"), "inn": gettext_lazy("inn"), "cathedral": gettext_lazy("cathedral"),
    "wine": gettext_lazy("wine"), "grain": gettext_lazy("grain"), "cloth": gettext_lazy("cloth"),
}
"""What the picker's filters look for on a tile, in the order it shows them."""
FIGURES = {"meeple": gettext_lazy("meeple"), "big": gettext_lazy("large meeple"), "builder": gettext_lazy("builder"),
           "pig": gettext_lazy("pig")}
ROLES = {"city": gettext_lazy("knight"), "road": gettext_lazy("thief"), "cloister": gettext_lazy("monk"),
         "field": gettext_lazy("farmer")}
"""A meeple by the terrain it stands on."""
TERRAINS = {"city": gettext_lazy("city"), "road": gettext_lazy("road"), "field": gettext_lazy("field"),
            "cloister": gettext_lazy("cloister")}


def tile_picture(tile: str, record: Mapping[str, Any]) -> TilePicture:
    art, anchors = drawing.shape_of(dict(record, rotation=0))
    tags: set[str] = set()
    for feature in record.get("features", []):
        kind = feature.get("type")
        if kind in ("city", "road", "cloister"):
            tags.add(kind)
        if kind == "city" and drawing.pennants(feature):
            tags.add("pennant")
        if kind == "city" and (mark := drawing.city_mark(feature)):
            tags.add(mark)
        if kind == "road" and feature.get("inn"):
            tags.add("inn")
    return TilePicture(
        symbol=symbol(tile, art),
        anchors={fid: (round(x, 3), round(y, 3)) for fid, (x, y) in anchors.items()},
        terrains={int(f["id"]): str(f["type"]) for f in record.get("features", [])},
        tags=tuple(t for t in TAGS if t in tags),
        kind="tile",
    )


def figure_glyphs(translate: Callable[[str], str]) -> dict[str, str]:
    """Each figure a player may put on a tile, drawn at (0, 0) in ``currentColor``: a meeple and
    the large meeple by the terrain they stand on (a farmer lies down), the builder and the pig."""
    glyphs = {}
    for terrain in TERRAINS:
        label = translate(drawing.ROLE_WORDS[terrain])
        glyphs[f"meeple:{terrain}"] = drawing.draw_meeple({"type": terrain}, (0.0, 0.0), "currentColor", label)
        glyphs[f"big:{terrain}"] = drawing.draw_meeple(
            {"type": terrain, "kind": "big"}, (0.0, 0.0), "currentColor", translate("large meeple"))
    for kind in ("builder", "pig"):
        glyphs[kind] = drawing.draw_meeple({"kind": kind}, (0.0, 0.0), "currentColor",
                                           translate(drawing.FIGURE_WORDS[kind]))
    return glyphs


def carcassonne_recorder(slug: str, more_words: Callable[[], Mapping[str, str]] | None = None) -> RecorderParts:
    """The recorder of a game played on Carcassonne's tiles."""
    return tile_recorder(slug=slug, draw=tile_picture, tags=TAGS, figures=FIGURES, terrains=TERRAINS, roles=ROLES,
                         glyphs=figure_glyphs, more_words=more_words,
                         edge_colours={"city": drawing.CITY, "road": drawing.ROAD, "field": drawing.FIELD})
